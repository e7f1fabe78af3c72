package org.dfr.runtime;

/**
 * What one rank did, published at the end of a run (instrumented counts, not estimates).
 *
 * @param kernelUpdates every partition update this rank performed
 * @param kernelUpdatesDuringRecovery updates performed between a failure and the resume barrier
 * @param droppedStaleMessages messages of an abandoned epoch that were dropped
 */
public record RankStats(int rank, long kernelUpdates, long kernelUpdatesDuringRecovery, long droppedStaleMessages,
                        long idleMillisDuringRecovery) {
}
