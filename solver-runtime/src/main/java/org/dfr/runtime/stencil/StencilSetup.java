package org.dfr.runtime.stencil;

import java.util.Objects;
import java.util.function.IntFunction;
import org.dfr.runtime.kernel.KernelSetup;
import org.dfr.runtime.kernel.ReferenceSolver;

/**
 * A {@link StencilKernel} as a {@link KernelSetup}: the kernel, a fresh {@link StencilReference} per
 * call of {@link #reference()}, the {@link StencilDigest} and the product of the cells.
 */
public final class StencilSetup implements KernelSetup {

    private final StencilKernel kernel;

    /** The setup of {@code kernel}. */
    public StencilSetup(StencilKernel kernel) {
        this.kernel = Objects.requireNonNull(kernel, "kernel");
    }

    @Override
    public StencilKernel kernel() {
        return kernel;
    }

    @Override
    public ReferenceSolver reference() {
        return new StencilReference(kernel);
    }

    @Override
    public String digest(IntFunction<double[]> states) {
        return StencilDigest.of(kernel, states);
    }

    @Override
    public long cellCount() {
        return kernel.layout().cellCount();
    }

    @Override
    public String toString() {
        return "StencilSetup[" + kernel + "]";
    }
}
