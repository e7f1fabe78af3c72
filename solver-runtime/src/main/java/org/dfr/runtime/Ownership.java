package org.dfr.runtime;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * Which rank owns each partition: the source of truth for "where does partition {@code p} live".
 * Immutable; a recovery installs a new one. Nothing here assumes that rank {@code r} owns partition
 * {@code r} except {@link #initial}, the placement a run starts with; a rank may own any number of
 * partitions.
 */
public final class Ownership {

    private final int[] owner;
    /** Distinct owners, ascending; derived once, read every iteration. */
    private final int[] activeRanks;

    private Ownership(int[] owner) {
        this.owner = owner;
        this.activeRanks = Arrays.stream(owner).distinct().sorted().toArray();
    }

    /** The placement a run starts with: partition {@code p} on rank {@code p}; higher ranks are spares. */
    public static Ownership initial(int partitionCount) {
        return new Ownership(IntStream.range(0, partitionCount).toArray());
    }

    /** The ownership {@code owner[p] = rank} (copied). */
    public static Ownership of(int[] owner) {
        for (int r : owner) {
            if (r < 0) {
                throw new IllegalArgumentException("negative owner rank " + r + " in " + Arrays.toString(owner));
            }
        }
        return new Ownership(owner.clone());
    }

    /** Number of partitions. */
    public int partitionCount() {
        return owner.length;
    }

    /** The rank that owns partition {@code partition}. */
    public int ownerOf(int partition) {
        return owner[partition];
    }

    /** Partition to owning rank; a copy. */
    public int[] toArray() {
        return owner.clone();
    }

    /** Distinct ranks that own at least one partition, ascending; a copy. */
    public int[] activeRanks() {
        return activeRanks.clone();
    }

    /** {@link #activeRanks} without the copy, for the hot path of this package; never modify it. */
    int[] activeRanksView() {
        return activeRanks;
    }

    /** Partitions {@code rank} owns, ascending (empty for a spare). */
    public int[] partitionsOf(int rank) {
        return IntStream.range(0, owner.length).filter(p -> owner[p] == rank).toArray();
    }

    /** Whether {@code rank} owns at least one partition. */
    public boolean isActive(int rank) {
        return Arrays.binarySearch(activeRanks, rank) >= 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Ownership other && Arrays.equals(owner, other.owner);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(owner);
    }

    @Override
    public String toString() {
        return Arrays.toString(owner);
    }
}
