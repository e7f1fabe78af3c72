package org.dfr.simulator;

/**
 * One recovery as the simulator performed it, in the terms of the runtime's run report.
 *
 * @param lostPartitions                  every partition lost in this recovery (union over simultaneous failures
 *                                        and failures during the recovery), sorted
 * @param checkpointIteration             {@code c}
 * @param failureIteration                {@code t}
 * @param lostIterations                  {@code m = t-1-c}
 * @param recomputedPartitionIterations   tasks of the final, completed recovery (for DFR the cone's
 *                                        {@code recomputedPartitionIterations()}, global {@code n m}, message log
 *                                        {@code |lost| m})
 * @param abortedPartitionIterations      tasks of earlier attempts cut short by a failure during the recovery
 * @param partitionCount                  partitions of the run
 * @param participatingPartitions         partitions that recomputed or reloaded, sorted (the others are
 *                                        {@link #idlePartitions()})
 * @param attempts                        1, plus one per failure during the recovery
 * @param failureSeconds                  simulated time of the (first) death
 * @param recoveryStartSeconds            when the final attempt started (after detection and replacement)
 * @param recoveryEndSeconds              when every partition resumed iteration {@code t}
 */
public record RecoveryRecord(int[] lostPartitions, int checkpointIteration, int failureIteration, int lostIterations,
                             long recomputedPartitionIterations, long abortedPartitionIterations,
                             int partitionCount, int[] participatingPartitions, int attempts,
                             double failureSeconds, double recoveryStartSeconds, double recoveryEndSeconds) {

    /** Every partition not participating, sorted ascending (computed on each call). */
    public int[] idlePartitions() {
        int[] idle = new int[partitionCount - participatingPartitions.length];
        int at = 0;
        int next = 0;
        for (int p : participatingPartitions) {
            while (next < p) {
                idle[at++] = next++;
            }
            next = p + 1;
        }
        while (next < partitionCount) {
            idle[at++] = next++;
        }
        return idle;
    }

    /** Seconds from the death to everybody resuming. */
    public double recoverySeconds() {
        return recoveryEndSeconds - failureSeconds;
    }
}
