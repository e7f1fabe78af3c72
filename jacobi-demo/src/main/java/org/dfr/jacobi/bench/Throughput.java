package org.dfr.jacobi.bench;

/**
 * An amount of work done in an amount of time.
 *
 * @param units work units done (cell updates, bytes, ...), at least 0
 * @param nanos time taken, at least 1 ns
 */
public record Throughput(long units, long nanos) {

    /**
     * @throws IllegalArgumentException if {@code units} is negative or {@code nanos} is below 1
     */
    public Throughput {
        if (units < 0) {
            throw new IllegalArgumentException("units must be >= 0 but was " + units);
        }
        if (nanos < 1) {
            throw new IllegalArgumentException("nanos must be >= 1 but was " + nanos);
        }
    }

    /** Units per second. */
    public double perSecond() {
        return units * 1e9 / nanos;
    }
}
