package org.dfr.simulator;

/**
 * Energy of a run, summed over all nodes, and the node-seconds behind it.
 *
 * @param busySeconds        node-seconds computing (tasks, checkpoints, reloads, log copies)
 * @param idleSeconds        node-seconds waiting, uncapped
 * @param cappedIdleSeconds  node-seconds idle and capped during recoveries
 * @param busyJoules         energy while computing
 * @param idleJoules         energy while waiting uncapped
 * @param cappedIdleJoules   energy while capped
 */
public record EnergyBreakdown(double busySeconds, double idleSeconds, double cappedIdleSeconds,
                              double busyJoules, double idleJoules, double cappedIdleJoules) {

    /** Total energy, J. */
    public double totalJoules() {
        return busyJoules + idleJoules + cappedIdleJoules;
    }
}
