package org.dfr.runtime.net;

/** A message could not be delivered or did not arrive in time: a peer is probably dead. */
public final class CommunicationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean timedOut;

    public CommunicationException(String message, Throwable cause) {
        this(message, cause, false);
    }

    private CommunicationException(String message, Throwable cause, boolean timedOut) {
        super(message, cause);
        this.timedOut = timedOut;
    }

    /** A message awaited for the whole message timeout: no death is known behind it, a peer may be slow or stuck. */
    public static CommunicationException timedOut(String message) {
        return new CommunicationException(message, null, true);
    }

    /** Whether no message came within the message timeout (rather than a send or connection failing). */
    public boolean timedOut() {
        return timedOut;
    }
}
