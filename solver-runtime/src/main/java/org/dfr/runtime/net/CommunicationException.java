package org.dfr.runtime.net;

/** A message could not be delivered or did not arrive in time: a peer is probably dead. */
public final class CommunicationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CommunicationException(String message, Throwable cause) {
        super(message, cause);
    }
}
