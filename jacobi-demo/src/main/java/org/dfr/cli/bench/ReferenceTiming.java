package org.dfr.cli.bench;

import org.dfr.jacobi.bench.Throughput;
import org.dfr.runtime.kernel.KernelSetup;
import org.dfr.runtime.kernel.ReferenceSolver;

/** Times a kernel's sequential reference: the baseline every runtime figure of {@code dfr bench} is compared with. */
public final class ReferenceTiming {

    /** Cell updates the warm-up runs at least, so that the timed iterations run compiled code. */
    public static final long MIN_WARM_UP_CELL_UPDATES = 50_000_000L;

    private ReferenceTiming() {
    }

    /**
     * Runs {@code iterations} timed iterations of {@code setup}'s reference after a warm-up of at least one
     * iteration and {@value #MIN_WARM_UP_CELL_UPDATES} cell updates.
     */
    public static Throughput measure(KernelSetup setup, int iterations) {
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be >= 1 but was " + iterations);
        }
        ReferenceSolver solver = setup.reference();
        long cells = setup.cellCount();
        long warmUp = Math.max(1, (MIN_WARM_UP_CELL_UPDATES + cells - 1) / cells);
        double sink = 0;
        for (long i = 0; i < warmUp; i++) {
            sink += solver.iterate();
        }
        long start = System.nanoTime();
        for (int i = 0; i < iterations; i++) {
            sink += solver.iterate();
        }
        long nanos = Math.max(1, System.nanoTime() - start);
        if (Double.isNaN(sink)) {
            throw new IllegalStateException("residual became NaN");
        }
        return new Throughput(cells * iterations, nanos);
    }
}
