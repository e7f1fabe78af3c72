package org.dfr.simulator.sweep;

import java.util.Locale;
import org.dfr.simulator.FailureModel;
import org.dfr.simulator.TimingModel;

/**
 * What global rollback can expect at a node count, before anything is simulated. Under global rollback an
 * iteration completes only when the whole machine runs it without a failure (a failure sends every partition
 * back, and the iteration starts again once the lost ones are recomputed, with the clock of failures paused
 * meanwhile); with failures arriving at rate {@code λ = nodes / MTBF} that takes {@code e^(λ T) - 1} failures on
 * average for an iteration of {@code T} seconds, so a run of {@code I} iterations expects about
 * {@code I (e^(λ T) - 1)} (the paper's model: 352 at 10^4 nodes and 21250 at 10^5 simulated, against 357 and
 * 20200 from this). Past the run's failure cap it ends incomplete, after simulating that many recoveries of every
 * partition, which can take hours; the sweep says so before it starts. (Global rollback is the baseline of
 * every sweep, so the other strategies' points wait for it.)
 *
 * @param nodes                  the node count
 * @param secondsBetweenFailures the machine's mean time between failures, {@code MTBF / nodes}
 * @param iterationSeconds       one failure-free iteration, task and halo
 * @param expectedFailures       failures global rollback expects before it completes (may be infinite)
 */
public record GlobalRollbackOutlook(int nodes, double secondsBetweenFailures, double iterationSeconds,
                                    double expectedFailures) {

    /** The outlook of {@code iterations} iterations on {@code nodes}. */
    public static GlobalRollbackOutlook of(int nodes, int iterations, TimingModel timing, FailureModel failures) {
        double between = failures.nodeMtbfSeconds() / nodes;
        return new GlobalRollbackOutlook(nodes, between, timing.iterationSeconds(),
                iterations * Math.expm1(timing.iterationSeconds() / between));
    }

    /** Whether global rollback's runs are expected to stop at the failure cap, incomplete. */
    public boolean exceeds(long maxFailures) {
        return expectedFailures > maxFailures;
    }

    /** One line for the user, naming the figures and what to change. */
    public String warning(long maxFailures) {
        return String.format(Locale.ROOT, "warning: at %d nodes a node fails every %.3g s on average"
                        + " (an iteration takes %.3g s): global rollback expects about %.3g failures before it"
                        + " completes, more than --max-failures %d, so its runs will stop there, incomplete, after"
                        + " simulating every one of them; fewer --nodes, a longer --mtbf-hours or a lower --max-failures"
                        + " shortens this", nodes, secondsBetweenFailures, iterationSeconds,
                Double.isInfinite(expectedFailures) ? Double.MAX_VALUE : expectedFailures, maxFailures);
    }
}
