package org.dfr.analysis;

import java.util.Arrays;

/**
 * The outcome of one breadth-first search from a lost set, valid while its {@link BfsScratch} is held:
 * the {@code visitedCount} vertices in {@code scratch.queue} in order of distance, and
 * {@code ballSizes[d]} = number of vertices within distance {@code d}, for {@code d = 0..deepest}.
 */
record ConeSearch(BfsScratch scratch, int visitedCount, int[] ballSizes) {

    int deepest() {
        return ballSizes.length - 1;
    }

    /** Number of partitions within distance {@code d} (the whole reached set beyond the deepest layer). */
    int ballSize(long d) {
        return ballSizes[(int) Math.min(d, deepest())];
    }

    /** The reached vertices sorted ascending; picks a linear scan when it beats sorting. */
    int[] sortedVertices() {
        int n = scratch.mark.length;
        int s = visitedCount;
        double sortCost = s * (Math.log(Math.max(s, 2)) / Math.log(2));
        if (sortCost < n) {
            int[] ids = Arrays.copyOf(scratch.queue, s);
            Arrays.sort(ids);
            return ids;
        }
        int[] ids = new int[s];
        int at = 0;
        for (int v = 0; v < n; v++) {
            if (scratch.visited(v)) {
                ids[at++] = v;
            }
        }
        return ids;
    }
}
