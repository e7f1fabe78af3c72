package org.dfr.runtime.stencil;

import java.util.Arrays;
import org.dfr.analysis.BlockLayout;
import org.dfr.runtime.kernel.ReferenceSolver;

/**
 * The sequential whole-domain computation of a stencil problem: the same arithmetic on one block
 * covering the domain (under a periodic boundary its frame is filled from its own interior before each
 * sweep). Every distributed run of the same problem must reproduce its digest bit for bit. Not
 * thread-safe; one instance is one run.
 */
public final class StencilReference implements ReferenceSolver {

    private final StencilKernel single;
    private double[] current;
    private double[] next;
    private int iterations;

    /** The reference of {@code kernel}'s problem (its layout is ignored: one block covers the domain). */
    public StencilReference(StencilKernel kernel) {
        int[] ones = new int[kernel.layout().dimensions()];
        Arrays.fill(ones, 1);
        this.single = kernel.withLayout(new BlockLayout(kernel.layout().cells(), ones));
        this.current = single.initialState(0);
        this.next = single.initialState(0);
    }

    @Override
    public double iterate() {
        double residual = single.update(0, current, next);
        double[] t = current;
        current = next;
        next = t;
        iterations++;
        return residual;
    }

    /** Iterations done so far. */
    public int iterations() {
        return iterations;
    }

    /** The current state: the whole domain plus its frame, laid out as {@link #grid()} says. Not a copy. */
    public double[] state() {
        return current;
    }

    /** The layout of {@link #state()}. */
    public LocalGrid grid() {
        return single.grid(0);
    }

    @Override
    public String digest() {
        return StencilDigest.of(single, p -> current);
    }
}
