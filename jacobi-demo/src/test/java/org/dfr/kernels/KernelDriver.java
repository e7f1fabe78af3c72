package org.dfr.kernels;

import org.dfr.runtime.PartitionKernel;

/**
 * What the runtime does per iteration, in one thread: every halo along every declared dependency
 * {@code q in R(p), q != p} is packed from {@code q}'s state and unpacked into {@code p}'s, then every
 * partition updates into its other buffer, the residuals are summed and the buffers swap.
 */
public final class KernelDriver {

    final PartitionKernel kernel;
    double[][] current;
    double[][] next;
    double lastResidual;

    public KernelDriver(PartitionKernel kernel) {
        this.kernel = kernel;
        int n = kernel.partitionCount();
        current = new double[n][];
        next = new double[n][];
        for (int p = 0; p < n; p++) {
            current[p] = kernel.initialState(p);
            next[p] = kernel.initialState(p);
        }
    }

    public double iterate() {
        int n = kernel.partitionCount();
        for (int p = 0; p < n; p++) {
            for (int q : kernel.dependencies().inputsOf(p)) {
                if (q != p) {
                    double[] halo = new double[kernel.haloLength(q, p)];
                    kernel.packHalo(q, current[q], p, halo);
                    kernel.unpackHalo(p, current[p], q, halo);
                }
            }
        }
        double residual = 0.0;
        for (int p = 0; p < n; p++) {
            residual += kernel.update(p, current[p], next[p]);
        }
        double[][] t = current;
        current = next;
        next = t;
        lastResidual = residual;
        return residual;
    }

    public double[] state(int p) {
        return current[p];
    }
}
