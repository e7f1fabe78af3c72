package org.dfr.jacobi;

/**
 * The plain loop, one cell after the other. It runs wherever the vector form cannot (without
 * {@code --add-modules jdk.incubator.vector}, or with {@code -Ddfr.stencil=scalar}), and evaluates
 * the column tails of the vector form.
 *
 * <p>C2 of JDK 17 does not vectorise it: it has to assume that {@code in} and {@code out} may be the
 * same array and has no runtime alias check. Measured with JMH, manually unrolled forms with several
 * residual accumulators, or with the residual in a separate pass, were not faster.
 */
final class ScalarStencilSweep implements StencilSweep {

    private final String description;

    /** @param why why the scalar loop runs, for {@link #description()} */
    ScalarStencilSweep(String why) {
        this.description = "scalar (" + why + ")";
    }

    @Override
    public double sweep(double[] in, double[] out, int stride, int rows, int cols) {
        double residual = 0.0;
        for (int y = 1; y <= rows; y++) {
            residual += sweepCells(in, out, y * stride, stride, 1, cols);
        }
        return residual;
    }

    /**
     * Updates the cells {@code firstX..lastX} of the row whose frame cell {@code x = 0} is at index
     * {@code row}; does nothing when {@code firstX > lastX}.
     *
     * @return the sum of {@code (out - in)^2} over those cells
     */
    static double sweepCells(double[] in, double[] out, int row, int stride, int firstX, int lastX) {
        final int north = row - stride;
        final int south = row + stride;
        double residual = 0.0;
        for (int x = firstX; x <= lastX; x++) {
            // left to right, exactly as DESIGN.md says; javac and C2 never fuse or reassociate these
            double next = 0.25 * (((in[north + x] + in[south + x]) + in[row + x - 1]) + in[row + x + 1]);
            double delta = next - in[row + x];
            out[row + x] = next;
            residual += delta * delta;
        }
        return residual;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public String toString() {
        return description;
    }
}
