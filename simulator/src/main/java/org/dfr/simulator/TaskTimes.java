package org.dfr.simulator;

/**
 * Compute time of task {@code (p, i)}: constant, or {@code base x (1 + jitter x u)} with {@code u} in
 * {@code [-1, 1)} from a counter-based hash of (seed, p, i). Being a pure function of the task, a task takes
 * as long under every strategy and when recomputed, and no random stream has to be consumed in order.
 */
final class TaskTimes {

    private final double base;
    private final double jitter;
    private final long seed;

    TaskTimes(double base, double jitter, long seed) {
        this.base = base;
        this.jitter = jitter;
        this.seed = mix(seed ^ 0x5DEECE66DL);
    }

    boolean constant() {
        return jitter == 0;
    }

    double base() {
        return base;
    }

    double of(int partition, int iteration) {
        if (jitter == 0) {
            return base;
        }
        long h = mix(seed + partition * 0x9E3779B97F4A7C15L + iteration * 0xC2B2AE3D27D4EB4FL);
        double u = (h >>> 11) * 0x1.0p-53;
        return base * (1 + jitter * (2 * u - 1));
    }

    /** SplitMix64's finaliser. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
