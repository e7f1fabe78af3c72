package org.dfr.cli.bench;

import org.dfr.jacobi.bench.MemoryBandwidth;

/**
 * The memory-bandwidth bound of the Jacobi kernel for a number of threads copying at once.
 *
 * @param threads                    copying threads (a row with {@code r} ranks on {@code c} cores uses
 *                                   {@code min(r, c)})
 * @param bytesPerSecond             STREAM-like copy bandwidth of those threads together
 * @param boundCellUpdatesPerSecond  {@code bytesPerSecond / 16}: no kernel moving 16 bytes per cell
 *                                   update can go faster on that many cores
 */
public record BandwidthBound(int threads, double bytesPerSecond, double boundCellUpdatesPerSecond) {

    /** The bound that follows from a measured copy bandwidth. */
    public static BandwidthBound of(int threads, double bytesPerSecond) {
        return new BandwidthBound(threads, bytesPerSecond, bytesPerSecond / MemoryBandwidth.BYTES_PER_CELL_UPDATE);
    }
}
