package org.dfr.kernels;

import java.util.List;
import java.util.function.IntFunction;
import org.dfr.jacobi.BlockDecomposition;
import org.dfr.jacobi.FieldDigest;
import org.dfr.jacobi.JacobiKernel;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.jacobi.SequentialJacobi;
import org.dfr.runtime.PartitionKernel;
import org.dfr.runtime.kernel.KernelOption;
import org.dfr.runtime.kernel.KernelProblem;
import org.dfr.runtime.kernel.KernelProvider;
import org.dfr.runtime.kernel.KernelSetup;
import org.dfr.runtime.kernel.ReferenceSolver;

/**
 * {@code jacobi2d5}, the default kernel: the Jacobi problem of docs/design.md (2D 5-point stencil,
 * fixed boundary), computed by the vectorised {@link JacobiKernel}. Its digests are those of every
 * earlier dfr version.
 */
public final class Jacobi2d5Provider implements KernelProvider {

    public static final String NAME = "jacobi2d5";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "2D 5-point Jacobi, fixed boundary (the paper's solver; vectorised)";
    }

    @Override
    public int dimensions() {
        return 2;
    }

    @Override
    public List<KernelOption> options() {
        return List.of();
    }

    @Override
    public KernelSetup create(KernelProblem problem) {
        problem.requireShape(NAME, 2);
        int[] cells = problem.cells();
        int[] grid = problem.ranksGrid();
        JacobiProblem jacobi = new JacobiProblem(cells[0], cells[1]);
        BlockDecomposition decomposition = new BlockDecomposition(jacobi, grid[0], grid[1]);
        JacobiKernel kernel = new JacobiKernel(decomposition);
        return new KernelSetup() {
            @Override
            public PartitionKernel kernel() {
                return kernel;
            }

            @Override
            public ReferenceSolver reference() {
                SequentialJacobi sequential = new SequentialJacobi(jacobi);
                return new ReferenceSolver() {
                    @Override
                    public double iterate() {
                        return sequential.iterate();
                    }

                    @Override
                    public String digest() {
                        return sequential.digest();
                    }
                };
            }

            @Override
            public String digest(IntFunction<double[]> states) {
                return FieldDigest.ofPartitions(decomposition, states);
            }

            @Override
            public long cellCount() {
                return (long) cells[0] * cells[1];
            }
        };
    }
}
