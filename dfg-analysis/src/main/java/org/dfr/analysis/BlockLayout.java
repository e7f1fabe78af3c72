package org.dfr.analysis;

import java.util.Arrays;

/**
 * A Cartesian block decomposition of a grid of cells: {@code cells[a]} interior cells along axis {@code a}
 * (x first, 1 to 3 axes) split into {@code parts[a]} blocks. When not divisible, the first
 * {@code cells[a] mod parts[a]} blocks along an axis get one more cell (DESIGN.md).
 *
 * <p>Coordinates of cells are <b>1-based global</b> coordinates as in DESIGN.md: the interior along axis
 * {@code a} is {@code 1..cells[a]}, {@code 0} and {@code cells[a]+1} are the boundary. Block indices along an
 * axis are 0-based. Partition id = {@code (z * PY + y) * PX + x} with {@code (x, y, z)} the block indices
 * (missing axes count as index 0 of 1 part), the same numbering as {@link CartesianGrid}.
 *
 * @param cells interior cells per axis, x first; each at least 1
 * @param parts blocks per axis, x first; each {@code 1..cells[a]}
 */
public record BlockLayout(int[] cells, int[] parts) {

    /**
     * @throws IllegalArgumentException naming the bad value: axes count not 1..3 or different, a size
     *         below 1, more parts than cells, or more than {@link Integer#MAX_VALUE} partitions
     */
    public BlockLayout {
        if (cells == null || parts == null) {
            throw new IllegalArgumentException("a block layout needs cells and parts per axis but got "
                    + Arrays.toString(cells) + " and " + Arrays.toString(parts));
        }
        cells = cells.clone();
        parts = parts.clone();
        if (cells.length < 1 || cells.length > 3 || cells.length != parts.length) {
            throw new IllegalArgumentException("cells " + Arrays.toString(cells) + " and parts " + Arrays.toString(parts)
                    + " must have the same number of axes, 1 to 3");
        }
        long count = 1;
        for (int a = 0; a < cells.length; a++) {
            if (cells[a] < 1) {
                throw new IllegalArgumentException("cells along axis " + axisName(a) + " must be at least 1 but was " + cells[a]);
            }
            if (parts[a] < 1) {
                throw new IllegalArgumentException("parts along axis " + axisName(a) + " must be at least 1 but was " + parts[a]);
            }
            if (parts[a] > cells[a]) {
                throw new IllegalArgumentException(parts[a] + " parts along axis " + axisName(a) + " exceed its "
                        + cells[a] + " cells: every partition needs at least one cell");
            }
            count *= parts[a];
        }
        if (count > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("parts " + Arrays.toString(parts) + " make " + count
                    + " partitions; at most " + Integer.MAX_VALUE + " are allowed");
        }
    }

    /** A layout of {@code cells} split in {@code parts} (varargs-friendly alias of the constructor). */
    public static BlockLayout of(int[] cells, int[] parts) {
        return new BlockLayout(cells, parts);
    }

    /** {@code "x"}, {@code "y"} or {@code "z"}. */
    static String axisName(int axis) {
        return axis >= 0 && axis < 3 ? String.valueOf("xyz".charAt(axis)) : Integer.toString(axis);
    }

    @Override
    public int[] cells() {
        return cells.clone();
    }

    @Override
    public int[] parts() {
        return parts.clone();
    }

    /** Number of axes, 1 to 3. */
    public int dimensions() {
        return cells.length;
    }

    /** Interior cells along {@code axis}. */
    public int cells(int axis) {
        return cells[checkAxis(axis)];
    }

    /** Blocks along {@code axis}. */
    public int parts(int axis) {
        return parts[checkAxis(axis)];
    }

    /** Number of partitions, the product of {@link #parts()}. */
    public int partitionCount() {
        int n = 1;
        for (int p : parts) {
            n *= p;
        }
        return n;
    }

    /** Number of interior cells, the product of {@link #cells()}. */
    public long cellCount() {
        long n = 1;
        for (int c : cells) {
            n *= c;
        }
        return n;
    }

    /** The block indices (0-based, x first, length {@link #dimensions()}) of {@code partition}. */
    public int[] coordinates(int partition) {
        Partitions.requireInRange(partition, partitionCount());
        int[] c = new int[cells.length];
        int rest = partition;
        for (int a = 0; a < cells.length; a++) {
            c[a] = rest % parts[a];
            rest /= parts[a];
        }
        return c;
    }

    /** Block index along {@code axis} of {@code partition}. */
    public int coordinate(int partition, int axis) {
        Partitions.requireInRange(partition, partitionCount());
        int rest = partition;
        for (int a = 0; a < checkAxis(axis); a++) {
            rest /= parts[a];
        }
        return rest % parts[axis];
    }

