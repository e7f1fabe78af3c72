package org.dfr.runtime;

import java.util.ArrayDeque;

/**
 * The two state buffers of one partition: the {@link #live} state and the {@link #next} buffer the
 * kernel update writes into. Until {@link #swap} the live state stays intact, which is what lets a
 * rank fall back to the state before a failure. {@link #swap} is the only place where the two trade
 * places, for the owned partitions as for a recovery's duplicate buffers.
 *
 * <p>A checkpoint's local copy is one of these buffers itself, not a copy of it ({@link #hold}): the
 * held buffer stays in the pair while it is only read (the next iteration's input), and when the update
 * would write into it ({@link #writableNext}) a spare takes its place: an array the checkpoints gave
 * back ({@link #release}; in embedded mode only once the holders that kept it as their copy dropped it,
 * {@link LentArrays}), or, while there is none yet, a copy. So a checkpoint costs the computing rank
 * no copy once the first checkpoints have been given back. Every array that enters the pair is a
 * copy of a state or a returned buffer, so the cells an update never writes (a fixed boundary) hold
 * the same values in all of them.
 *
 * <p>The halos of the next iteration are unpacked into the held buffer's ghost frame while the
 * checkpoint is replicated; a checkpoint's ghost frame is therefore not part of the state it stands
 * for: every reload receives the halos again before the first update ({@link PartitionKernel}).
 */
public final class DoubleBuffer {

    /** The most arrays kept to replace held ones. */
    static final int MAX_SPARES = 2;

    private double[] live;
    private double[] next;
    /** Whether {@link #live} (and {@link #next}) is a checkpoint's local copy, which nothing may write. */
    private boolean liveHeld;
    private boolean nextHeld;
    /**
     * Arrays given back by the checkpoints, to replace a held {@link #next}: at most {@value #MAX_SPARES}. More than
     * one because holders in this JVM give a checkpoint's array back on their own time ({@link LentArrays}): when one
     * comes back a little late, the array a copy cost meanwhile stays, so that later ones never cost a copy.
     */
    private final ArrayDeque<double[]> spares = new ArrayDeque<>(MAX_SPARES);

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

    /**
     * The buffer the next update writes into: {@link #next}, unless a checkpoint holds it; then a spare
     * (or a copy of the held buffer) takes its place first.
     */
    public synchronized double[] writableNext() {
        if (nextHeld) {
            double[] spare = spares.poll();
            next = spare != null ? spare : next.clone();
            nextHeld = false;
        }
        return next;
    }

    /**
     * Lends buffer {@code index} ({@link #buffer}) to a checkpoint as its local copy: nothing writes it
     * until {@link #release}d, and the update writes elsewhere ({@link #writableNext}).
     *
     * @return the held array
     */
    public synchronized double[] hold(int index) {
        double[] held = buffer(index);
        if (index == 0) {
            liveHeld = true;
        } else {
            nextHeld = true;
        }
        return held;
    }

    /**
     * A checkpoint gives back an array it {@link #hold held}: still in the pair, it may be written again;
     * out of it, it becomes the spare.
     */
    public synchronized void release(double[] array) {
        if (array == live) {
            liveHeld = false;
        } else if (array == next) {
            nextHeld = false;
        } else if (array.length == live.length && spares.size() < MAX_SPARES && !spares.contains(array)) {
            spares.push(array);
        }
    }

    /** Whether buffer {@code index} is held by a checkpoint. */
    public synchronized boolean isHeld(int index) {
        buffer(index);
        return index == 0 ? liveHeld : nextHeld;
    }

    /** Makes the computed buffer the live one: the double-buffer swap. */
    public synchronized void swap() {
        double[] t = live;
        live = next;
        next = t;
        boolean h = liveHeld;
        liveHeld = nextHeld;
        nextHeld = h;
    }
}
