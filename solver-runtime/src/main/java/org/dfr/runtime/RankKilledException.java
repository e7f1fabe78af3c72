package org.dfr.runtime;

/** Thrown through a killed rank's thread so that it stops wherever it was. */
public final class RankKilledException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The exception of rank {@code rank}'s death (no stack trace: it is control flow). */
    public RankKilledException(int rank) {
        super("rank " + rank + " was killed", null, false, false);
    }
}
