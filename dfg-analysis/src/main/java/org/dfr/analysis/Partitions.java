package org.dfr.analysis;

import java.util.Arrays;

/** Small checks and array helpers on partition ids shared by the declarations and the analyzer. */
final class Partitions {

    private Partitions() {
    }

    static void requireInRange(int partition, int partitionCount) {
        if (partition < 0 || partition >= partitionCount) {
            throw new IllegalArgumentException("partition " + partition + " is out of range 0.."
                    + (partitionCount - 1));
        }
    }

    /** The distinct values of the sorted prefix {@code ids[0..count)}, as a new array of exact length. */
    static int[] distinctPrefix(int[] ids, int count) {
        int distinct = 0;
        for (int i = 0; i < count; i++) {
            if (distinct == 0 || ids[distinct - 1] != ids[i]) {
                ids[distinct++] = ids[i];
            }
        }
        return Arrays.copyOf(ids, distinct);
    }

    /** {@code 0 .. n-1}. */
    static int[] all(int n) {
        int[] ids = new int[n];
        for (int i = 0; i < n; i++) {
            ids[i] = i;
        }
        return ids;
    }
}
