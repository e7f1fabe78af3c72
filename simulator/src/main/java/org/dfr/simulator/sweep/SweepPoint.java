package org.dfr.simulator.sweep;

/**
 * One point of a sweep: a decomposition and a checkpoint interval.
 *
 * @param layout          nodes and stencil
 * @param checkpointEvery {@code K}, at least 1
 */
public record SweepPoint(Decomposition layout, int checkpointEvery) {

    /** @throws IllegalArgumentException if {@code checkpointEvery < 1} */
    public SweepPoint {
        if (checkpointEvery < 1) {
            throw new IllegalArgumentException("checkpointEvery must be at least 1 but was " + checkpointEvery);
        }
    }
}
