package org.dfr.runtime;

/**
 * Called by a rank at fixed points of its loop. Fault injection uses it to kill a rank at an exact
 * point; the default does nothing. The hook sees the rank through {@link RankContext}.
 */
public interface IterationHook {

    /** The hook that does nothing. */
    IterationHook NONE = new IterationHook() {
    };

    /**
     * At the start of iteration {@code iteration}, before anything of it is sent. Unless
     * {@link #mayStartEarly} says no, the rank may still be waiting for the sum of the reduction of
     * {@code iteration - 1}: it starts the next iteration while it waits.
     */
    default void beforeIteration(RankContext rank, int iteration) {
    }

    /**
     * Whether this rank may begin iteration {@code iteration} (call {@link #beforeIteration} and
     * send its halos) while it still waits for the sum of the previous iteration. Fault injection
     * answers no for a rank it kills at the start of that iteration, so that the rank dies after the
     * previous iteration completed everywhere, checkpoint commit included.
     */
    default boolean mayStartEarly(RankContext rank, int iteration) {
        return true;
    }

    /**
     * In the middle of the halo exchange of {@code iteration}: this rank's halos of it are sent, the
     * halos it needs are not received yet.
     */
    default void afterHalosSent(RankContext rank, int iteration) {
    }

    /**
     * During the agreement of a recovery: this rank noticed the failure and reported its status for
     * {@code epoch}, and has not executed the next epoch's directive yet (the coordinator: not decided it).
     */
    default void duringAgreement(RankContext rank, int epoch) {
    }

    /**
     * After this rank finished recomputed level {@code level} (1-based) of the recovery of a failure in
     * iteration {@code failureIteration} (a spare or an adopter holds no iteration of the run of its own).
     */
    default void afterRecoveryStep(RankContext rank, int failureIteration, int level) {
    }

    /** After this rank wrote its partitions of checkpoint {@code iteration}, before the reduction. */
    default void afterCheckpointWrite(RankContext rank, int iteration) {
    }

    /**
     * After this rank sent its residual contribution for {@code iteration} to the root, before it
     * receives the sum; on the root itself, before it receives the others' contributions.
     */
    default void afterPartialSent(RankContext rank, int iteration) {
    }

    /**
     * Called by a spare that owns no partition, each time the control board changes while it waits for work:
     * it runs no iteration, so this is where it can meet what is planned for it at one (a host's death).
     */
    default void whileIdle(RankContext rank) {
    }

    /**
     * At the end of the run: this rank handed its final states to the root and its statistics to the cluster,
     * and told every other rank so (its end-of-run notices are sent); it has not waited for theirs yet.
     */
    default void afterEndNoticesSent(RankContext rank) {
    }

    /**
     * On the rank's replication thread, before it writes the replicated copies of checkpoint
     * {@code iteration} (fault injection holds a replication here).
     */
    default void beforeReplication(RankContext rank, int iteration) {
    }

    /**
     * On the rank's own thread, before it waits for its replication of checkpoint {@code iteration}
     * that is still in flight when the checkpoint's commit is due.
     */
    default void whileReplicationPending(RankContext rank, int iteration) {
    }
}
