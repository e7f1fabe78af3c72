package org.dfr.kernels;

import org.dfr.runtime.stencil.LocalGrid;
import org.dfr.runtime.stencil.StencilArithmetic;

/**
 * The {@code jacobi2d9} update of DESIGN.md, exactly:
 * {@code new[y][x] = 0.125 * (((((((u[y-1][x-1] + u[y-1][x]) + u[y-1][x+1]) + u[y][x-1]) + u[y][x+1])
 * + u[y+1][x-1]) + u[y+1][x]) + u[y+1][x+1])}, left to right, no FMA.
 */
public final class Jacobi2d9Arithmetic implements StencilArithmetic {

    @Override
    public double sweep(double[] in, double[] out, LocalGrid g) {
        int sy = g.strideY();
        int nx = g.nx();
        double residual = 0.0;
        for (int j = 0; j < g.ny(); j++) {
            int base = g.index(0, j, 0);
            for (int c = base; c < base + nx; c++) {
                int n = c - sy;
                int s = c + sy;
                double v = 0.125 * (((((((in[n - 1] + in[n]) + in[n + 1]) + in[c - 1]) + in[c + 1])
                        + in[s - 1]) + in[s]) + in[s + 1]);
                double d = v - in[c];
                residual += d * d;
                out[c] = v;
            }
        }
        return residual;
    }
}
