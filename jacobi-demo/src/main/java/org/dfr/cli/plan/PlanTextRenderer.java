package org.dfr.cli.plan;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Locale;
import org.dfr.analysis.CartesianGrid;
import org.dfr.analysis.RecoveryPlan;

/** Prints a {@link RecoveryPlan} for people: summary, levels, work against global rollback, grid drawing. */
public final class PlanTextRenderer {

    /** Id lists longer than this are cut short; {@code --json} has them all. */
    static final int MAX_IDS_SHOWN = 32;
    /** Level lines printed; a plan over thousands of lost iterations would print thousands. */
    static final int MAX_LEVELS_SHOWN = 50;

    private PlanTextRenderer() {
    }

    public static void render(String layoutDescription, CartesianGrid grid, RecoveryPlan plan, PrintWriter out) {
        int c = plan.checkpointIteration();
        int m = plan.lostIterations();
        out.println("DFR recovery plan: " + layoutDescription + " (" + plan.partitionCount() + " partitions), lost "
                + Arrays.toString(plan.lostPartitions()));
        out.println("checkpoint iteration " + c + ", failure at the start of iteration " + plan.failureIteration()
                + ": m = " + m + " lost iteration" + (m == 1 ? "" : "s")
                + (m == 0 ? " (the lost partitions only reload their checkpoint)" : ", recomputed as iterations "
                + (c + 1) + ".." + (c + m)));
        // a plan as run: when the cone covers everything, every level is every partition (global rollback)
        boolean asGlobal = plan.isGlobalRollback();
        for (int k = 1; k <= Math.min(m, MAX_LEVELS_SHOWN); k++) {
            out.println(String.format(Locale.ROOT, "  level %d (iteration %d, %s): %d partition%s %s",
                    k, c + k, asGlobal ? "global rollback" : "distance <= " + (m - k), plan.levelSize(k),
                    plan.levelSize(k) == 1 ? "" : "s", idList(plan.level(k))));
        }
        if (m > MAX_LEVELS_SHOWN) {
            out.println("  ... levels " + (MAX_LEVELS_SHOWN + 1) + ".." + m + " not shown (--json lists every level)");
        }
        long dfr = plan.recomputedPartitionIterations();
        long global = plan.globalRollbackPartitionIterations();
        String saved = global == 0 ? "" : String.format(Locale.ROOT, ", %.1f%% less", 100.0 * (global - dfr) / global);
        out.println("recomputed work: " + dfr + " partition-iterations (global rollback: " + global + saved + ")");
        out.println("participating partitions: " + plan.participatingPartitionCount() + " "
                + idList(plan.participatingPartitions()));
        out.println("idle partitions: " + plan.idlePartitionCount() + " " + idList(plan.idlePartitions()));
        out.println("cone covers everything: " + (plan.coversEverything()
                ? "yes (DFR degenerates to global rollback)" : "no"));
        if (GridDrawing.fits(grid)) {
            out.println();
            GridDrawing.draw(plan, grid, out);
        } else {
            out.println("(grid " + grid + " is too large to draw; at most " + GridDrawing.MAX_COLUMNS
                    + " columns and " + GridDrawing.MAX_ROWS + " rows)");
        }
    }

    static String idList(int[] ids) {
        if (ids.length <= MAX_IDS_SHOWN) {
            return Arrays.toString(ids);
        }
        return Arrays.toString(Arrays.copyOf(ids, MAX_IDS_SHOWN)).replace("]", ", ...]");
    }
}
