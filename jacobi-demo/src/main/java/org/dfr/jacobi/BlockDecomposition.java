package org.dfr.jacobi;

/**
 * A {@link JacobiProblem} split over a {@code px x py} Cartesian grid of partitions.
 *
 * <p>The {@code nx} interior columns split over {@code px} partition columns and the {@code ny} rows
 * over {@code py} partition rows; when not divisible, the first {@code nx mod px} partition columns
 * get one extra column (likewise for rows). Partition id = {@code row * px + column}.
 *
 * @param problem the problem being split
 * @param px partition columns (along x), {@code 1..nx}
 * @param py partition rows (along y), {@code 1..ny}
 */
public record BlockDecomposition(JacobiProblem problem, int px, int py) {

    /**
     * @throws IllegalArgumentException if a partition would get no cells ({@code px > nx} or
     *         {@code py > ny}), if {@code px} or {@code py} is below 1, or if there are more than
     *         {@link Integer#MAX_VALUE} partitions
     * @throws NullPointerException if {@code problem} is null
     */
    public BlockDecomposition {
        if (problem == null) {
            throw new NullPointerException("problem must not be null");
        }
        requireSplit("px", px, "nx", problem.nx());
        requireSplit("py", py, "ny", problem.ny());
        if ((long) px * py > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("px * py = " + ((long) px * py)
                    + " partitions is more than the " + Integer.MAX_VALUE + " an int id can name");
        }
    }

    private static void requireSplit(String name, int parts, String extentName, int extent) {
        if (parts < 1) {
            throw new IllegalArgumentException(name + " must be at least 1 but was " + parts);
        }
        if (parts > extent) {
            throw new IllegalArgumentException(name + " = " + parts + " is larger than " + extentName + " = "
                    + extent + ": every partition needs at least one cell, so " + name + " must be 1.."
                    + extent);
        }
    }

    /** Number of partitions, {@code px * py}. */
    public int partitionCount() {
        return px * py;
    }

    /** The partition column (0-based, along x) of {@code partition}. */
    public int columnOf(int partition) {
        checkPartition(partition);
        return partition % px;
    }

    /** The partition row (0-based, along y) of {@code partition}. */
    public int rowOf(int partition) {
        checkPartition(partition);
        return partition / px;
    }

    /**
     * The id of the partition at partition column {@code column} and row {@code row}.
     *
     * @throws IllegalArgumentException if the position lies outside the {@code px x py} grid
     */
    public int partitionAt(int column, int row) {
        if (column < 0 || column >= px || row < 0 || row >= py) {
            throw new IllegalArgumentException("partition position (column=" + column + ", row=" + row
                    + ") is outside the " + px + " x " + py + " grid");
        }
        return row * px + column;
    }

    /**
     * The block of interior cells partition {@code partition} owns.
     *
     * @throws IllegalArgumentException if {@code partition} is not in {@code 0..partitionCount()-1}
     */
    public Block block(int partition) {
        checkPartition(partition);
        int column = partition % px;
        int row = partition / px;
        return new Block(firstIndex(problem.nx(), px, column), extent(problem.nx(), px, column),
                firstIndex(problem.ny(), py, row), extent(problem.ny(), py, row));
    }

    /** First global interior coordinate (1-based) of part {@code i} of {@code n} cells split in {@code parts}. */
    static int firstIndex(int n, int parts, int i) {
        int base = n / parts;
        int extra = n % parts;
        return 1 + i * base + Math.min(i, extra);
    }

    /** Size of part {@code i} of {@code n} cells split in {@code parts}: the first {@code n mod parts} get one more. */
    static int extent(int n, int parts, int i) {
        return n / parts + (i < n % parts ? 1 : 0);
    }

    private void checkPartition(int partition) {
        if (partition < 0 || partition >= partitionCount()) {
            throw new IllegalArgumentException("partition " + partition + " is out of range 0.."
                    + (partitionCount() - 1) + " for a " + px + " x " + py + " decomposition");
        }
    }

    /**
     * A rectangle of interior cells in global array coordinates: columns {@code x0 .. x0+width-1},
     * rows {@code y0 .. y0+height-1}, where the global interior is {@code 1..nx x 1..ny}.
     *
     * @param x0 first column, at least 1
     * @param width number of columns, at least 1
     * @param y0 first row, at least 1
     * @param height number of rows, at least 1
     */
    public record Block(int x0, int width, int y0, int height) {

        /** Number of cells, {@code width * height}. */
        public long cells() {
            return (long) width * height;
        }
    }
}
