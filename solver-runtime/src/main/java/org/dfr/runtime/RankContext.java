package org.dfr.runtime;

/**
 * What an {@link IterationHook} sees of a rank: who it is, where it stands, the control board to
 * record an event on, and the way to end it abruptly.
 */
public interface RankContext {

    /** This rank's id. */
    int rankId();

    /** Iteration the live buffers hold. */
    int liveIteration();

    /** Whether the rank is inside a recovery (between a failure and the resume barrier). */
    boolean inRecovery();

    /**
     * Whether this rank counts rank {@code rank} as a live member: false once it found it dead or saw it leave
     * (and, if that loss interrupts the epoch, only after it did).
     */
    boolean isLive(int rank);

    /** The replicated control board. */
    ControlBoard control();

    /**
     * Ends this member abruptly, as a crash would: the Hazelcast member is terminated (no graceful
     * migration), sockets close, and the rank's thread unwinds with the returned exception (throw it).
     */
    RankKilledException killAbruptly();
}
