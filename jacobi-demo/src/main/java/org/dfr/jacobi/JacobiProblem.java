package org.dfr.jacobi;

/**
 * The 2D Jacobi problem on an {@code nx x ny} interior, as defined in DESIGN.md.
 *
 * <p>The global array has rows {@code y = 0..ny+1} and columns {@code x = 0..nx+1}; the interior is
 * {@code 1..ny x 1..nx}, the rest is the fixed boundary:
 * <ul>
 *   <li>{@code u[0][x] = 1.0} for all x (the top row, corners included);</li>
 *   <li>{@code u[ny+1][x] = 0.0} for all x;</li>
 *   <li>{@code u[y][0] = 0.5} and {@code u[y][nx+1] = 0.0} for {@code 1 <= y <= ny}.</li>
 * </ul>
 * The initial interior is {@code u[y][x] = ((31*x + 17*y) % 101) / 100.0}.
 *
 * @param nx interior columns, at least 1
 * @param ny interior rows, at least 1
 */
public record JacobiProblem(int nx, int ny) {

    /** Value of the top boundary row {@code y = 0}. */
    public static final double TOP_BOUNDARY = 1.0;
    /** Value of the bottom boundary row {@code y = ny+1}. */
    public static final double BOTTOM_BOUNDARY = 0.0;
    /** Value of the left boundary column {@code x = 0} (rows 1..ny). */
    public static final double LEFT_BOUNDARY = 0.5;
    /** Value of the right boundary column {@code x = nx+1} (rows 1..ny). */
    public static final double RIGHT_BOUNDARY = 0.0;

    /** Largest extent per axis, so that {@code extent + 2} frame columns still fit in an int. */
    public static final int MAX_EXTENT = Integer.MAX_VALUE - 2;

    /**
     * @throws IllegalArgumentException if {@code nx} or {@code ny} is below 1 or above {@link #MAX_EXTENT}
     */
    public JacobiProblem {
        requireExtent("nx", nx);
        requireExtent("ny", ny);
    }

    private static void requireExtent(String name, int value) {
        if (value < 1 || value > MAX_EXTENT) {
            throw new IllegalArgumentException(
                    name + " must be between 1 and " + MAX_EXTENT + " interior cells but was " + value);
        }
    }

    /** Number of interior cells, {@code nx * ny}. */
    public long interiorCells() {
        return (long) nx * ny;
    }

    /** Whether {@code (x, y)} is an interior cell, i.e. {@code 1 <= x <= nx} and {@code 1 <= y <= ny}. */
    public boolean isInterior(int x, int y) {
        return x >= 1 && x <= nx && y >= 1 && y <= ny;
    }

    /**
     * The value of {@code u[y][x]} at iteration 0: the fixed boundary value on the frame, the initial
     * value in the interior.
     *
     * @param x column, {@code 0..nx+1}
     * @param y row, {@code 0..ny+1}
     * @throws IllegalArgumentException if {@code (x, y)} lies outside the global array
     */
    public double initialValue(int x, int y) {
        if (x < 0 || x > nx + 1 || y < 0 || y > ny + 1) {
            throw new IllegalArgumentException("cell (x=" + x + ", y=" + y + ") is outside the global array "
                    + "x = 0.." + (nx + 1) + ", y = 0.." + (ny + 1));
        }
        if (y == 0) {
            return TOP_BOUNDARY;
        }
        if (y == ny + 1) {
            return BOTTOM_BOUNDARY;
        }
        if (x == 0) {
            return LEFT_BOUNDARY;
        }
        if (x == nx + 1) {
            return RIGHT_BOUNDARY;
        }
        // long arithmetic: the formula means the mathematical integer, which 31*x would overflow for huge x
        return ((31L * x + 17L * y) % 101) / 100.0;
    }
}
