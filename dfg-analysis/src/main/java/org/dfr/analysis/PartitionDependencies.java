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
}
