package org.dfr.jacobi;

/**
 * The one loop that applies the 5-point Jacobi update to a rectangle surrounded by a one-cell frame,
 * stored row-major in a flat array. {@link SequentialJacobi} (the whole array) and {@link JacobiKernel}
 * (one block plus its ghost frame) both call it, so both perform the same floating-point operations
 * on every cell.
 */
final class JacobiStencil {

    private JacobiStencil() {
    }

    /**
     * For every cell {@code (x, y)}, {@code 1 <= x <= cols}, {@code 1 <= y <= rows}, of the framed
     * rectangle with row length {@code stride}:
     * {@code out[y][x] = 0.25 * (((in[y-1][x] + in[y+1][x]) + in[y][x-1]) + in[y][x+1])}.
     * The frame of {@code out} is not touched.
     *
     * @return the sum over those cells of {@code (out - in)^2} (in an unspecified order)
     * @throws IllegalArgumentException if the arrays do not have exactly {@code (rows+2) * stride} elements,
     *         or are the same array
     */
    static double sweep(double[] in, double[] out, int stride, int rows, int cols) {
        long needed = (long) (rows + 2) * stride;
        if (rows < 1 || cols < 1 || stride < cols + 2 || in.length != needed || out.length != needed) {
            throw new IllegalArgumentException("a " + cols + " x " + rows + " rectangle with row length "
                    + stride + " needs stride >= " + (cols + 2) + " and arrays of exactly " + needed
                    + " doubles, but got " + in.length + " and " + out.length);
        }
        if (in == out) {
            throw new IllegalArgumentException("a Jacobi sweep needs two distinct buffers, got the same one twice");
        }
        double residual = 0.0;
        for (int y = 1; y <= rows; y++) {
            residual += sweepRow(in, out, y * stride, stride, cols);
        }
        return residual;
    }

    /**
     * Updates one row starting at {@code row} (the index of its frame cell {@code x = 0}).
     *
     * <p>One fused scalar pass: C2 of JDK 17 cannot vectorise this loop because it must assume that
     * {@code in} and {@code out} may be the same array (then {@code in[x-1]} would depend on the store
     * of the previous cell), and it has no runtime alias check. Measured with JMH on the target machine
     * this plain form was as fast as manually unrolled variants with several residual accumulators or a
     * separate residual pass, and faster than those on large grids; see JacobiKernelBenchmark.
     */
    private static double sweepRow(double[] in, double[] out, int row, int stride, int cols) {
        final int north = row - stride;
        final int south = row + stride;
        double residual = 0.0;
        for (int x = 1; x <= cols; x++) {
            // left to right, exactly as DESIGN.md says; javac and C2 never fuse or reassociate these
            double next = 0.25 * (((in[north + x] + in[south + x]) + in[row + x - 1]) + in[row + x + 1]);
            double delta = next - in[row + x];
            out[row + x] = next;
            residual += delta * delta;
        }
        return residual;
    }
}
