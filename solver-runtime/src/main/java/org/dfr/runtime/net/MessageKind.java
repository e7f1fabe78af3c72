package org.dfr.runtime.net;

/** What a data-plane message carries. */
public enum MessageKind {
    /** Halo of a partition's live state: {@code a} = sending partition, {@code b} = receiving partition. */
    HALO,
    /** Residual contributions of one rank to the root: {@code a} = sending rank; payload = (partition, value) pairs. */
    PARTIAL,
    /** Halo of a duplicate buffer during a data-flow recomputation; keys as {@link #HALO}. */
    RECOMPUTE_HALO,
    /** A rank has finished its part of a recovery: {@code a} = sending rank. */
    RESUME_BARRIER,
    /** A rank has published its final state: {@code a} = sending rank. */
    END_BARRIER,
    /**
     * A rank entered a recovery in this epoch: the receiver stops its iteration at once and reports,
     * instead of waiting for its own membership event ({@code a} = sending rank).
     */
    RECOVERY_START,
    /** The global residual sum, from the root of the reduction: {@code a} = root, {@code b} = receiving rank. */
    REDUCED,
    /**
     * Rank {@code a} is dead, as confirmed by rank {@code b} (its data-plane connection dropped and its
     * listening socket refused a new connection): the receiver stops at once instead of waiting for
     * Hazelcast's heartbeat. Handed to the mailbox's notice listener, never stored.
     */
    RANK_LOST,
    /**
     * The sending rank closes its data plane in order (end of run): the end of this connection that
     * follows is no sign of death. Consumed by the data plane, never delivered.
     */
    LEAVING,
    /**
     * A recovery status ({@code a} = sending rank, {@code b} = the coordinator it reports to), its JSON
     * as text ({@link TextPayload}); of the epoch the sender is leaving. Stored for the recovery.
     */
    STATUS,
    /**
     * A committed recovery directive ({@code a} = the rank that sends it), its JSON as text
     * ({@link TextPayload}); of the epoch it opens. Stored for the recovery.
     */
    DIRECTIVE,
    /**
     * A slice of a partition's final state at the run's end, to the {@code Leadership#root root}, which
     * collects the results: {@code iteration} = the slice ({@code 0}: the state's length), {@code a} = the
     * partition, {@code b} = the sending rank.
     */
    FINAL_STATE,
    /**
     * A slice of a checkpoint copy, from the partition's writer to a holder ({@code DataPlaneReplicas}):
     * {@code iteration} = the checkpoint, {@code a} = the partition, {@code b} = the slice ({@code 0}: the
     * state's length and the writer's rank). Handed to the mailbox's replica channel whatever the epoch.
     *
     * <p>Every {@code REPLICA_*} message carries a request id in its epoch field instead of an epoch (copies
     * are kept and served across epochs): an answer carries the id of the request it answers.
     */
    REPLICA_COPY,
    /** A holder has the whole copy: {@code iteration} = the checkpoint, {@code a} = the partition, {@code b} = the holder. */
    REPLICA_ACK,
    /** The writer no longer needs a copy: {@code iteration} = the checkpoint, {@code a} = the partition, {@code b} = the writer. */
    REPLICA_DROP,
    /** A reader asks a holder for a copy: {@code iteration} = the checkpoint, {@code a} = the partition, {@code b} = the reader. */
    REPLICA_FETCH,
    /**
     * A slice of a fetched copy, from a holder to the reader: keys as {@link #REPLICA_COPY}; slice {@code 0}
     * holds the length ({@code -1}: the holder has no such copy) and the holder's rank.
     */
    REPLICA_REPLY,
    /**
     * A reader asks a rank whether it holds a copy (the copy's locator was lost with the map entries of
     * dead members): {@code iteration} = the checkpoint, {@code a} = the partition, {@code b} = the reader.
     */
    REPLICA_PROBE,
    /**
     * The answer to {@link #REPLICA_PROBE}: {@code iteration} = the checkpoint, {@code a} = the partition,
     * {@code b} = the answering rank; payload {@code [1]} when it holds the copy, {@code [0]} when not.
     */
    REPLICA_PROBE_REPLY,
    /**
     * A checkpoint copy placed for the receiver in a file in shared memory ({@code SharedMemoryCopies}), instead
     * of {@link #REPLICA_COPY} slices: {@code iteration} = the checkpoint, {@code a} = the partition, {@code b} =
     * the writer; payload {@code [length]}. Answered by {@link #REPLICA_ACK} once the holder has it, or by
     * {@link #REPLICA_NOT_SHARED}.
     */
    REPLICA_SHARED,
    /**
     * The holder found no file for a {@link #REPLICA_SHARED} notice (it is on another machine): {@code iteration} =
     * the checkpoint, {@code a} = the partition, {@code b} = the holder. The writer sends the copy as slices.
     */
    REPLICA_NOT_SHARED,
    /**
     * A checkpoint copy lent to a holder in the writer's own JVM: the payload is the writer's array itself
     * ({@code LentArrays}), which the writer does not write again before the holder drops it; {@code iteration} =
     * the checkpoint, {@code a} = the partition, {@code b} = the writer. Delivered only in memory
     * ({@link DataPlane#lend}); answered by {@link #REPLICA_ACK} when the holder keeps it.
     */
    REPLICA_LENT;

    /** Whether this kind belongs to checkpoint replication over the data plane (routed past the epochs). */
    public boolean isReplica() {
        return this == REPLICA_COPY || this == REPLICA_ACK || this == REPLICA_DROP || this == REPLICA_FETCH
                || this == REPLICA_REPLY || this == REPLICA_PROBE || this == REPLICA_PROBE_REPLY || this == REPLICA_SHARED
                || this == REPLICA_NOT_SHARED || this == REPLICA_LENT;
    }

    private static final MessageKind[] VALUES = values();

    static MessageKind ofOrdinal(int ordinal) {
        if (ordinal < 0 || ordinal >= VALUES.length) {
            throw new IllegalArgumentException("unknown message kind " + ordinal);
        }
        return VALUES[ordinal];
    }
}
