package org.dfr.analysis;

/**
 * The ready-made Cartesian stencils: which neighbouring partitions a partition reads, as offsets
 * {@code (dx, dy, dz)}. Every stencil here includes the partition itself (offset {@code (0,0,0)}).
 */
public enum Stencil {
    /** 1D 3-point: left, self, right. */
    ONE_D_3_POINT("1D 3-point", 1, new int[][] {{-1, 0, 0}, {0, 0, 0}, {1, 0, 0}}),
    /** 2D 5-point: self and the 4 Cartesian neighbours. */
    TWO_D_5_POINT("2D 5-point", 2, new int[][] {{0, -1, 0}, {-1, 0, 0}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}}),
    /** 2D 9-point: self and the 8 neighbours including diagonals. */
    TWO_D_9_POINT("2D 9-point", 2, new int[][] {
            {-1, -1, 0}, {0, -1, 0}, {1, -1, 0},
            {-1, 0, 0}, {0, 0, 0}, {1, 0, 0},
            {-1, 1, 0}, {0, 1, 0}, {1, 1, 0}}),
    /** 3D 7-point: self and the 6 Cartesian neighbours. */
    THREE_D_7_POINT("3D 7-point", 3, new int[][] {
            {0, 0, -1}, {0, -1, 0}, {-1, 0, 0}, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});

    private final String displayName;
    private final int dimensions;
    private final int[][] offsets;

    Stencil(String displayName, int dimensions, int[][] offsets) {
        this.displayName = displayName;
        this.dimensions = dimensions;
        this.offsets = offsets;
    }

    /** Human-readable name such as {@code "2D 5-point"}. */
    public String displayName() {
        return displayName;
    }

    /** 1, 2 or 3: the grid axes the stencil reaches along. */
    public int dimensions() {
        return dimensions;
    }

    /** Number of offsets, e.g. 5 for the 2D 5-point stencil. */
    public int points() {
        return offsets.length;
    }

    int dx(int i) {
        return offsets[i][0];
    }

    int dy(int i) {
        return offsets[i][1];
    }

    int dz(int i) {
        return offsets[i][2];
    }
}
