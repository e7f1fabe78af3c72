package org.dfr.simulator;

import java.util.Arrays;
import org.dfr.analysis.PartitionDependencies;

/**
 * The dependency declaration read once into compressed rows: for partition {@code p},
 * {@code others[rowStart[p] .. rowStart[p+1])} are its inputs other than itself (a partition always waits for
 * its own previous iteration: it runs on one node). {@code consumerCount[q]} = partitions that read {@code q},
 * the messages {@code q} sends per iteration. Memory is linear in partitions plus edges.
 */
final class TaskGraph {

    final int n;
    final int[] rowStart;
    final int[] others;
    final int[] consumerCount;

    private TaskGraph(int n, int[] rowStart, int[] others, int[] consumerCount) {
        this.n = n;
        this.rowStart = rowStart;
        this.others = others;
        this.consumerCount = consumerCount;
    }

    static TaskGraph of(PartitionDependencies dependencies) {
        int n = dependencies.partitionCount();
        int[] rowStart = new int[n + 1];
        int[] edges = new int[Math.max(16, n * 2)];
        int[] consumers = new int[n];
        int at = 0;
        for (int p = 0; p < n; p++) {
            rowStart[p] = at;
            for (int q : dependencies.inputsOf(p)) {
                if (q == p) {
                    continue;
                }
                if (q < 0 || q >= n) {
                    throw new IllegalArgumentException("partition " + p + " declares input " + q
                            + ", which is out of range 0.." + (n - 1));
                }
                if (at == edges.length) {
                    edges = Arrays.copyOf(edges, Math.toIntExact(Math.min((long) edges.length * 2, Integer.MAX_VALUE - 8)));
                }
                edges[at++] = q;
                consumers[q]++;
            }
        }
        rowStart[n] = at;
        return new TaskGraph(n, rowStart, Arrays.copyOf(edges, at), consumers);
    }
}
