package org.dfr.kernels;

import java.util.List;
import org.dfr.analysis.BlockLayout;
import org.dfr.analysis.CellStencil;
import org.dfr.runtime.kernel.KernelOption;
import org.dfr.runtime.kernel.KernelProblem;
import org.dfr.runtime.kernel.KernelProvider;
import org.dfr.runtime.stencil.CellFunction;
import org.dfr.runtime.stencil.StencilBoundary;
import org.dfr.runtime.stencil.StencilKernel;
import org.dfr.runtime.stencil.StencilSetup;

/**
 * {@code jacobi2d9}: 2D 9-point Jacobi (diagonals included), with the exact arithmetic, boundary and initial state of DESIGN.md
 * ({@link Jacobi2d9Arithmetic}). Option {@code boundary}: {@code fixed} (DESIGN.md's boundary values, the default) or
 * {@code periodic} (the same arithmetic on a torus). Built on {@link StencilKernel}, whose dependencies come
 * from {@link CellStencil#ninePoint2d()} through the analyzer.
 */
public final class Jacobi2d9Provider implements KernelProvider {

    /** The kernel's name. */
    public static final String NAME = "jacobi2d9";

    /** The initial interior value of DESIGN.md. */
    public static final CellFunction INITIAL = (x, y, z) -> ((31 * x + 17 * y) % 101) / 100.0;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "2D 9-point Jacobi (diagonals included) (option boundary=fixed|periodic)";
    }

    @Override
    public int dimensions() {
        return 2;
    }

    @Override
    public List<KernelOption> options() {
        return List.of(KernelOption.ofChoice("boundary", "fixed", List.of("fixed", "periodic"),
                "fixed: the boundary values of DESIGN.md; periodic: every axis wraps around"));
    }

    @Override
    public StencilSetup create(KernelProblem problem) {
        problem.requireShape(NAME, 2);
        String boundary = problem.options().values().getOrDefault("boundary", "fixed");
        if (!boundary.equals("fixed") && !boundary.equals("periodic")) {
            throw new IllegalArgumentException("kernel option boundary=" + boundary + " is not allowed: one of fixed, periodic");
        }
        return new StencilSetup(kernel(problem.cells(), problem.ranksGrid(), boundary.equals("periodic")));
    }

    /**
     * The jacobi2d9 kernel on {@code cells} split as {@code ranksGrid} (x first).
     *
     * @param periodic false for DESIGN.md's fixed boundary, true for a torus
     * @throws IllegalArgumentException naming the bad value when the sizes do not fit
     */
    public static StencilKernel kernel(int[] cells, int[] ranksGrid, boolean periodic) {
        BlockLayout layout = new BlockLayout(cells, ranksGrid);
        StencilBoundary boundary = periodic ? StencilBoundary.periodicBoundary() : StencilBoundary.dirichlet(fixedBoundary(cells));
        return new StencilKernel(layout, CellStencil.ninePoint2d(), boundary, INITIAL, new Jacobi2d9Arithmetic());
    }

    /** DESIGN.md's fixed boundary values for {@code cells}, as a function of global coordinates. */
    public static CellFunction fixedBoundary(int[] cells) {
        int ny = cells[1];
        // rows first, so the frame corners come from u[0][*] = 1.0 and u[NY+1][*] = 0.0
        return (x, y, z) -> y <= 0 ? 1.0 : y >= ny + 1 ? 0.0 : x <= 0 ? 0.5 : 0.0;
    }
}
