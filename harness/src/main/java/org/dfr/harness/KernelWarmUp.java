package org.dfr.harness;

import org.dfr.runtime.PartitionKernel;
import org.dfr.runtime.RunFailedException;

/**
 * Runs a partition's kernel on scratch buffers so that the JIT has compiled it before the iteration
 * loop starts.
 *
 * <p>Why: every rank process is a fresh JVM. Measured on 4096x4096 over 2x4 rank processes, a cold
 * rank ran its first iteration in 100-250 ms instead of about 3 ms (interpreter, then C1, until C2
 * had compiled the sweep), and the 8 JVMs' compiler threads spent their CPU inside the timed loop;
 * on 2 cores that CPU is taken from the ranks' useful work.
 *
 * <p>Bit-exactness is untouched: the warm-up reads and writes only buffers it allocates itself
 * (copies of {@link PartitionKernel#initialState}), never a rank's state.
 *
 * @param sweeps how many updates to run; at least 1
 */
public record KernelWarmUp(long sweeps) {

    /**
     * Cell updates of the default warm-up: at C2 speed (about 10^9 per second) a few tens of
     * milliseconds, far more than C2 needs to compile the row loop of the sweep.
     */
    public static final long DEFAULT_CELL_UPDATES = 30_000_000L;
    /**
     * Sweeps of the default warm-up at least, whatever the block size: the loop around the rows is
     * compiled after enough calls, not enough cells.
     */
    public static final int DEFAULT_MIN_SWEEPS = 20;
    /**
     * Sweeps of the default warm-up at most: a tiny block would otherwise take hundreds of thousands
     * of sweeps, each dominated by halo packing, to reach the cell budget, and its kernel costs
     * nothing worth warming up anyway.
     */
    public static final int DEFAULT_MAX_SWEEPS = 2_000;

    public KernelWarmUp {
        if (sweeps < 1) {
            throw new IllegalArgumentException("a warm-up needs at least 1 sweep, got " + sweeps);
        }
    }

    /**
     * The default warm-up of a partition with {@code cells} cell updates per sweep:
     * {@value #DEFAULT_CELL_UPDATES} cell updates, and between {@value #DEFAULT_MIN_SWEEPS} and
     * {@value #DEFAULT_MAX_SWEEPS} sweeps.
     */
    public static KernelWarmUp forCells(long cells) {
        if (cells < 1) {
            throw new IllegalArgumentException("a partition has at least 1 cell, got " + cells);
        }
        long sweeps = (DEFAULT_CELL_UPDATES + cells - 1) / cells;
        return new KernelWarmUp(Math.min(DEFAULT_MAX_SWEEPS, Math.max(DEFAULT_MIN_SWEEPS, sweeps)));
    }

    /**
     * The warm-up of a run of {@code iterations} iterations: {@link #forCells}, but never more sweeps
     * than the run has iterations. A warm-up only pays when the run is longer than it: a 10-iteration
     * run of 256x256 on 8 ranks spent 0.85 s of CPU per rank warming up (2,000 sweeps) for a loop of
     * a few milliseconds.
     */
    public static KernelWarmUp forRun(long cells, int iterations) {
        if (iterations < 1) {
            throw new IllegalArgumentException("a run has at least 1 iteration, got " + iterations);
        }
        return new KernelWarmUp(Math.min(forCells(cells).sweeps(), iterations));
    }

    /**
     * Warms up {@code kernel} on {@code partition}: per sweep, packs the halos its consumers need,
     * unpacks the halos of its inputs and updates it, all on scratch buffers.
     *
     * @return the sum of the scratch residuals (so that the work has a result)
     */
    public double run(PartitionKernel kernel, int partition) {
        try {
            return sweep(kernel, partition);
        } catch (RuntimeException | Error e) {
            // the kernel's own code runs here first: its exception is named as the warm-up's, with the line that
            // threw it (it came as an unexpected failure of the command)
            throw RunFailedException.failed("the kernel's warm-up on partition " + partition
                    + " (before the ranks start)", e);
        }
    }

    private double sweep(PartitionKernel kernel, int partition) {
        int[] inputs = kernel.dependencies().inputsOf(partition);
        int[] consumers = kernel.dependencies().consumers()[partition];
        double[] in = kernel.initialState(partition);
        double[] out = in.clone();
        double sink = 0;
        for (long s = 0; s < sweeps; s++) {
            for (int c : consumers) {
                double[] halo = new double[kernel.haloLength(partition, c)];
                kernel.packHalo(partition, in, c, halo);
                sink += halo.length == 0 ? 0 : halo[0];
            }
            for (int q : inputs) {
                if (q != partition) {
                    // an all-zero halo: any values do, the buffers are scratch
                    kernel.unpackHalo(partition, in, q, new double[kernel.haloLength(q, partition)]);
                }
            }
            sink += kernel.update(partition, in, out);
            double[] t = in;
            in = out;
            out = t;
        }
        return sink;
    }
}
