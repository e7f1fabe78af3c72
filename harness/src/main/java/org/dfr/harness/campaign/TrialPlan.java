package org.dfr.harness.campaign;

import java.util.List;
import org.dfr.harness.RunConfig;

/**
 * One drawn trial: the run to make (kernel, sizes, strategy, spares and every planned failure are in
 * its configuration) and the kinds of failure that were drawn, in order.
 *
 * @param index the trial's number in its campaign (0-based); with the seed it replays the trial
 * @param config the run, faults included
 * @param kinds the failures drawn, one per planned death (a host failure counts once)
 */
public record TrialPlan(int index, RunConfig config, List<FaultKind> kinds) {

    public TrialPlan {
        kinds = List.copyOf(kinds);
    }

    /** A short description: kernel, strategy, spares, capping, failures and pauses. */
    public String describe() {
        StringBuilder b = new StringBuilder(config.kernel().name()).append(' ').append(config.strategy().label());
        if (config.spares() > 0) {
            b.append(" spares=").append(config.spares());
        }
        if (config.capIdleHosts()) {
            b.append(" capped");
        }
        config.kills().forEach(k -> b.append(' ').append(k.rank()).append('@').append(k.iteration())
                .append(k.point() == org.dfr.recovery.FaultPlan.Point.ITERATION_START ? ""
                        : "/" + k.point().name().toLowerCase(java.util.Locale.ROOT))
                .append(k.point() == org.dfr.recovery.FaultPlan.Point.PAUSE ? k.pauseMillis() + "ms" : ""));
        config.hostFailures().forEach(h -> b.append(" host").append(h.rank()).append('@').append(h.iteration()));
        config.failDuringRecovery().forEach(r -> b.append(' ').append(r).append("@recovery"));
        return b.toString();
    }
}
