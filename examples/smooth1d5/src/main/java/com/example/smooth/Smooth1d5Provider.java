package com.example.smooth;

import java.util.List;
import org.dfr.analysis.BlockLayout;
import org.dfr.runtime.kernel.KernelOption;
import org.dfr.runtime.kernel.KernelProblem;
import org.dfr.runtime.kernel.KernelProvider;
import org.dfr.runtime.kernel.KernelSetup;
import org.dfr.runtime.stencil.LinearStencil;
import org.dfr.runtime.stencil.StencilBoundary;
import org.dfr.runtime.stencil.StencilKernel;
import org.dfr.runtime.stencil.StencilSetup;

/**
 * {@code smooth1d5}: a radius-2 smoothing of a 1D signal, written as a user would write their own kernel.
 *
 * <p>{@code new[x] = w * u[x-2] + w * u[x-1] + c * u[x] + w * u[x+1] + w * u[x+2]} with
 * {@code w = (1 - c) / 4}, left to right. Fixed ends ({@code 1.0} left, {@code 0.0} right) or periodic.
 * The stencil's offsets are all dfr needs to derive the partition dependencies: blocks narrower than 2
 * cells depend on partitions two away, and the recovery cone says so.
 */
public final class Smooth1d5Provider implements KernelProvider {

    @Override
    public String name() {
        return "smooth1d5";
    }

    @Override
    public String description() {
        return "1D radius-2 smoothing (an example kernel from its own jar)";
    }

    @Override
    public int dimensions() {
        return 1;
    }

    @Override
    public List<KernelOption> options() {
        return List.of(
                KernelOption.ofDouble("centre", 0.5, "weight of the cell itself; the 4 neighbours share the rest"),
                KernelOption.ofChoice("boundary", "fixed", List.of("fixed", "periodic"), "fixed ends or a ring"));
    }

    @Override
    public KernelSetup create(KernelProblem problem) {
        problem.requireShape(name(), 1);
        double c = problem.options().getDouble("centre");
        double w = (1.0 - c) / 4.0;
        LinearStencil stencil = new LinearStencil(new int[][] {{-2}, {-1}, {0}, {1}, {2}},
                new double[] {w, w, c, w, w});
        StencilBoundary boundary = problem.options().getString("boundary").equals("periodic")
                ? StencilBoundary.periodicBoundary()
                : StencilBoundary.dirichlet((x, y, z) -> x < 1 ? 1.0 : 0.0);
        BlockLayout layout = BlockLayout.of(problem.cells(), problem.ranksGrid());
        return new StencilSetup(StencilKernel.linear(layout, stencil, boundary, (x, y, z) -> ((31 * x) % 101) / 100.0));
    }
}
