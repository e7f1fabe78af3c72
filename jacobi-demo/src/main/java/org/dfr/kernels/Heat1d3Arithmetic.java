package org.dfr.kernels;

import org.dfr.runtime.stencil.LocalGrid;
import org.dfr.runtime.stencil.StencilArithmetic;

/**
 * The {@code heat1d3} update of DESIGN.md, exactly: {@code new[x] = u[x] + 0.25 * ((u[x-1] + u[x+1]) - 2.0 * u[x])},
 * no FMA.
 */
public final class Heat1d3Arithmetic implements StencilArithmetic {

    @Override
    public double sweep(double[] in, double[] out, LocalGrid g) {
        int base = g.index(0, 0, 0);
        double residual = 0.0;
        for (int c = base; c < base + g.nx(); c++) {
            double u = in[c];
            double v = u + 0.25 * ((in[c - 1] + in[c + 1]) - 2.0 * u);
            double d = v - u;
            residual += d * d;
            out[c] = v;
        }
        return residual;
    }
}
