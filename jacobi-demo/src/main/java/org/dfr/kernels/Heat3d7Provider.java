package org.dfr.kernels;

import org.dfr.analysis.BlockLayout;
import org.dfr.analysis.CellStencil;
import org.dfr.runtime.stencil.CellFunction;
import org.dfr.runtime.stencil.StencilBoundary;
import org.dfr.runtime.stencil.StencilKernel;

/**
 * {@code heat3d7}: 3D 7-point explicit heat equation, with the exact arithmetic, boundary and initial state of DESIGN.md
 * ({@link Heat3d7Arithmetic}). Option {@code boundary}: {@code fixed} (DESIGN.md's boundary values, the default) or
 * {@code periodic} (the same arithmetic on a torus). Built on {@link StencilKernel}, whose dependencies come
 * from {@link CellStencil#sevenPoint3d()} through the analyzer.
 */
public final class Heat3d7Provider extends BoundaryOptionProvider {

    /** The kernel's name. */
    public static final String NAME = "heat3d7";

    /** The initial interior value of DESIGN.md. */
    public static final CellFunction INITIAL = (x, y, z) -> ((31 * x + 17 * y + 13 * z) % 101) / 100.0;

    public Heat3d7Provider() {
        super(NAME, 3, "3D 7-point explicit heat equation");
    }

    @Override
    StencilKernel build(int[] cells, int[] ranksGrid, boolean periodic) {
        return kernel(cells, ranksGrid, periodic);
    }

    /**
     * The heat3d7 kernel on {@code cells} split as {@code ranksGrid} (x first).
     *
     * @param periodic false for DESIGN.md's fixed boundary, true for a torus
     * @throws IllegalArgumentException naming the bad value when the sizes do not fit
     */
    public static StencilKernel kernel(int[] cells, int[] ranksGrid, boolean periodic) {
        BlockLayout layout = new BlockLayout(cells, ranksGrid);
        StencilBoundary boundary = periodic ? StencilBoundary.periodicBoundary() : StencilBoundary.dirichlet(fixedBoundary(cells));
        return new StencilKernel(layout, CellStencil.sevenPoint3d(), boundary, INITIAL, new Heat3d7Arithmetic());
    }

    /** DESIGN.md's fixed boundary values for {@code cells}, as a function of global coordinates. */
    public static CellFunction fixedBoundary(int[] cells) {
        int nz = cells[2];
        int ny = cells[1];
        // in the order DESIGN.md applies them: z planes, then y rows of inner planes, then x of inner rows
        return (x, y, z) -> z <= 0 ? 1.0 : z >= nz + 1 ? 0.0 : y <= 0 ? 0.5 : y >= ny + 1 ? 0.0 : x <= 0 ? 0.25 : 0.0;
    }
}
