package org.dfr.cli.bench;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One row of the throughput table.
 *
 * @param configuration        e.g. {@code "sequential"}, {@code "2x4 embedded"}
 * @param ranks                rank count (0 for the sequential kernel)
 * @param mode                 {@code "sequential"}, {@code "embedded"} or {@code "processes"}
 * @param cellUpdatesPerSecond measured throughput, null when the row could not run
 * @param loopMillis           time the figure was computed over (runtime rows: the iteration loop only)
 * @param ratioToSequential    throughput / the sequential kernel's, null when not measured
 * @param targetRatio          the minimum ratio, null when it sets none
 * @param met                  whether the target was met, null when there is no target or no figure
 * @param mpiCellUpdatesPerSecond the C + MPI reference for this rank count, null when none
 * @param fractionOfBandwidthBound throughput / the bandwidth bound of the cores the row can use
 *                             ({@link BandwidthBound}), null when not measured
 * @param note                 why the row has no figure, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ThroughputRow(String configuration, int ranks, String mode, Double cellUpdatesPerSecond,
                            Long loopMillis, Double ratioToSequential, Double targetRatio, Boolean met,
                            Double mpiCellUpdatesPerSecond, Double fractionOfBandwidthBound, String note) {

    /** A row that could not be measured. */
    public static ThroughputRow unavailable(String configuration, int ranks, String mode, String note) {
        Double target = BenchTargets.ratioFor(ranks).isPresent() ? BenchTargets.ratioFor(ranks).getAsDouble() : null;
        return new ThroughputRow(configuration, ranks, mode, null, null, null, target, null, mpi(ranks), null, note);
    }

    /**
     * A measured row; the ratio, target and verdict follow from {@code sequential}.
     *
     * @param bound the bandwidth bound of the cores this row can use
     */
    public static ThroughputRow measured(String configuration, int ranks, String mode, double cellUpdatesPerSecond,
                                        long loopMillis, double sequential, BandwidthBound bound) {
        double ratio = cellUpdatesPerSecond / sequential;
        Double target = ranks > 0 && BenchTargets.ratioFor(ranks).isPresent()
                ? BenchTargets.ratioFor(ranks).getAsDouble() : null;
        return new ThroughputRow(configuration, ranks, mode, cellUpdatesPerSecond, loopMillis, ratio, target,
                target == null ? null : ratio >= target, mpi(ranks),
                cellUpdatesPerSecond / bound.boundCellUpdatesPerSecond(), null);
    }

    /**
     * This row without the ratio target (and verdict) and without the C + MPI figure: both were set and
     * measured for jacobi2d5 at 4096 x 4096 only, so beside another kernel or grid they would judge or compare
     * unlike runs (a grid that fits in cache, or one too small to split, says nothing about either).
     */
    public ThroughputRow withoutReferences() {
        return new ThroughputRow(configuration, ranks, mode, cellUpdatesPerSecond, loopMillis, ratioToSequential,
                null, null, null, fractionOfBandwidthBound, note);
    }

    private static Double mpi(int ranks) {
        return BenchTargets.mpiFor(ranks).isPresent() ? BenchTargets.mpiFor(ranks).getAsDouble() : null;
    }
}
