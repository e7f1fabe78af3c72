package org.dfr.kernels;

import org.dfr.runtime.stencil.LocalGrid;
import org.dfr.runtime.stencil.StencilArithmetic;

/**
 * The {@code heat3d7} update of DESIGN.md, exactly:
 * {@code s = ((((u[z][y][x-1] + u[z][y][x+1]) + u[z][y-1][x]) + u[z][y+1][x]) + u[z-1][y][x]) + u[z+1][y][x]},
 * {@code new = u[z][y][x] + 0.125 * (s - 6.0 * u[z][y][x])}, left to right, no FMA.
 */
public final class Heat3d7Arithmetic implements StencilArithmetic {

    @Override
    public double sweep(double[] in, double[] out, LocalGrid g) {
        int sy = g.strideY();
        int sz = g.strideZ();
        int nx = g.nx();
        double residual = 0.0;
        for (int k = 0; k < g.nz(); k++) {
            for (int j = 0; j < g.ny(); j++) {
                int base = g.index(0, j, k);
                for (int c = base; c < base + nx; c++) {
                    double u = in[c];
                    double s = ((((in[c - 1] + in[c + 1]) + in[c - sy]) + in[c + sy]) + in[c - sz]) + in[c + sz];
                    double v = u + 0.125 * (s - 6.0 * u);
                    double d = v - u;
                    residual += d * d;
                    out[c] = v;
                }
            }
        }
        return residual;
    }
}
