package org.dfr.analysis;

/**
 * A kernel's declared partition dependency function {@code R(p)}: the partitions whose state at
 * iteration {@code i} partition {@code p} needs to compute iteration {@code i+1}.
 *
 * <p>Partition ids are {@code 0 .. partitionCount()-1}. Implementations are immutable.
 */
public interface PartitionDependencies {

    /** Number of partitions; at least 1. */
    int partitionCount();

    /**
     * The inputs {@code R(p)} of partition {@code p}, sorted ascending, without duplicates;
     * contains {@code p} itself when the kernel declares it. The caller must not modify the array.
     *
     * @throws IllegalArgumentException if {@code p} is out of range
     */
    int[] inputsOf(int partition);

    /**
     * The reverse of {@link #inputsOf}: {@code consumers()[q]} holds every partition other than
     * {@code q} whose inputs contain {@code q}, sorted ascending. These are the partitions that need
     * {@code q}'s halo each iteration. Computed on each call; callers keep the result.
     */
    default int[][] consumers() {
        int n = partitionCount();
        int[] counts = new int[n];
        for (int p = 0; p < n; p++) {
            for (int q : inputsOf(p)) {
                if (q != p) {
                    counts[q]++;
                }
            }
        }
        int[][] consumers = new int[n][];
        for (int q = 0; q < n; q++) {
            consumers[q] = new int[counts[q]];
        }
        int[] filled = new int[n];
        // p ascending, so every consumer list comes out sorted
        for (int p = 0; p < n; p++) {
            for (int q : inputsOf(p)) {
                if (q != p) {
                    consumers[q][filled[q]++] = p;
                }
            }
        }
        return consumers;
    }
}
