package org.dfr.simulator;

import java.util.Arrays;
import org.dfr.analysis.RecoveryPlan;

/**
 * Who recomputes what in one recovery: the participating partitions ordered deepest first, so that the
 * partitions recomputing iteration {@code c+k} are the first {@code levelSize[k]} of {@link #order}
 * ({@code k = 1..m}); {@code depth[j]} = iterations {@code order[j]} recomputes.
 */
final class RecoveryShape {

    final int[] order;
    final int[] depth;
    final int[] levelSize;
    final int m;
    final long work;

    private RecoveryShape(int[] order, int[] depth, int[] levelSize, int m) {
        this.order = order;
        this.depth = depth;
        this.levelSize = levelSize;
        this.m = m;
        long w = 0;
        for (int k = 1; k <= m; k++) {
            w += levelSize[k];
        }
        this.work = w;
    }

    /** Every partition in every level. */
    static RecoveryShape everyone(int[] identity, int m) {
        int[] sizes = new int[m + 1];
        Arrays.fill(sizes, 1, m + 1, identity.length);
        int[] depth = new int[identity.length];
        Arrays.fill(depth, m);
        return new RecoveryShape(identity, depth, sizes, m);
    }

    /** Only the given partitions, in every level. */
    static RecoveryShape only(int[] partitions, int m) {
        int[] sizes = new int[m + 1];
        Arrays.fill(sizes, 1, m + 1, partitions.length);
        int[] depth = new int[partitions.length];
        Arrays.fill(depth, m);
        return new RecoveryShape(partitions, depth, sizes, m);
    }

    /** The cone of a plan: a partition at distance {@code d} recomputes {@code m-d} iterations. */
    static RecoveryShape cone(RecoveryPlan plan) {
        int m = plan.lostIterations();
        int[] members = plan.participatingPartitions();
        int[] depths = new int[members.length];
        int[] count = new int[m + 2];
        for (int j = 0; j < members.length; j++) {
            depths[j] = plan.recomputedIterationsOf(members[j]);
            count[depths[j]]++;
        }
        // counting sort by depth, deepest first
        int[] startOf = new int[m + 2];
        int at = 0;
        for (int d = m; d >= 0; d--) {
            startOf[d] = at;
            at += count[d];
        }
        int[] order = new int[members.length];
        int[] depth = new int[members.length];
        for (int j = 0; j < members.length; j++) {
            int slot = startOf[depths[j]]++;
            order[slot] = members[j];
            depth[slot] = depths[j];
        }
        int[] sizes = new int[m + 1];
        for (int k = 1; k <= m; k++) {
            sizes[k] = plan.levelSize(k);
        }
        return new RecoveryShape(order, depth, sizes, m);
    }
}
