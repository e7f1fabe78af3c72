package org.dfr.harness.campaign;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dfr.harness.Replacement;
import org.dfr.harness.RunConfig;
import org.dfr.recovery.FaultPlan;

/**
 * One drawn trial: the run to make (kernel, sizes, strategy, spares and every planned failure are in
 * its configuration), who replaces the dead ranks, and the kinds of failure that were drawn, in order.
 *
 * @param index the trial's number in its campaign (0-based); with the seed it replays the trial
 * @param config the run, faults included
 * @param kinds the failures drawn, one per planned death (a host failure counts once)
 * @param replacement who adopts the lost partitions: the spare when the run has one, otherwise survivors
 *        ({@link Replacement#ADOPT}) or, in processes mode, fresh rank processes ({@link Replacement#RESPAWN})
 */
public record TrialPlan(int index, RunConfig config, List<FaultKind> kinds, Replacement replacement) {

    /** @throws IllegalArgumentException when the replacement cannot work with the run's spares and mode */
    public TrialPlan {
        kinds = List.copyOf(kinds);
        String problem = replacement.problem(config.spares(), config.mode(), false);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** A trial with the replacement a run gets by default: its spare when it has one, else adoption. */
    public TrialPlan(int index, RunConfig config, List<FaultKind> kinds) {
        this(index, config, kinds, Replacement.defaultFor(config.spares()));
    }

    /** The same trial with another replacement (a replay that tries another one). */
    public TrialPlan withReplacement(Replacement value) {
        return new TrialPlan(index, config, kinds, value);
    }

    /** A short description: kernel, strategy, spares, replacement, capping, commit lag, failures and pauses. */
    public String describe() {
        String faults = faults();
        return setting() + (faults.isEmpty() ? "" : " " + faults);
    }

    /** The trial's setting: kernel, strategy, spares, replacement, capping and commit lag, e.g. {@code heat1d3 dfr adopt capped}. */
    public String setting() {
        StringBuilder b = new StringBuilder(config.kernel().name()).append(' ').append(config.strategy().label());
        if (config.spares() > 0) {
            b.append(" spares=").append(config.spares());
        }
        b.append(' ').append(replacement.optionValue());
        if (config.capIdleHosts()) {
            b.append(" capped");
        }
        if (config.commitLagIterations() != null) {
            b.append(" lag").append(config.commitLagIterations());
        }
        return b.toString();
    }

    /**
     * The trial's faults, e.g. {@code 4@8/after_checkpoint_write 5@1/pause3058ms host1@6 2@recovery}: rank@iteration
     * with the point when not the iteration's start, host failures, deaths during a recovery.
     */
    public String faults() {
        List<String> faults = new ArrayList<>();
        config.kills().forEach(k -> faults.add(k.rank() + "@" + k.iteration()
                + (k.point() == FaultPlan.Point.ITERATION_START ? "" : "/" + k.point().name().toLowerCase(Locale.ROOT))
                + (k.point() == FaultPlan.Point.PAUSE ? k.pauseMillis() + "ms" : "")));
        config.hostFailures().forEach(h -> faults.add("host" + h.rank() + "@" + h.iteration()));
        config.failDuringRecovery().forEach(r -> faults.add(r + "@recovery"));
        return String.join(" ", faults);
    }
}
