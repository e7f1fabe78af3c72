package org.dfr.power.timeline;

import org.dfr.power.energy.Phase;

/**
 * A host is in {@code phase} during {@code [fromNanos, toNanos)}, with {@code load} of its CPUs busy
 * (the load the model uses; measured meters ignore it).
 */
public record PhaseSpan(long fromNanos, long toNanos, Phase phase, double load) {

    public PhaseSpan {
        if (toNanos < fromNanos) {
            throw new IllegalArgumentException("span ends before it starts: " + fromNanos + " > " + toNanos);
        }
        if (!(load >= 0 && load <= 1)) {
            throw new IllegalArgumentException("load must be in 0..1, was " + load);
        }
    }
}
