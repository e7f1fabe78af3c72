package org.dfr.cli.bench;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The targets of the benchmark issue, for 4096 x 4096 cells on the 2-core reference machine, and the
 * C + MPI figures measured there for the same problem ("be at least as fast").
 */
public final class BenchTargets {

    /** Minimum ratio to the sequential kernel, by rank count. */
    private static final Map<Integer, Double> RATIO_BY_RANKS = Map.of(1, 0.9, 2, 1.6, 8, 1.4);
    /** C + MPI cell updates per second at 4096 x 4096, by rank count. */
    private static final Map<Integer, Double> MPI_BY_RANKS = Map.of(1, 1.0e9, 2, 1.8e9, 8, 3.9e8);

    /** The sequential kernel should reach this fraction of the memory-bandwidth bound. */
    public static final double MIN_BANDWIDTH_FRACTION = 0.7;

    /** The grid the C + MPI figures were measured on (with jacobi2d5). */
    public static final List<Integer> MPI_REFERENCE_CELLS = List.of(4096, 4096);

    private BenchTargets() {
    }

    /** Minimum ratio to sequential for {@code ranks}, if the issue sets one. */
    public static OptionalDouble ratioFor(int ranks) {
        Double v = RATIO_BY_RANKS.get(ranks);
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }

    /** The C + MPI reference throughput for {@code ranks}, if one was measured. */
    public static OptionalDouble mpiFor(int ranks) {
        Double v = MPI_BY_RANKS.get(ranks);
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }
}
