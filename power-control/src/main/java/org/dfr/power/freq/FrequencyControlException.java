package org.dfr.power.freq;

/** A frequency cap or restore could not be completed; the message names the file and the values. */
public final class FrequencyControlException extends Exception {

    private static final long serialVersionUID = 1L;

    public FrequencyControlException(String message) {
        super(message);
    }

    public FrequencyControlException(String message, Throwable cause) {
        super(message, cause);
    }
}
