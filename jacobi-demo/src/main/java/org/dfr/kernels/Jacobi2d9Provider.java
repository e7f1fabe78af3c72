package org.dfr.kernels;

import org.dfr.analysis.BlockLayout;
import org.dfr.analysis.CellStencil;
import org.dfr.runtime.stencil.CellFunction;
import org.dfr.runtime.stencil.StencilBoundary;
import org.dfr.runtime.stencil.StencilKernel;

/**
 * {@code jacobi2d9}: 2D 9-point Jacobi (diagonals included), with the exact arithmetic, boundary and initial state of DESIGN.md
 * ({@link Jacobi2d9Arithmetic}). Option {@code boundary}: {@code fixed} (DESIGN.md's boundary values, the default) or
 * {@code periodic} (the same arithmetic on a torus). Built on {@link StencilKernel}, whose dependencies come
 * from {@link CellStencil#ninePoint2d()} through the analyzer.
 */
public final class Jacobi2d9Provider extends BoundaryOptionProvider {

    /** The kernel's name. */
    public static final String NAME = "jacobi2d9";

    /** The initial interior value of DESIGN.md. */
    public static final CellFunction INITIAL = (x, y, z) -> ((31 * x + 17 * y) % 101) / 100.0;

    public Jacobi2d9Provider() {
        super(NAME, 2, "2D 9-point Jacobi (diagonals included)");
    }

    @Override
    StencilKernel build(int[] cells, int[] ranksGrid, boolean periodic) {
        return kernel(cells, ranksGrid, periodic);
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
