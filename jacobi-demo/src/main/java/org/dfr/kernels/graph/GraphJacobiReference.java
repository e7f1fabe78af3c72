package org.dfr.kernels.graph;

import org.dfr.runtime.kernel.ReferenceSolver;

/**
 * The sequential {@code graph-jacobi} over all vertices: {@code new[i] = (b[i] + x[n1] + x[n2] + ...) / (deg(i) + 1.0)},
 * neighbours ascending, added left to right after {@code b[i]}; {@code x = 0} initially. Not thread-safe.
 */
public final class GraphJacobiReference implements ReferenceSolver {

    private final JacobiGraph graph;
    private double[] x;
    private double[] next;

    /** The reference on {@code graph}, at iteration 0. */
    public GraphJacobiReference(JacobiGraph graph) {
        this.graph = graph;
        this.x = new double[graph.vertexCount()];
        this.next = new double[graph.vertexCount()];
    }

    @Override
    public double iterate() {
        int[] adjacency = graph.neighbourArray();
        double residual = 0.0;
        for (int i = 0; i < x.length; i++) {
            double s = JacobiGraph.b(i);
            int end = graph.rowStart(i + 1);
            for (int k = graph.rowStart(i); k < end; k++) {
                s = s + x[adjacency[k]];
            }
            double v = s / (graph.degree(i) + 1.0);
            double d = v - x[i];
            residual += d * d;
            next[i] = v;
        }
        double[] t = x;
        x = next;
        next = t;
        return residual;
    }

    /** The current {@code x}. Not a copy. */
    public double[] x() {
        return x;
    }

    @Override
    public String digest() {
        GraphDigest digest = new GraphDigest();
        digest.add(x, 0, x.length);
        return digest.hex();
    }
}
