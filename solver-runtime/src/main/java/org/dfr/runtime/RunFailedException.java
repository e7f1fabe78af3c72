package org.dfr.runtime;

/** The run cannot produce a correct result; the message says why. */
public final class RunFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RunFailedException(String message) {
        super(message);
    }

    public RunFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
