package org.dfr.cli.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Everything {@code dfr bench} measured in one run; written as JSON by {@code --json}.
 *
 * @param cells                          grid size {@code [NX, NY]}
 * @param iterations                     timed iterations of every row
 * @param sequentialCellUpdatesPerSecond the plain sequential kernel
 * @param kernel                         the stencil loop every row ran, e.g. {@code vector (AVX-512, 8 lanes)}
 *                                       ({@code JacobiStencil.implementation()})
 * @param rows                           the throughput table, sequential first
 * @param memoryBytesPerSecond           the STREAM-like copy bandwidth of one thread
 * @param bandwidthBoundCellUpdatesPerSecond {@code memoryBytesPerSecond / 16}
 * @param sequentialFractionOfBound      sequential / bound
 * @param bandwidthTarget                the minimum fraction
 * @param bandwidthTargetMet             whether it was reached
 * @param bandwidthBounds                the bound for every thread count a row used, one thread first
 * @param checkpoint                     checkpoint cost on the largest layout, null when not measured
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BenchReport(List<Integer> cells, int iterations, double sequentialCellUpdatesPerSecond, String kernel,
                          List<ThroughputRow> rows, double memoryBytesPerSecond,
                          double bandwidthBoundCellUpdatesPerSecond, double sequentialFractionOfBound,
                          double bandwidthTarget, boolean bandwidthTargetMet, List<BandwidthBound> bandwidthBounds,
                          CheckpointCost checkpoint) {

    public BenchReport {
        cells = List.copyOf(cells);
        rows = List.copyOf(rows);
        bandwidthBounds = List.copyOf(bandwidthBounds);
    }
}
