package org.dfr.jacobi.bench;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;

/**
 * A STREAM-like "copy" measurement of main-memory bandwidth: {@code b[i] = a[i]} over two arrays far
 * larger than any cache, best of several repetitions, counting {@code 2 * 8} bytes per element (one
 * read, one write) as STREAM does. {@link #measureCopy(int)} splits the arrays among several threads
 * that copy at the same time, which is what several ranks sharing the memory bus can reach together.
 *
 * <p>A Jacobi cell update also moves 16 bytes (one read of the old array, one write of the new one;
 * the neighbouring rows are served by the caches), so {@code bytesPerSecond / 16} is the bandwidth
 * bound on cell updates per second; see {@link #fractionOfBound}.
 */
public final class MemoryBandwidth {

    /** Default size of each of the two arrays: 256 MiB. */
    public static final long DEFAULT_ARRAY_BYTES = 256L << 20;
    /** Default number of timed repetitions; the best one counts. */
    public static final int DEFAULT_REPETITIONS = 10;
    static final int WARM_UP_PASSES = 3;
    /** Bytes a Jacobi cell update moves to or from memory: read the old value, write the new one. */
    public static final int BYTES_PER_CELL_UPDATE = 16;
    /** Upper bound of {@link #measureCopy(int)}'s thread count. */
    public static final int MAX_THREADS = 1024;

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
     * Runs the measurement from one thread (allocates {@code 2 * arrayBytes} of heap).
     *
     * @return the fastest repetition, in bytes moved
     */
    public Throughput measureCopy() {
        return measureCopy(1);
    }

    /**
     * Runs the measurement with {@code threads} threads, each copying its own contiguous share of the
     * arrays; a repetition lasts from their common start until the last one is done (allocates
     * {@code 2 * arrayBytes} of heap).
     *
     * @param threads copying threads, 1 to 1024 and at most one per element
     * @return the fastest repetition, in bytes moved by all threads together
     * @throws IllegalArgumentException if {@code threads} is out of range
     */
    public Throughput measureCopy(int threads) {
        int n = (int) (arrayBytes / Double.BYTES);
        if (threads < 1 || threads > MAX_THREADS || threads > n) {
            throw new IllegalArgumentException("threads must be between 1 and " + Math.min(MAX_THREADS, n)
                    + " but was " + threads);
        }
        double[] a = new double[n];
        double[] b = new double[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        long bytesMoved = 2L * Double.BYTES * n;
        // the warm-up passes let C2 compile copy() and fault in every page of b
        for (int w = 0; w < WARM_UP_PASSES; w++) {
            copyInParallel(a, b, threads);
        }
        long best = Long.MAX_VALUE;
        for (int r = 0; r < repetitions; r++) {
            long start = clock.nanoTime();
            copyInParallel(a, b, threads);
            best = Math.min(best, Math.max(1, clock.nanoTime() - start));
        }
        if (b[n - 1] != a[n - 1] || b[0] != a[0]) {
            throw new IllegalStateException("copy did not copy");
        }
        return new Throughput(bytesMoved, best);
    }

    private static void copyInParallel(double[] from, double[] to, int threads) {
        int n = from.length;
        if (threads == 1) {
            copy(from, to, 0, n);
            return;
        }
        // the shares start together at the gate; starting the threads (tens of microseconds) is inside
        // the timed span, against tens of milliseconds for the copy of the default arrays
        CyclicBarrier gate = new CyclicBarrier(threads);
        Thread[] workers = new Thread[threads - 1];
        for (int t = 1; t < threads; t++) {
            int lo = (int) ((long) n * t / threads);
            int hi = (int) ((long) n * (t + 1) / threads);
            workers[t - 1] = new Thread(() -> {
                await(gate);
                copy(from, to, lo, hi);
            }, "dfr-bandwidth-" + t);
            workers[t - 1].start();
        }
        await(gate);
        copy(from, to, 0, (int) ((long) n / threads));
        for (Thread w : workers) {
            try {
                w.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while measuring memory bandwidth", e);
            }
        }
    }

    private static void await(CyclicBarrier gate) {
        try {
            gate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while measuring memory bandwidth", e);
        } catch (BrokenBarrierException e) {
            throw new IllegalStateException("a bandwidth thread failed", e);
        }
    }

    private static void copy(double[] from, double[] to, int lo, int hi) {
        for (int i = lo; i < hi; i++) {
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
