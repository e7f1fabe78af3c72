package org.dfr.runtime;

/**
 * The two state buffers of one partition: the {@link #live} state and the {@link #next} buffer the
 * kernel update writes into. Until {@link #swap} the live state stays intact, which is what lets a
 * rank fall back to the state before a failure. {@link #swap} is the only place where the two trade
 * places, for the owned partitions as for a recovery's duplicate buffers.
 */
public final class DoubleBuffer {

    private double[] live;
    private double[] next;

    /** Two buffers of the same length; {@code live} holds the current state. */
    public DoubleBuffer(double[] live, double[] next) {
        if (live.length != next.length) {
            throw new IllegalArgumentException("buffers of " + live.length + " and " + next.length + " values");
        }
        this.live = live;
        this.next = next;
    }

    /** A double buffer whose live state is {@code state} (not copied) and whose second buffer is a copy. */
    public static DoubleBuffer of(double[] state) {
        return new DoubleBuffer(state, state.clone());
    }

    /** The current state. */
    public double[] live() {
        return live;
    }

    /** The buffer the next update writes into (after an update: the state one iteration later). */
    public double[] next() {
        return next;
    }

    /** {@link #live} for 0, {@link #next} for 1. */
    public double[] buffer(int index) {
        return switch (index) {
            case 0 -> live;
            case 1 -> next;
            default -> throw new IllegalArgumentException("buffer index " + index + ", expected 0 or 1");
        };
    }

    /** Makes the computed buffer the live one: the double-buffer swap. */
    public void swap() {
        double[] t = live;
        live = next;
        next = t;
    }
}
