package org.dfr.simulator.sweep;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.dfr.analysis.PartitionDependencies;

/**
 * The heap a sweep needs, estimated before it runs, so that a node count past the machine is refused in one line
 * instead of ending in an {@link OutOfMemoryError} after the output directory was made. One simulation holds
 * arrays of its partition count (finish times, depths, stamps), the dependency rows and, for DFR, the cone
 * analyzer's rows: measured at about 85 bytes a partition in 1D and 160 in 3D with the paper's stencils
 * ({@code -Xmx1g} runs 10^7 partitions in 1D and 5 x 10^6 in 3D, and fails at 1.4 x 10^7 and 8 x 10^6);
 * {@link #bytesPerPartition} rounds that up. A worker thread runs one simulation at a time, the biggest first,
 * so the sweep needs the sum over its {@code threads} biggest runs.
 */
public final class HeapEstimate {

    private HeapEstimate() {
    }

    /** Bytes one simulation needs per partition of a {@code dimensions}-D stencil. */
    public static long bytesPerPartition(int dimensions) {
        return 72 + 16L * 2 * dimensions;
    }

    /** Bytes one simulation of {@code point} needs. */
    public static long bytes(SweepPoint point) {
        return point.layout().nodes() * bytesPerPartition(point.layout().dimensions());
    }

    /**
     * Bytes one simulation of a kernel's own declaration needs ({@code dfr simulate --cells}): the per-partition
     * arrays, and 16 bytes per dependency edge to another partition (the stencils' figures above, per edge: a 1D
     * 3-point stencil has 2 a partition, a 3D 7-point one 6).
     */
    public static long bytes(PartitionDependencies dependencies) {
        long edges = 0;
        for (int p = 0; p < dependencies.partitionCount(); p++) {
            int[] inputs = dependencies.inputsOf(p);
            edges += inputs.length - (Arrays.binarySearch(inputs, p) >= 0 ? 1 : 0);
        }
        return dependencies.partitionCount() * 72L + edges * 16;
    }

    /** Bytes the sweep of {@code points}, {@code seeds} runs each, needs on {@code threads} worker threads. */
    public static long bytes(List<SweepPoint> points, int seeds, int threads) {
        List<Long> runs = new ArrayList<>();
        for (SweepPoint p : points) {
            for (int s = 0; s < seeds; s++) {
                runs.add(bytes(p));
            }
        }
        return runs.stream().sorted(Comparator.reverseOrder()).limit(Math.max(1, threads)).mapToLong(Long::longValue)
                .sum();
    }
}
