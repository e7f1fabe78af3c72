package org.dfr.runtime;

/**
 * Decides what happens when a rank learns of a failure. The runtime knows how to iterate; the
 * recovery module knows how to agree, replace and roll back. "No recovery" is just another
 * implementation: {@link #FAIL_FAST}. The handler sees the rank through {@link RecoveryView}.
 */
public interface FailureHandler {

    /**
     * Brings this rank through a recovery.
     *
     * @param cause why the rank stopped its iteration (an epoch change or a communication failure)
     * @return the next iteration this rank must execute (greater than {@code iterations} when done)
     * @throws RunFailedException when the run cannot continue
     */
    int recover(RecoveryView rank, RuntimeException cause);

    /**
     * Parks a spare until it adopts a partition.
     *
     * @return the next iteration the spare must execute, or {@code -1} if the run ended without it
     */
    int awaitWork(RecoveryView spare);

    /**
     * Waits until what this handler writes in the background for {@code rank} (the records of its
     * recoveries) is on the control board: called before the rank publishes its final state, so that
     * the results collected after the end barrier hold every record.
     */
    default void flush(RecoveryView rank) {
    }

    /** Fails the run at the first failure. */
    FailureHandler FAIL_FAST = new FailureHandler() {
        @Override
        public int recover(RecoveryView rank, RuntimeException cause) {
            throw new RunFailedException("rank " + rank.rankId() + " lost a peer and recovery is disabled: "
                    + cause.getMessage(), cause);
        }

        @Override
        public int awaitWork(RecoveryView spare) {
            return spare.awaitRunEnd();
        }
    };
}
