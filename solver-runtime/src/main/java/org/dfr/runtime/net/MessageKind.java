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
    REDUCED;

    private static final MessageKind[] VALUES = values();

    static MessageKind ofOrdinal(int ordinal) {
        if (ordinal < 0 || ordinal >= VALUES.length) {
            throw new IllegalArgumentException("unknown message kind " + ordinal);
        }
        return VALUES[ordinal];
    }
}
