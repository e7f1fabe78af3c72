package org.dfr.cli.options;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.dfr.recovery.FaultPlan;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code --fail RANK@ITER}, {@code --fail-host HOST@ITER} and {@code --fail-during-recovery RANK} of
 * {@code dfr run}: the failures to inject, and the refusal of those that would do nothing.
 */
public final class FaultOptions {

    @Option(names = "--fail", paramLabel = "RANK@ITER", converter = KillConverter.class,
            description = "Kill RANK at the start of ITER (repeatable; same ITER = simultaneous).")
    List<FaultPlan.Kill> fail = new ArrayList<>();

    @Option(names = "--fail-host", paramLabel = "HOST@ITER", converter = KillConverter.class,
            description = "Kill every rank of HOST at the start of ITER.")
    List<FaultPlan.Kill> failHost = new ArrayList<>();

    @Option(names = "--fail-during-recovery", paramLabel = "RANK",
            description = "RANK dies after the first recomputed level of the next recovery.")
    List<Integer> failDuringRecovery = new ArrayList<>();

    /** {@code --fail}: ranks killed at the start of an iteration. */
    public List<FaultPlan.Kill> rankKills() {
        return List.copyOf(fail);
    }

    /** {@code --fail-host}: hosts whose ranks are all killed at the start of an iteration. */
    public List<FaultPlan.Kill> hostKills() {
        return List.copyOf(failHost);
    }

    /** {@code --fail-during-recovery}: ranks that die during the next recovery. */
    public SortedSet<Integer> duringRecovery() {
        return new TreeSet<>(failDuringRecovery);
    }

    /**
     * Refuses fault options that would do nothing, rather than silently dropping them: a rank dies once
     * (its replacement has another id), and a failure during recovery needs a recovery.
     *
     * @param plan    the run's faults, {@code --fail-host} expanded to its ranks
     * @param members the run's ranks, spares included
     * @throws ParameterException (exit code 2) naming the option
     */
    public void requireMeaningful(CommandSpec spec, FaultPlan plan, int members) {
        Map<Integer, FaultPlan.Kill> firstKill = new HashMap<>();
        // --fail-host expanded to its ranks: a host's rank given to --fail as well dies once too
        for (FaultPlan.Kill k : plan.kills()) {
            FaultPlan.Kill earlier = firstKill.putIfAbsent(k.rank(), k);
            if (earlier != null) {
                throw new ParameterException(spec.commandLine(), "rank " + k.rank() + " is killed twice (at iterations "
                        + earlier.iteration() + " and " + k.iteration() + ", by --fail or --fail-host): a rank dies once;"
                        + " its replacement has another id");
            }
        }
        if (!failDuringRecovery.isEmpty() && plan.kills().isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--fail-during-recovery " + failDuringRecovery.get(0)
                    + " needs a recovery to fail in: give --fail RANK@ITER or --fail-host HOST@ITER too");
        }
        for (int r : failDuringRecovery) {
            FaultPlan.Kill before = firstKill.get(r);
            if (before != null) {
                throw new ParameterException(spec.commandLine(), "--fail-during-recovery " + r + " names a rank that is"
                        + " also killed at iteration " + before.iteration() + " by --fail or --fail-host: a rank dies"
                        + " once; name another rank");
            }
        }
        Set<Integer> once = new TreeSet<>();
        for (int r : failDuringRecovery) {
            if (!once.add(r)) {
                throw new ParameterException(spec.commandLine(), "--fail-during-recovery " + r + " is given twice:"
                        + " a rank dies once");
            }
        }
        Set<Integer> dying = new TreeSet<>(firstKill.keySet());
        dying.addAll(failDuringRecovery);
        if (members > 0 && dying.size() >= members) {
            throw new ParameterException(spec.commandLine(), "the faults kill all " + members + " ranks " + dying
                    + ": a run needs at least one survivor to recover (add --spares S for more ranks)");
        }
    }

    /**
     * Refuses any fault for a run that cannot have one ({@code --reference}, the sequential implementation):
     * a kill asked of it would be silently dropped.
     *
     * @param why what the run is, for the message
     * @throws ParameterException (exit code 2) naming the options to leave out
     */
    public void requireNone(CommandSpec spec, String why) {
        if (!fail.isEmpty() || !failHost.isEmpty() || !failDuringRecovery.isEmpty()) {
            throw new ParameterException(spec.commandLine(), why + ": leave out --fail, --fail-host and"
                    + " --fail-during-recovery (its digest is what a run with them must print)");
        }
    }
}
