package org.dfr.analysis;

import java.util.Arrays;

/**
 * The cells one cell update reads, as offsets relative to the cell itself ({@code offsets[i][a]} along
 * axis {@code a}, x first). From it and a {@link BlockLayout},
 * {@link DependencyDeclarations#stencil(CellStencil, BlockLayout, boolean)} derives the partition
 * dependencies {@code R(p)} exactly.
 *
 * <p>The built-in factories list the offsets in the order the built-in kernels' formulas read them
 * (DESIGN.md), the cell itself last.
 *
 * @param offsets at least one offset; all of the same length, 1 to 3
 */
public record CellStencil(int[][] offsets) {

    /** @throws IllegalArgumentException if there are no offsets or their lengths differ or are not 1..3 */
    public CellStencil {
        if (offsets == null || offsets.length == 0) {
            throw new IllegalArgumentException("a cell stencil needs at least 1 offset but had "
                    + (offsets == null ? "null" : "0"));
        }
        int[][] copy = new int[offsets.length][];
        for (int i = 0; i < offsets.length; i++) {
            if (offsets[i] == null || offsets[i].length < 1 || offsets[i].length > 3
                    || offsets[i].length != (offsets[0] == null ? -1 : offsets[0].length)) {
                throw new IllegalArgumentException("stencil offset " + i + " is " + Arrays.toString(offsets[i])
                        + "; every offset needs the same number of axes, 1 to 3");
            }
            copy[i] = offsets[i].clone();
        }
        offsets = copy;
    }

    /** A stencil reading {@code offsets}. */
    public static CellStencil of(int[][] offsets) {
        return new CellStencil(offsets);
    }

    /** 2D 5-point: north {@code (0,-1)}, south {@code (0,1)}, west {@code (-1,0)}, east {@code (1,0)}, self. */
    public static CellStencil fivePoint2d() {
        return new CellStencil(new int[][] {{0, -1}, {0, 1}, {-1, 0}, {1, 0}, {0, 0}});
    }

    /** 2D 9-point: the 8 neighbours row by row (y-1, y, y+1; x-1 to x+1), then self. */
    public static CellStencil ninePoint2d() {
        return new CellStencil(new int[][] {
                {-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}, {0, 0}});
    }

    /** 3D 7-point: x-1, x+1, y-1, y+1, z-1, z+1, self. */
    public static CellStencil sevenPoint3d() {
        return new CellStencil(new int[][] {
                {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}, {0, 0, 0}});
    }

    /** 1D 3-point: x-1, x+1, self. */
    public static CellStencil threePoint1d() {
        return new CellStencil(new int[][] {{-1}, {1}, {0}});
    }

    @Override
    public int[][] offsets() {
        int[][] copy = new int[offsets.length][];
        for (int i = 0; i < offsets.length; i++) {
            copy[i] = offsets[i].clone();
        }
        return copy;
    }

    /** Number of offsets. */
    public int points() {
        return offsets.length;
    }

    /** Offset {@code i} along {@code axis}. */
    public int offset(int i, int axis) {
        return offsets[i][axis];
    }

    /** Number of axes, 1 to 3. */
    public int dimensions() {
        return offsets[0].length;
    }

    /** The largest {@code |offset|} along {@code axis}: the ghost frame width it needs there. */
    public int radius(int axis) {
        if (axis < 0 || axis >= dimensions()) {
            throw new IllegalArgumentException("axis " + axis + " is out of range 0.." + (dimensions() - 1));
        }
        int r = 0;
        for (int[] o : offsets) {
            r = Math.max(r, Math.abs(o[axis]));
        }
        return r;
    }

    /** The largest radius over all axes. */
    public int radius() {
        int r = 0;
        for (int a = 0; a < dimensions(); a++) {
            r = Math.max(r, radius(a));
        }
        return r;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CellStencil s && Arrays.deepEquals(offsets, s.offsets);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(offsets);
    }

    @Override
    public String toString() {
        return "cell stencil " + Arrays.deepToString(offsets);
    }
}
