package org.dfr.kernels.graph;

import java.util.List;
import java.util.function.IntFunction;
import org.dfr.runtime.kernel.KernelOption;
import org.dfr.runtime.kernel.KernelProblem;
import org.dfr.runtime.kernel.KernelProvider;
import org.dfr.runtime.kernel.KernelSetup;
import org.dfr.runtime.kernel.ReferenceSolver;

/**
 * {@code graph-jacobi}: Jacobi iteration for {@code (L + I) x = b} on the generated graph of DESIGN.md
 * ({@link JacobiGraph}), one axis: {@code --cells N} vertices, {@code --ranks-grid P} vertex ranges.
 * Dependencies are declared from the graph's cut edges ({@link GraphJacobiKernel}); the digest is SHA-256 of
 * {@code x} as little-endian doubles in vertex order.
 */
public final class GraphJacobiProvider implements KernelProvider {

    /** The kernel's name. */
    public static final String NAME = "graph-jacobi";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Jacobi for (L + I) x = b on a generated sparse graph, partitions declared from cut edges";
    }

    @Override
    public int dimensions() {
        return 1;
    }

    @Override
    public List<KernelOption> options() {
        return List.of();
    }

    @Override
    public KernelSetup create(KernelProblem problem) {
        problem.requireShape(NAME, 1);
        JacobiGraph graph = JacobiGraph.of(problem.cells()[0]);
        return setup(new GraphJacobiKernel(graph, problem.ranksGrid()[0]));
    }

    /** The setup of an already built kernel. */
    public static KernelSetup setup(GraphJacobiKernel kernel) {
        return new KernelSetup() {
            @Override
            public GraphJacobiKernel kernel() {
                return kernel;
            }

            @Override
            public ReferenceSolver reference() {
                return new GraphJacobiReference(kernel.graph());
            }

            @Override
            public String digest(IntFunction<double[]> states) {
                return GraphJacobiProvider.digest(kernel, states);
            }

            @Override
            public long cellCount() {
                return kernel.graph().vertexCount();
            }

            @Override
            public String toString() {
                return NAME + " on " + kernel.graph().vertexCount() + " vertices in " + kernel.partitionCount()
                        + " partitions";
            }
        };
    }

    /**
     * Digest of {@code x} assembled from every partition's state (its own values come first).
     *
     * @throws IllegalArgumentException if a buffer is missing or has the wrong length
     */
    public static String digest(GraphJacobiKernel kernel, IntFunction<double[]> states) {
        GraphDigest digest = new GraphDigest();
        for (int p = 0; p < kernel.partitionCount(); p++) {
            double[] state = states.apply(p);
            if (state == null || state.length != kernel.stateLength(p)) {
                throw new IllegalArgumentException("partition " + p + " has a state buffer of " + kernel.stateLength(p)
                        + " doubles (vertices and ghosts) but got " + (state == null ? "null" : state.length));
            }
            digest.add(state, 0, kernel.vertexCount(p));
        }
        return digest.hex();
    }
}
