package org.dfr.analysis;

/**
 * A Cartesian layout of partitions: {@code px} columns (x), {@code py} rows (y) and {@code pz} planes (z).
 *
 * <p>Partition id = {@code (z * py + y) * px + x}; for a 2D grid ({@code pz = 1}) that is the
 * project-wide {@code y * px + x}, for a 1D grid ({@code py = pz = 1}) it is {@code x}.
 *
 * @param px partitions along x, at least 1
 * @param py partitions along y, at least 1
 * @param pz partitions along z, at least 1
 */
public record CartesianGrid(int px, int py, int pz) {

    /** @throws IllegalArgumentException if a size is below 1 or the product exceeds {@link Integer#MAX_VALUE} */
    public CartesianGrid {
        requirePositive("px", px);
        requirePositive("py", py);
        requirePositive("pz", pz);
        long count = (long) px * py * pz;
        if (count > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("grid " + px + " x " + py + " x " + pz + " has " + count
                    + " partitions; at most " + Integer.MAX_VALUE + " are allowed");
        }
    }

    /** A 1D layout of {@code n} partitions. */
    public static CartesianGrid oneD(int n) {
        return new CartesianGrid(n, 1, 1);
    }

    /** A 2D layout of {@code px x py} partitions. */
    public static CartesianGrid twoD(int px, int py) {
        return new CartesianGrid(px, py, 1);
    }

    /** A 3D layout of {@code px x py x pz} partitions. */
    public static CartesianGrid threeD(int px, int py, int pz) {
        return new CartesianGrid(px, py, pz);
    }

    private static void requirePositive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException("grid size " + name + " must be at least 1 but was " + value);
        }
    }

    /** Number of partitions, {@code px * py * pz}. */
    public int partitionCount() {
        return px * py * pz;
    }

    /** The id of the partition at {@code (x, y, z)}; coordinates must be in range. */
    public int idOf(int x, int y, int z) {
        return (z * py + y) * px + x;
    }

    /** Column (x coordinate) of a partition id. */
    public int xOf(int partition) {
        return partition % px;
    }

    /** Row (y coordinate) of a partition id. */
    public int yOf(int partition) {
        return (partition / px) % py;
    }

    /** Plane (z coordinate) of a partition id. */
    public int zOf(int partition) {
        return partition / (px * py);
    }

    @Override
    public String toString() {
        return pz > 1 ? px + "x" + py + "x" + pz : px + "x" + py;
    }
}
