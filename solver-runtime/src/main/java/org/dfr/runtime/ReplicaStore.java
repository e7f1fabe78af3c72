package org.dfr.runtime;

import java.util.Collection;
import java.util.List;

/**
 * Where a rank's checkpoint states are copied to, so that its death loses none: the replicated half
 * of a {@link CheckpointStore}, which keeps the local copies and the locators.
 *
 * <p>Two implementations, chosen per run ({@link CheckpointReplication}): {@link HazelcastReplicas}
 * (the checkpoint map with its synchronous backups) and {@link DataPlaneReplicas} (holder ranks on
 * other hosts, over the data plane).
 */
public interface ReplicaStore extends AutoCloseable {

    /**
     * Copies {@code state}, the state of {@code partition} at checkpoint {@code iteration}, and returns
     * once every copy is in place. Called on the rank's replication thread.
     *
     * <p>Holders in this JVM may keep {@code state} itself ({@link LentArrays}): the caller writes into it again only
     * once {@link LentArrays#whenFree} lets it (its ghost frame excepted, which no copy stands for).
     *
     * @throws org.dfr.runtime.net.CommunicationException if no copy could be placed
     */
    ReplicaRef write(int iteration, int partition, double[] state);

    /** A copy of the state {@code ref} locates, or null when no copy is left. */
    double[] read(ReplicaRef ref);

    /**
     * This rank's own copy of checkpoint {@code iteration} of {@code partition}, held for its former owner, or
     * null: read without the locator, which lives in the map and may be waiting for Hazelcast to promote a
     * backup right after a member loss.
     */
    default double[] readHeld(int iteration, int partition) {
        return null; // the map's copies are found through their locator
    }

    /** Whether a copy of the state {@code ref} locates is left. */
    boolean holds(ReplicaRef ref);

    /**
     * Whether every copy {@code ref} names is still in place: a state that did not change may then be
     * shared by the next checkpoint instead of sent again.
     */
    boolean intact(ReplicaRef ref);

    /**
     * Where copies of checkpoint {@code iteration} of {@code partition} are, found without their locator
     * (lost with the map entries of dead members), or null when none can be found that way. Best effort,
     * for a recovery only.
     */
    default ReplicaRef locate(int iteration, int partition) {
        return null; // the map's state keys cannot be known without their locator
    }

    /** Deletes the copies {@code ref} locates (best effort). */
    void delete(ReplicaRef ref);

    /**
     * Forgets the copies this rank holds for {@code deadWriters} of checkpoints after {@code committed}: they
     * can never be committed, and nobody is left to delete them.
     *
     * @return how many copies were forgotten (none where this rank holds no copies for others)
     */
    default int dropOrphans(Collection<Integer> deadWriters, int committed) {
        return 0;
    }

    /** Copies this rank wrote through shared memory so far ({@link SharedMemoryCopies}); none but on the data plane. */
    default long sharedMemoryCopies() {
        return 0;
    }

    /**
     * Copies this rank lent to holders in its own JVM so far: its own arrays, not copies of them
     * ({@link LentArrays}); none but on the data plane in embedded mode.
     */
    default long lentCopies() {
        return 0;
    }

    /** Checkpoint copies this rank holds for other ranks now (none where the copies live elsewhere). */
    default int heldCopies() {
        return 0;
    }

    /**
     * The complete, intact copies this rank holds for other ranks now, as {@link #readHeld} would return them (none
     * where the copies live elsewhere): what a survivor reports in its recovery status.
     */
    default List<HeldCopy> intactHeldCopies() {
        return List.of();
    }

    /** Stops serving copies to others; nothing to stop where the copies live elsewhere. */
    @Override
    default void close() {
    }
}
