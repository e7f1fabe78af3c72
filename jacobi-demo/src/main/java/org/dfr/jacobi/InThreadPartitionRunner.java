package org.dfr.jacobi;

import java.util.Arrays;
import org.dfr.runtime.PartitionKernel;

/**
 * Runs any {@link PartitionKernel} over all its partitions in the calling thread, exchanging halos
 * by calling {@code packHalo}/{@code unpackHalo} directly, with the same per-iteration protocol and
 * double buffering as the runtime. A reference for tests ("blocked sequential") and for measuring a
 * kernel without a cluster.
 *
 * <p>Residuals are summed over partitions in ascending id order. Not thread-safe.
 */
public final class InThreadPartitionRunner {

    private final PartitionKernel kernel;
    private final double[][] current;
    private final double[][] next;
    private final int[][] remoteInputs;
    private final double[][][] haloBuffers;
    private int iterations;

    /** Sets up iteration 0 of every partition of {@code kernel}. */
    public InThreadPartitionRunner(PartitionKernel kernel) {
        this.kernel = kernel;
        int count = kernel.partitionCount();
        current = new double[count][];
        next = new double[count][];
        remoteInputs = new int[count][];
        haloBuffers = new double[count][][];
        for (int p = 0; p < count; p++) {
            current[p] = kernel.initialState(p);
            next[p] = kernel.initialState(p);
            final int self = p;
            remoteInputs[p] = Arrays.stream(kernel.dependencies().inputsOf(p))
                    .filter(q -> q != self)
                    .toArray();
            haloBuffers[p] = new double[remoteInputs[p].length][];
            for (int i = 0; i < remoteInputs[p].length; i++) {
                haloBuffers[p][i] = new double[kernel.haloLength(remoteInputs[p][i], p)];
            }
        }
    }

    /** The kernel being run. */
    public PartitionKernel kernel() {
        return kernel;
    }

    /** Number of iterations performed so far. */
    public int iterations() {
        return iterations;
    }

    /**
     * Performs one iteration: all halos of the current state, then every partition's update.
     *
     * @return the global residual, the sum of the partitions' contributions
     */
    public double iterate() {
        for (int p = 0; p < current.length; p++) {
            for (int i = 0; i < remoteInputs[p].length; i++) {
                int q = remoteInputs[p][i];
                kernel.packHalo(q, current[q], p, haloBuffers[p][i]);
                kernel.unpackHalo(p, current[p], q, haloBuffers[p][i]);
            }
        }
        double residual = 0.0;
        for (int p = 0; p < current.length; p++) {
            residual += kernel.update(p, current[p], next[p]);
            double[] swap = current[p];
            current[p] = next[p];
            next[p] = swap;
        }
        iterations++;
        return residual;
    }

    /**
     * Performs {@code count} iterations.
     *
     * @return the residual of the last one, or {@code NaN} if {@code count} is 0
     * @throws IllegalArgumentException if {@code count} is negative
     */
    public double iterate(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("iteration count must be >= 0 but was " + count);
        }
        double residual = Double.NaN;
        for (int i = 0; i < count; i++) {
            residual = iterate();
        }
        return residual;
    }

    /**
     * The current state buffer of {@code partition} (live, not a copy: do not modify). Its ghost frame
     * holds the halos of the previous iteration, not yet those of the current one.
     */
    public double[] state(int partition) {
        if (partition < 0 || partition >= current.length) {
            throw new IllegalArgumentException("partition " + partition + " is out of range 0.." + (current.length - 1));
        }
        return current[partition];
    }
}
