package org.dfr.analysis;

/**
 * {@code R(p)} = every partition: a kernel with an all-to-all step such as a global reduction feeding
 * every update. Any loss then costs a global rollback; the analyzer recognises this declaration and
 * never materialises its {@code n^2} edges.
 */
final class GlobalDependencies implements PartitionDependencies {

    private final int[] everyPartition;

    GlobalDependencies(int partitionCount) {
        if (partitionCount < 1) {
            throw new IllegalArgumentException("a global layout needs at least 1 partition but was " + partitionCount);
        }
        this.everyPartition = Partitions.all(partitionCount);
    }

    @Override
    public int partitionCount() {
        return everyPartition.length;
    }

    @Override
    public int[] inputsOf(int partition) {
        Partitions.requireInRange(partition, everyPartition.length);
        // shared on purpose: callers must not modify, and n copies would cost O(n^2) memory
        return everyPartition;
    }

    @Override
    public String toString() {
        return "global on " + everyPartition.length + " partitions";
    }
}
