package org.dfr.runtime.stencil;

/**
 * The numbers of a stencil kernel: one sweep over a partition's interior.
 *
 * <p>Implementations read {@code in} (whose ghost frame is filled for every cell the declared
 * {@link org.dfr.analysis.CellStencil} reaches) and write every interior cell of {@code out}, nothing else.
 * They must be deterministic, with a fixed operation order per cell (digests are compared bit for bit),
 * and stateless (called concurrently for different partitions).
 */
@FunctionalInterface
public interface StencilArithmetic {

    /**
     * Computes the new value of every interior cell of {@code g} from {@code in} into {@code out}.
     *
     * @return the sum over the interior of {@code (new - old)^2}, in any order
     */
    double sweep(double[] in, double[] out, LocalGrid g);
}
