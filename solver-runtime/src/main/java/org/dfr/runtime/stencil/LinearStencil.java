package org.dfr.runtime.stencil;

import java.util.Arrays;
import org.dfr.analysis.CellStencil;

/**
 * A stencil given as offsets and weights, of any radius, diagonals included:
 * {@code new = w0*u[c+o0] + w1*u[c+o1] + ...}, evaluated strictly left to right as
 * {@code ((w0*a + w1*b) + w2*c) + ...} (no FMA, no reassociation).
 */
public final class LinearStencil implements StencilArithmetic {

    private final CellStencil stencil;
    private final double[] weights;

    /**
     * @param offsets the cells read, relative to the updated cell, each of length 1 to 3 (x first)
     * @param weights one weight per offset
     * @throws IllegalArgumentException if the counts differ or the offsets are malformed
     */
    public LinearStencil(int[][] offsets, double[] weights) {
        this.stencil = CellStencil.of(offsets);
        if (weights == null || weights.length != offsets.length) {
            throw new IllegalArgumentException("a linear stencil needs one weight per offset: " + offsets.length
                    + " offsets but " + (weights == null ? "no" : Integer.toString(weights.length)) + " weights");
        }
        this.weights = weights.clone();
    }

    /** The cells this stencil reads, for {@link StencilKernel}'s frames and dependencies. */
    public CellStencil cellStencil() {
        return stencil;
    }

    /** The weights, one per offset. */
    public double[] weights() {
        return weights.clone();
    }

    @Override
    public double sweep(double[] in, double[] out, LocalGrid g) {
        int points = weights.length;
        int dims = stencil.dimensions();
        int[] deltas = new int[points];
        for (int t = 0; t < points; t++) {
            deltas[t] = g.delta(stencil.offset(t, 0), dims > 1 ? stencil.offset(t, 1) : 0,
                    dims > 2 ? stencil.offset(t, 2) : 0);
        }
        double[] w = weights;
        double residual = 0.0;
        for (int k = 0; k < g.nz(); k++) {
            for (int j = 0; j < g.ny(); j++) {
                int base = g.index(0, j, k);
                for (int c = base; c < base + g.nx(); c++) {
                    double v = w[0] * in[c + deltas[0]];
                    for (int t = 1; t < points; t++) {
                        v = v + w[t] * in[c + deltas[t]];
                    }
                    double d = v - in[c];
                    residual += d * d;
                    out[c] = v;
                }
            }
        }
        return residual;
    }

    @Override
    public String toString() {
        return "linear stencil " + Arrays.deepToString(stencil.offsets()) + " weights " + Arrays.toString(weights);
    }
}
