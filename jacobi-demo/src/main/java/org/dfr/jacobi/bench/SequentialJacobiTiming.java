package org.dfr.jacobi.bench;

import org.dfr.jacobi.JacobiProblem;
import org.dfr.jacobi.JacobiStencil;
import org.dfr.jacobi.SequentialJacobi;

/**
 * Times {@link SequentialJacobi}: warm-up iterations (so C2 has compiled the sweep), then a timed
 * run of the requested iterations on the same field.
 */
public final class SequentialJacobiTiming {

    /** Minimum warm-up, in cell updates, before timing starts: enough for C2 on any grid. */
    public static final long MIN_WARM_UP_CELL_UPDATES = 50_000_000L;

    private final NanoClock clock;

    /** Timing with {@code clock}. */
    public SequentialJacobiTiming(NanoClock clock) {
        this.clock = clock;
    }

    /** Timing with the system clock. */
    public static SequentialJacobiTiming withSystemClock() {
        return new SequentialJacobiTiming(NanoClock.SYSTEM);
    }

    /**
     * Runs {@code iterations} timed iterations of {@code problem} after {@link JacobiStencil#warmUp()}
     * and a warm-up of at least one iteration and {@link #MIN_WARM_UP_CELL_UPDATES} cell updates.
     *
     * @return cell updates of the timed iterations and the time they took
     * @throws IllegalArgumentException if {@code iterations} is below 1
     */
    public Throughput measure(JacobiProblem problem, int iterations) {
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be >= 1 but was " + iterations);
        }
        JacobiStencil.warmUp();
        SequentialJacobi solver = new SequentialJacobi(problem);
        long warmUp = Math.max(1, (MIN_WARM_UP_CELL_UPDATES + problem.interiorCells() - 1) / problem.interiorCells());
        double sink = 0;
        for (long i = 0; i < warmUp; i++) {
            sink += solver.iterate();
        }
        long start = clock.nanoTime();
        for (int i = 0; i < iterations; i++) {
            sink += solver.iterate();
        }
        long nanos = Math.max(1, clock.nanoTime() - start);
        if (Double.isNaN(sink)) {
            throw new IllegalStateException("residual became NaN");
        }
        return new Throughput(problem.interiorCells() * iterations, nanos);
    }

    /** Convenience: {@link #measure} with the system clock, as cell updates per second. */
    public static double cellUpdatesPerSecond(JacobiProblem problem, int iterations) {
        return withSystemClock().measure(problem, iterations).perSecond();
    }
}
