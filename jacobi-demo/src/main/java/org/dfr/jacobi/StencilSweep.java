package org.dfr.jacobi;

/**
 * One way of evaluating the 5-point Jacobi update over a framed rectangle: the contract of
 * {@link JacobiStencil#sweep}, whose arguments have already been checked. Implementations differ
 * only in speed: every one computes each cell with the same floating-point operations in the same
 * order, so their output arrays are bit-for-bit identical; only the summation order of the residual
 * may differ.
 */
interface StencilSweep {

    /**
     * Updates every interior cell of the {@code cols x rows} rectangle (framed, row length
     * {@code stride}) from {@code in} into {@code out}.
     *
     * @return the sum over those cells of {@code (out - in)^2}, in an order of the implementation's choosing
     */
    double sweep(double[] in, double[] out, int stride, int rows, int cols);

    /** What this implementation is, for reports: e.g. {@code vector (AVX-512, 8 lanes)}. */
    String description();
}
