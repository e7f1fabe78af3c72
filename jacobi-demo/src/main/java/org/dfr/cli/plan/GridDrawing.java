package org.dfr.cli.plan;

import java.io.PrintWriter;
import org.dfr.analysis.CartesianGrid;
import org.dfr.analysis.RecoveryPlan;

/**
 * Draws a recovery plan on its Cartesian grid, one character per partition: {@code X} lost, a digit
 * {@code n} = recomputes {@code n} iterations (levels {@code 1..n}), {@code +} more than 9, {@code .} idle.
 * Rows are {@code py = 0..PY-1} top to bottom, columns {@code px = 0..PX-1}; a 3D grid is drawn one
 * {@code pz} plane after the other, and a line of partitions as one row under its partition numbers.
 */
public final class GridDrawing {

    /** Grids wider than this many columns, or taller than {@link #MAX_ROWS} rows over all planes, are not drawn. */
    public static final int MAX_COLUMNS = 64;
    public static final int MAX_ROWS = 128;

    private GridDrawing() {
    }

    /** Whether {@code grid} is small enough to draw. */
    public static boolean fits(CartesianGrid grid) {
        return grid.px() <= MAX_COLUMNS && (long) grid.py() * grid.pz() <= MAX_ROWS;
    }

    /** The symbol of one partition. */
    static char symbol(RecoveryPlan plan, int partition) {
        if (plan.isLost(partition)) {
            return 'X';
        }
        int iterations = plan.recomputedIterationsOf(partition);
        if (iterations == 0) {
            return '.';
        }
        return iterations > 9 ? '+' : (char) ('0' + iterations);
    }

    public static void draw(RecoveryPlan plan, CartesianGrid grid, PrintWriter out) {
        boolean line = grid.py() == 1 && grid.pz() == 1;
        // a line of partitions (a 1-D kernel) is one row of partition numbers: no py axis of one value
        StringBuilder header = new StringBuilder(line ? "         p " : "        px ");
        for (int x = 0; x < grid.px(); x++) {
            header.append(x % 10).append(' ');
        }
        for (int z = 0; z < grid.pz(); z++) {
            if (grid.pz() > 1) {
                out.println("  plane pz = " + z);
            }
            out.println(header.toString().stripTrailing());
            for (int y = 0; y < grid.py(); y++) {
                StringBuilder row = new StringBuilder(line ? " ".repeat(11) : String.format("  py %4d  ", y));
                for (int x = 0; x < grid.px(); x++) {
                    row.append(symbol(plan, grid.idOf(x, y, z))).append(' ');
                }
                out.println(row.toString().stripTrailing());
            }
        }
        out.println("  legend: X lost (recomputes all " + plan.lostIterations()
                + " iterations), n = recomputes iterations c+1..c+n (levels 1..n), + = more than 9, . = idle");
    }
}
