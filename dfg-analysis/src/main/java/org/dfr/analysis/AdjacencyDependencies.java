package org.dfr.analysis;

import java.util.Arrays;

/**
 * {@code R(p)} given explicitly, stored compactly as one sorted row per partition in a single array
 * (compressed sparse rows). Validated once on construction.
 */
final class AdjacencyDependencies implements PartitionDependencies {

    private final int[] rowStart;
    private final int[] inputs;

    /**
     * @param rows            {@code rows[p]} lists {@code R(p)} in any order; copied
     * @param claimSymmetric  whether {@code q in R(p)} must imply {@code p in R(q)}
     */
    AdjacencyDependencies(int[][] rows, boolean claimSymmetric) {
        if (rows == null || rows.length == 0) {
            throw new IllegalArgumentException("a dependency declaration needs at least 1 partition but had "
                    + (rows == null ? "null" : "0"));
        }
        int n = rows.length;
        long total = 0;
        for (int p = 0; p < n; p++) {
            if (rows[p] == null) {
                throw new InvalidDeclarationException("inputs of partition " + p + " are null; use an empty list for none");
            }
            total += rows[p].length;
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("declaration has " + total + " dependency edges; at most "
                    + (Integer.MAX_VALUE - 8) + " are supported");
        }
        this.rowStart = new int[n + 1];
        this.inputs = new int[(int) total];
        int at = 0;
        for (int p = 0; p < n; p++) {
            rowStart[p] = at;
            int[] row = rows[p].clone();
            Arrays.sort(row);
            for (int i = 0; i < row.length; i++) {
                if (row[i] < 0 || row[i] >= n) {
                    throw new InvalidDeclarationException("partition " + p + " lists input " + row[i]
                            + ", which is out of range 0.." + (n - 1));
                }
                if (i > 0 && row[i] == row[i - 1]) {
                    throw new InvalidDeclarationException("partition " + p + " lists input " + row[i]
                            + " more than once; each input must appear once");
                }
            }
            System.arraycopy(row, 0, inputs, at, row.length);
            at += row.length;
        }
        rowStart[n] = at;
        if (claimSymmetric) {
            requireSymmetric();
        }
    }

    private void requireSymmetric() {
        for (int p = 0; p < rowStart.length - 1; p++) {
            for (int i = rowStart[p]; i < rowStart[p + 1]; i++) {
                int q = inputs[i];
                if (Arrays.binarySearch(inputs, rowStart[q], rowStart[q + 1], p) < 0) {
                    throw new InvalidDeclarationException("declared symmetric, but partition " + p + " lists input " + q
                            + " while partition " + q + " does not list " + p);
                }
            }
        }
    }

    @Override
    public int partitionCount() {
        return rowStart.length - 1;
    }

    @Override
    public int[] inputsOf(int partition) {
        Partitions.requireInRange(partition, partitionCount());
        return Arrays.copyOfRange(inputs, rowStart[partition], rowStart[partition + 1]);
    }

    @Override
    public String toString() {
        return "explicit adjacency on " + partitionCount() + " partitions (" + inputs.length + " dependencies)";
    }
}
