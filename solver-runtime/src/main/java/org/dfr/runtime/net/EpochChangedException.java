package org.dfr.runtime.net;

/** Thrown out of a wait when the rank has learnt that its epoch is over (a failure happened). */
public final class EpochChangedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EpochChangedException(String message) {
        super(message, null, false, false);
    }
}
