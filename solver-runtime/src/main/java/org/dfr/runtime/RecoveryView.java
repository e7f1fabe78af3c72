package org.dfr.runtime;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

/**
 * What a {@link FailureHandler} (and the recovery it runs) sees of a rank: the run, the cluster as
 * this rank sees it, the ownership, the partition states, the checkpoints and the communication
 * primitives; and the few operations a recovery performs on the rank.
 */
public interface RecoveryView extends RankContext {

    /** The run's shape. */
    RunSpec spec();

    /** Timeouts and the cluster's name and ports. */
    ClusterSettings settings();

    /** The kernel the rank runs. */
    PartitionKernel kernel();

    // ---------------------------------------------------------------- cluster

    /** Ranks currently in the cluster. */
    TreeSet<Integer> liveRanks();

    /**
     * Waits until every rank of {@code ranks} is a member in this rank's view, unless one of the missing
     * ones left ({@link Membership#awaitMembers}).
     *
     * @return the ranks still missing (empty when all are members)
     */
    Set<Integer> awaitMembers(Collection<Integer> ranks, long timeoutMillis);

    /**
     * Re-checks {@code condition} whenever the control board or the membership changes, and at least every
     * {@code pollMillis} ({@link Membership#pollUntil}).
     *
     * @return whether it held before {@code timeoutMillis} passed
     */
    boolean pollUntil(BooleanSupplier condition, long timeoutMillis, long pollMillis);

    /**
     * Whether this rank is the only member of the run left, and none can come to give it work: it saw the others
     * leave, or it was respawned into a run whose members had all gone (it then formed a cluster of its own, with
     * nothing on its board). A waiting spare then has nothing more to wait for.
     */
    boolean isLeftAlone();

    /** The ranks currently in the cluster, oldest member (the coordinator) first. */
    List<Integer> liveRanksOldestFirst();

    /** Whether this rank is the coordinator of recoveries ({@link Leadership#isCoordinator}). */
    boolean isCoordinator();

    /** Member losses observed so far, oldest first; drained. */
    List<Membership.MemberLoss> drainLosses();

    /** Ranks whose death a recovery accounted for: late events about them no longer interrupt. */
    void acknowledgeDead(Collection<Integer> ranks);

    /** Whether every Hazelcast partition has an owner that is a current member. */
    boolean partitionsOwnedByLiveMembers();

    /** Restores the backups a loss took, between recoveries. */
    BackupRepair backupRepair();

    /** Whether this rank was killed. */
    boolean isKilled();

    /** Blocks until the run ended (a spare that was never needed) and returns -1. */
    int awaitRunEnd();

    // ---------------------------------------------------------------- ownership and state

    /** The ownership in force. */
    Ownership ownership();

    /** Installs an agreed ownership; drops the states of partitions this rank no longer owns. */
    void adoptOwnership(Ownership ownership);

    /** Partitions this rank owns, ascending. */
    int[] ownedPartitions();

    /** The double buffers of the owned partitions. */
    PartitionStates states();

    /** The checkpoint copies. */
    CheckpointStore checkpoints();

    /** The last checkpoint this rank knows every rank wrote. */
    int committedCheckpoint();

    /** Sets the committed checkpoint (a global rollback restored it). */
    void setCommittedCheckpoint(int iteration);

    /**
     * Forgets the copies this rank holds of {@code deadRanks}' uncommitted checkpoints, then starts placing
     * new copies of the committed checkpoint of every owned partition whose copies lost a holder (a death
     * during or before the recovery), in the background: so that the recovery leaves no checkpoint with
     * fewer copies than asked for once they are in place, without holding the resume for them. Nothing to
     * place where the checkpoint map restores its backups itself.
     */
    void repairCheckpointCopies(Collection<Integer> deadRanks);

    // ---------------------------------------------------------------- execution

    /** Halos, reductions and barriers over the data plane. */
    Communicator communicator();

    /** Recovery statuses and directives that arrived over the data plane. */
    RecoveryInbox recoveryInbox();

    /** Runs one full iteration of the normal loop (a global rollback recomputing). */
    void runIteration(int iteration);

    /** Tells the hook that this rank reported its status for {@code epoch} and awaits the directive. */
    void duringAgreement(int epoch);

    /** Tells the hook that this rank finished recomputed level {@code level} (1-based) of the recovery of {@code failureIteration}. */
    void afterRecoveryStep(int failureIteration, int level);

    /** Tells the hook that this rank, a spare without partitions, saw the board change while it waits for work. */
    void whileIdle();

    /** Marks the start ({@code true}) or the end of a recovery on this rank. */
    void setInRecovery(boolean value);

    /** Counts one kernel update performed outside the normal loop. */
    void countUpdate();

    /**
     * Whether checkpoint {@code iteration} holds where the run started: the kernel's initial state (iteration 0), or
     * the file checkpoint it restarted from. Such a checkpoint is rebuilt by {@link #startingState} when every copy
     * of it died: a partition needs no replicated copy of it.
     */
    boolean isStartingCheckpoint(int iteration);

    /**
     * Partition {@code partition}'s state where the run started ({@link #isStartingCheckpoint}), rebuilt as the run
     * built it: a fresh array.
     *
     * @throws IllegalArgumentException if {@code iteration} is not the starting checkpoint
     */
    double[] startingState(int iteration, int partition);

    /** Where the run started: 0, or the iteration of the file checkpoint it restarted from. */
    int startingIteration();

    /**
     * The newest iteration at or before {@code atMost} whose file level (the run's {@code --checkpoint-dir}) holds
     * every partition's file, each read back valid (checksum, partition, iteration); -1 when the run writes no file
     * level or none is complete. Incomplete newer levels are logged, with the first file that is missing or invalid.
     * Reads every file of the levels it looks at: for the rare recovery that lost every in-memory copy.
     */
    int newestFileLevel(int atMost);

    /**
     * Partition {@code partition}'s checkpoint {@code iteration} read from the run's file level: a fresh array.
     *
     * @throws RunFailedException of kind {@link RunFailedException.Kind#CHECKPOINT_LOST} naming the file and what is
     *     wrong with it, when it cannot be read or does not hold this partition's state
     */
    double[] fileLevelState(int iteration, int partition);
}
