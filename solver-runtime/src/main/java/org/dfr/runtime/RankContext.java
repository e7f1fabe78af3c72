package org.dfr.runtime;

import java.util.Collection;

/**
 * What an {@link IterationHook} sees of a rank: who it is, where it stands, the control board and the
 * failure log to record an event on, and the way to end it abruptly.
 */
public interface RankContext {

    /** This rank's id. */
    int rankId();

    /** Iteration the live buffers hold. */
    int liveIteration();

    /** Whether the rank is inside a recovery (between a failure and the resume barrier). */
    boolean inRecovery();

    /**
     * Whether this rank has handled the loss of rank {@code rank}: it found it dead or saw it leave, counted it out,
     * and interrupted its own waits unless the loss cost nothing (the rank had ended the run already).
     */
    boolean hasHandledLossOf(int rank);

    /** The replicated control board. */
    ControlBoard control();

    /** Where a rank about to die records its death for the report. */
    FailureLog failures();

    /**
     * Ends this member abruptly, as a crash would: the Hazelcast member is terminated (no graceful
     * migration), sockets close, and the rank's thread unwinds with the returned exception (throw it).
     */
    RankKilledException killAbruptly();

    /**
     * {@link #killAbruptly}, dying together with {@code together}, the ranks that die at the same point: where ranks
     * share a JVM, none of these deaths is seen before all of them happened, as when a host or several processes die
     * at once ({@link InJvmDeaths}). A rank with a JVM of its own dies at once.
     */
    default RankKilledException killAbruptlyWith(Collection<Integer> together) {
        return killAbruptly();
    }
}
