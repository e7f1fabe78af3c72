package org.dfr.kernels;

import org.dfr.analysis.BlockLayout;
import org.dfr.analysis.CellStencil;
import org.dfr.runtime.stencil.CellFunction;
import org.dfr.runtime.stencil.StencilBoundary;
import org.dfr.runtime.stencil.StencilKernel;

/**
 * {@code heat1d3}: 1D 3-point explicit heat equation, with the exact arithmetic, boundary and initial state of DESIGN.md
 * ({@link Heat1d3Arithmetic}). Option {@code boundary}: {@code fixed} (DESIGN.md's boundary values, the default) or
 * {@code periodic} (the same arithmetic on a torus). Built on {@link StencilKernel}, whose dependencies come
 * from {@link CellStencil#threePoint1d()} through the analyzer.
 */
public final class Heat1d3Provider extends BoundaryOptionProvider {

    /** The kernel's name. */
    public static final String NAME = "heat1d3";

    /** The initial interior value of DESIGN.md. */
    public static final CellFunction INITIAL = (x, y, z) -> ((31 * x) % 101) / 100.0;

    public Heat1d3Provider() {
        super(NAME, 1, "1D 3-point explicit heat equation");
    }

    @Override
    StencilKernel build(int[] cells, int[] ranksGrid, boolean periodic) {
        return kernel(cells, ranksGrid, periodic);
    }

    /**
     * The heat1d3 kernel on {@code cells} split as {@code ranksGrid} (x first).
     *
     * @param periodic false for DESIGN.md's fixed boundary, true for a torus
     * @throws IllegalArgumentException naming the bad value when the sizes do not fit
     */
    public static StencilKernel kernel(int[] cells, int[] ranksGrid, boolean periodic) {
        BlockLayout layout = new BlockLayout(cells, ranksGrid);
        StencilBoundary boundary = periodic ? StencilBoundary.periodicBoundary() : StencilBoundary.dirichlet(fixedBoundary(cells));
        return new StencilKernel(layout, CellStencil.threePoint1d(), boundary, INITIAL, new Heat1d3Arithmetic());
    }

    /** DESIGN.md's fixed boundary values for {@code cells}, as a function of global coordinates. */
    public static CellFunction fixedBoundary(int[] cells) {
        return (x, y, z) -> x <= 0 ? 1.0 : 0.0;
    }
}
