package org.dfr.kernels;

import java.util.List;
import org.dfr.runtime.kernel.KernelOption;
import org.dfr.runtime.kernel.KernelProblem;
import org.dfr.runtime.kernel.KernelProvider;
import org.dfr.runtime.stencil.StencilKernel;
import org.dfr.runtime.stencil.StencilSetup;

/**
 * What the built-in stencil kernels share: a name, a number of axes, and the option
 * {@code boundary=fixed|periodic}; a subclass says how to build its {@link StencilKernel}.
 */
abstract class BoundaryOptionProvider implements KernelProvider {

    /** The option every built-in stencil kernel takes. */
    static final KernelOption BOUNDARY = KernelOption.ofChoice("boundary", "fixed", List.of("fixed", "periodic"),
            "fixed: the boundary values of docs/design.md; periodic: every axis wraps around");

    private final String name;
    private final int dimensions;
    private final String description;

    BoundaryOptionProvider(String name, int dimensions, String description) {
        this.name = name;
        this.dimensions = dimensions;
        this.description = description;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description + " (option boundary=fixed|periodic)";
    }

    @Override
    public final int dimensions() {
        return dimensions;
    }

    @Override
    public final List<KernelOption> options() {
        return List.of(BOUNDARY);
    }

    @Override
    public final StencilSetup create(KernelProblem problem) {
        problem.requireShape(name, dimensions);
        String boundary = problem.options().values().getOrDefault(BOUNDARY.key(), BOUNDARY.defaultValue());
        BOUNDARY.check(boundary);
        return new StencilSetup(build(problem.cells(), problem.ranksGrid(), boundary.equals("periodic")));
    }

    /** The kernel on {@code cells} split as {@code ranksGrid}, on a torus when {@code periodic}. */
    abstract StencilKernel build(int[] cells, int[] ranksGrid, boolean periodic);
}
