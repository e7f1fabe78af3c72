package org.dfr.harness.campaign;

/**
 * The kinds of failure a campaign trial draws. Each maps onto a point the fault injector can kill at
 * ({@link org.dfr.recovery.FaultPlan.Point}) and a choice of victim.
 */
public enum FaultKind {
    /** A rank dies at the start of an iteration (after the previous one completed everywhere). */
    ITERATION_START,
    /** A rank dies inside the residual reduction: its contribution sent, the sum not yet received. */
    DURING_REDUCTION,
    /** A rank dies after writing its checkpoint, before the checkpoint is committed. */
    AFTER_CHECKPOINT_WRITE,
    /** A rank dies after the first recomputed level of the next recovery. */
    DURING_RECOVERY,
    /** Every rank of a host dies at the start of an iteration. */
    HOST,
    /** Rank 0, the oldest member and so the recovery's coordinator, dies at the start of an iteration. */
    COORDINATOR,
    /** Rank 0, the lowest active rank and so the reduction's root, dies inside the reduction. */
    REDUCTION_ROOT;

    /** The kinds a classic campaign draws: deaths at the start of an iteration only. */
    public static final java.util.List<FaultKind> CLASSIC = java.util.List.of(ITERATION_START);

    /** Every kind. */
    public static final java.util.List<FaultKind> ALL = java.util.List.of(values());
}
