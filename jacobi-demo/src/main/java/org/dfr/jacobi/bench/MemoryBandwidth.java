package org.dfr.jacobi.bench;

/**
 * A STREAM-like "copy" measurement of main-memory bandwidth from one Java thread: {@code b[i] = a[i]}
 * over two arrays far larger than any cache, best of several repetitions, counting
 * {@code 2 * 8} bytes per element (one read, one write) as STREAM does.
 *
 * <p>A Jacobi cell update also moves 16 bytes (one read of the old array, one write of the new one;
 * the neighbouring rows are served by the caches), so {@code bytesPerSecond / 16} is the bandwidth
 * bound on cell updates per second; see {@link #fractionOfBound}.
 */
public final class MemoryBandwidth {

    /** Default size of each of the two arrays: 256 MiB. */
    public static final long DEFAULT_ARRAY_BYTES = 256L << 20;
    /** Default number of timed repetitions; the best one counts. */
    public static final int DEFAULT_REPETITIONS = 5;
    /** Bytes a Jacobi cell update moves to or from memory: read the old value, write the new one. */
    public static final int BYTES_PER_CELL_UPDATE = 16;

    private final long arrayBytes;
    private final int repetitions;
    private final NanoClock clock;

    /**
     * @param arrayBytes size of each of the two arrays, at least 8 bytes and at most a full Java array
     * @param repetitions timed repetitions after one untimed warm-up pass, at least 1
     * @param clock source of time
     * @throws IllegalArgumentException if a value is out of range
     */
    public MemoryBandwidth(long arrayBytes, int repetitions, NanoClock clock) {
        if (arrayBytes < Double.BYTES || arrayBytes / Double.BYTES > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("arrayBytes must be between " + Double.BYTES + " and "
                    + (Integer.MAX_VALUE - 8L) * Double.BYTES + " but was " + arrayBytes);
        }
        if (repetitions < 1) {
            throw new IllegalArgumentException("repetitions must be >= 1 but was " + repetitions);
        }
        this.arrayBytes = arrayBytes;
        this.repetitions = repetitions;
        this.clock = clock;
    }

    /** Two arrays of {@link #DEFAULT_ARRAY_BYTES}, {@link #DEFAULT_REPETITIONS} repetitions, the system clock. */
    public static MemoryBandwidth withDefaults() {
        return new MemoryBandwidth(DEFAULT_ARRAY_BYTES, DEFAULT_REPETITIONS, NanoClock.SYSTEM);
    }

    /**
     * Runs the measurement (allocates {@code 2 * arrayBytes} of heap).
     *
     * @return the fastest repetition, in bytes moved
     */
    public Throughput measureCopy() {
        int n = (int) (arrayBytes / Double.BYTES);
        double[] a = new double[n];
        double[] b = new double[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        long bytesMoved = 2L * Double.BYTES * n;
        // the warm-up pass lets C2 compile copy() and faults in every page of b
        copy(a, b, n);
        long best = Long.MAX_VALUE;
        for (int r = 0; r < repetitions; r++) {
            long start = clock.nanoTime();
            copy(a, b, n);
            best = Math.min(best, Math.max(1, clock.nanoTime() - start));
        }
        if (b[n - 1] != a[n - 1]) {
            throw new IllegalStateException("copy did not copy");
        }
        return new Throughput(bytesMoved, best);
    }

    private static void copy(double[] from, double[] to, int n) {
        for (int i = 0; i < n; i++) {
            to[i] = from[i];
        }
    }

    /**
     * How close a kernel comes to the memory bandwidth bound: {@code cellUpdatesPerSecond * 16 / bytesPerSecond}.
     *
     * @throws IllegalArgumentException if {@code bytesPerSecond} is not positive
     */
    public static double fractionOfBound(double cellUpdatesPerSecond, double bytesPerSecond) {
        if (!(bytesPerSecond > 0)) {
            throw new IllegalArgumentException("bytesPerSecond must be > 0 but was " + bytesPerSecond);
        }
        return cellUpdatesPerSecond * BYTES_PER_CELL_UPDATE / bytesPerSecond;
    }
}
