package org.dfr.analysis;

import java.util.Arrays;

/**
 * Reusable working memory for one breadth-first search over {@code n} partitions.
 *
 * <p>Visited marks are epoch stamps, so starting a new search costs O(1) instead of clearing {@code n}
 * entries; only vertices actually reached are touched. Not thread-safe: one search at a time.
 */
final class BfsScratch {

    final int[] mark;
    final int[] distance;
    final int[] queue;
    int epoch;

    BfsScratch(int partitionCount) {
        this.mark = new int[partitionCount];
        this.distance = new int[partitionCount];
        this.queue = new int[partitionCount];
    }

    /** Starts a new search: every vertex becomes unvisited. */
    void reset() {
        if (epoch == Integer.MAX_VALUE) {
            Arrays.fill(mark, 0);
            epoch = 0;
        }
        epoch++;
    }

    boolean visited(int vertex) {
        return mark[vertex] == epoch;
    }

    void visit(int vertex, int dist) {
        mark[vertex] = epoch;
        distance[vertex] = dist;
    }
}