    /**
     * The partition id {@code (z * PY + y) * PX + x} of the block at {@code coordinates} (x first).
     *
     * @throws IllegalArgumentException if the count of coordinates or one of them is out of range
     */
    public int partitionOf(int... coordinates) {
        if (coordinates.length != cells.length) {
            throw new IllegalArgumentException("a " + cells.length + "-axis layout needs " + cells.length
                    + " block coordinates but got " + Arrays.toString(coordinates));
        }
        int id = 0;
        for (int a = cells.length - 1; a >= 0; a--) {
            if (coordinates[a] < 0 || coordinates[a] >= parts[a]) {
                throw new IllegalArgumentException("block coordinate " + coordinates[a] + " along axis " + axisName(a)
                        + " is out of range 0.." + (parts[a] - 1));
            }
            id = id * parts[a] + coordinates[a];
        }
        return id;
    }

    /** First global interior cell (1-based) of block {@code index} along {@code axis}. */
    public int first(int axis, int index) {
        checkIndex(axis, index);
        int base = cells[axis] / parts[axis];
        int extra = cells[axis] % parts[axis];
        return 1 + index * base + Math.min(index, extra);
    }

    /** Last global interior cell (1-based, inclusive) of block {@code index} along {@code axis}. */
    public int last(int axis, int index) {
        return first(axis, index) + extent(axis, index) - 1;
    }

    /** Number of cells of block {@code index} along {@code axis}; the first {@code cells mod parts} get one more. */
    public int extent(int axis, int index) {
        checkIndex(axis, index);
        return cells[axis] / parts[axis] + (index < cells[axis] % parts[axis] ? 1 : 0);
    }

    /**
     * The block index along {@code axis} owning global interior cell {@code globalCell} (1-based).
     *
     * @throws IllegalArgumentException if the cell is not in {@code 1..cells[axis]}
     */
    public int ownerOf(int axis, int globalCell) {
        checkAxis(axis);
        if (globalCell < 1 || globalCell > cells[axis]) {
            throw new IllegalArgumentException("cell " + globalCell + " along axis " + axisName(axis)
                    + " is outside the interior 1.." + cells[axis]);
        }
        return owner(axis, globalCell);
    }

    /** {@link #ownerOf} without checks. */
    int owner(int axis, int globalCell) {
        int base = cells[axis] / parts[axis];
        int extra = cells[axis] % parts[axis];
        int c0 = globalCell - 1;
        int big = extra * (base + 1);
        return c0 < big ? c0 / (base + 1) : extra + (c0 - big) / base;
    }

    /** The block (box of global interior cells, 1-based, inclusive) of {@code partition}. */
    public Box box(int partition) {
        int[] c = coordinates(partition);
        int[] lo = new int[c.length];
        int[] hi = new int[c.length];
        for (int a = 0; a < c.length; a++) {
            lo[a] = first(a, c[a]);
            hi[a] = lo[a] + extent(a, c[a]) - 1;
        }
        return new Box(lo, hi);
    }

    private int checkAxis(int axis) {
        if (axis < 0 || axis >= cells.length) {
            throw new IllegalArgumentException("axis " + axis + " is out of range 0.." + (cells.length - 1));
        }
        return axis;
    }

    private void checkIndex(int axis, int index) {
        checkAxis(axis);
        if (index < 0 || index >= parts[axis]) {
            throw new IllegalArgumentException("block index " + index + " along axis " + axisName(axis)
                    + " is out of range 0.." + (parts[axis] - 1));
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BlockLayout l && Arrays.equals(cells, l.cells) && Arrays.equals(parts, l.parts);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(cells) + Arrays.hashCode(parts);
    }

    /** {@code cells 7x5 in 2x3}. */
    @Override
    public String toString() {
        return "cells " + join(cells) + " in " + join(parts);
    }

    private static String join(int[] sizes) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < sizes.length; i++) {
            b.append(i == 0 ? "" : "x").append(sizes[i]);
        }
        return b.toString();
    }

    /**
     * A box of cells in global coordinates: {@code first[a]..last[a]} inclusive along each axis.
     *
     * @param first lowest cell per axis
     * @param last highest cell per axis (inclusive)
     */
    public record Box(int[] first, int[] last) {

        /** @throws IllegalArgumentException if the arrays differ in length */
        public Box {
            first = first.clone();
            last = last.clone();
            if (first.length != last.length) {
                throw new IllegalArgumentException("box bounds " + Arrays.toString(first) + " and "
                        + Arrays.toString(last) + " have different numbers of axes");
            }
        }

        @Override
        public int[] first() {
            return first.clone();
        }

        @Override
        public int[] last() {
            return last.clone();
        }

        /** Lowest cell along {@code axis}. */
        public int first(int axis) {
            return first[axis];
        }

        /** Highest cell along {@code axis} (inclusive). */
        public int last(int axis) {
            return last[axis];
        }

        /** Number of cells along {@code axis} ({@code 0} when empty). */
        public int extent(int axis) {
            return Math.max(0, last[axis] - first[axis] + 1);
        }

        /** Number of cells in the box. */
        public long cells() {
            long n = 1;
            for (int a = 0; a < first.length; a++) {
                n *= extent(a);
            }
            return n;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Box b && Arrays.equals(first, b.first) && Arrays.equals(last, b.last);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(first) + Arrays.hashCode(last);
        }

        @Override
        public String toString() {
            return Arrays.toString(first) + ".." + Arrays.toString(last);
        }
    }
}
