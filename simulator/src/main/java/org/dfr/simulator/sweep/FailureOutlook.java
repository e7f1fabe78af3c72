package org.dfr.simulator.sweep;

import java.util.Locale;
import org.dfr.simulator.FailureModel;
import org.dfr.simulator.TimingModel;

/**
 * What every strategy can expect at a node count, before anything is simulated. In the simulator's model a
 * failure discards the iteration in progress everywhere (the survivors fall back to the state of {@code t-1},
 * whatever the strategy; only what then recomputes differs), so an iteration completes only when the whole
 * machine runs it without a failure, with the clock of failures paused during recoveries. With failures
 * arriving at rate {@code λ = nodes / MTBF} that takes {@code e^(λ T) - 1} failures on average for an iteration
 * of {@code T} seconds, so a run of {@code I} iterations expects about {@code I (e^(λ T) - 1)} (the paper's
 * model: global rollback 352 at 10^4 nodes and 21250 at 10^5 simulated, against 357 and 20200 from this; DFR
 * within 15 % of it at 2000 nodes). Past the run's failure cap a run ends incomplete, after simulating that
 * many recoveries, which can take hours; the sweep says so before it starts.
 *
 * @param nodes                  the node count
 * @param secondsBetweenFailures the machine's mean time between failures, {@code MTBF / nodes}
 * @param iterationSeconds       one failure-free iteration, task and halo
 * @param expectedFailures       failures a run expects before it completes (may be infinite)
 */
public record FailureOutlook(int nodes, double secondsBetweenFailures, double iterationSeconds,
                             double expectedFailures) {

    /** The outlook of {@code iterations} iterations on {@code nodes}. */
    public static FailureOutlook of(int nodes, int iterations, TimingModel timing, FailureModel failures) {
        double between = failures.nodeMtbfSeconds() / nodes;
        return new FailureOutlook(nodes, between, timing.iterationSeconds(),
                iterations * Math.expm1(timing.iterationSeconds() / between));
    }

    /** Whether the runs are expected to stop at the failure cap, incomplete. */
    public boolean exceeds(long maxFailures) {
        return expectedFailures > maxFailures;
    }

    /** One line for the user of a sweep, naming the figures and what to change. */
    public String warning(long maxFailures) {
        return warning(maxFailures, "fewer --nodes", " (points.csv: incompleteRuns)");
    }

    /**
     * One line for the user, naming the figures and what to change.
     *
     * @param fewerNodes   how to ask for fewer nodes, e.g. {@code fewer --nodes}
     * @param whereCounted where the incomplete runs are counted, with a leading space; empty for nowhere
     */
    public String warning(long maxFailures, String fewerNodes, String whereCounted) {
        return String.format(Locale.ROOT, "warning: at %d nodes a node fails every %.3g s on average"
                        + " (an iteration takes %.3g s, and completes only when no node fails during it): a run expects"
                        + " about %.3g failures before it completes, whatever the strategy, more than --max-failures %d,"
                        + " so the runs will stop there, incomplete, after simulating every one of them, and their"
                        + " figures will be of partial runs%s; %s, a longer --mtbf-hours or a lower --max-failures"
                        + " shortens this", nodes, secondsBetweenFailures, iterationSeconds,
                Double.isInfinite(expectedFailures) ? Double.MAX_VALUE : expectedFailures, maxFailures, whereCounted,
                fewerNodes);
    }
}
