package org.dfr.harness.campaign;

import java.util.List;

/**
 * The kinds of failure a campaign trial draws. Each maps onto a point the fault injector can kill (or,
 * for {@link #PAUSE}, stop) a rank at ({@link org.dfr.recovery.FaultPlan.Point}) and a choice of victim.
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
    REDUCTION_ROOT,
    /** A rank dies in the middle of the halo exchange: its halos sent, the ones it needs not received. */
    DURING_HALO_EXCHANGE,
    /**
     * A rank dies during the agreement of the next recovery: after reporting its status, before executing
     * the directive. In about a third of the trials the victim is rank 0, the coordinator, which then dies
     * before deciding.
     */
    DURING_AGREEMENT,
    /**
     * Not a death: a rank stops at the start of an iteration for 20-50 % of the heartbeat timeout, then goes
     * on (SIGSTOP and SIGCONT of its process; in-JVM: its iteration thread blocks). No recovery may follow.
     */
    PAUSE,
    /**
     * A rank other than the root dies at the end of the run, once its final states are handed over and its
     * end-of-run notices sent. Nothing is lost by it: no recovery follows from it alone. Not one of a trial's 1-3
     * failures but
     * drawn apart, in some trials of {@code --faults all} ({@link TrialDraw}), so that the other draws of a seed
     * stay what they were before it existed.
     */
    AT_RUN_END;

    /** The kinds a classic campaign draws: deaths at the start of an iteration only. */
    public static final List<FaultKind> CLASSIC = List.of(ITERATION_START);

    /** The kinds a trial of {@code --faults all} draws its failures from: every kind but {@link #AT_RUN_END}. */
    public static final List<FaultKind> ALL = List.of(ITERATION_START, DURING_REDUCTION, AFTER_CHECKPOINT_WRITE,
            DURING_RECOVERY, HOST, COORDINATOR, REDUCTION_ROOT, DURING_HALO_EXCHANGE, DURING_AGREEMENT, PAUSE);
}
