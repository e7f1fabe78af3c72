package org.dfr.runtime;

import com.hazelcast.partition.Partition;
import com.hazelcast.partition.PartitionService;

/**
 * Finds a partition key whose Hazelcast partition the local member owns, so that an entry keyed
 * {@code "name@key"} (in a map partitioned by {@link com.hazelcast.partition.strategy.StringPartitioningStrategy})
 * has its primary copy here and only its backups cross the network.
 *
 * <p>Ownership moves when members leave (a backup is promoted), so {@link #current()} checks the
 * key it found last before it searches again.
 */
final class LocalPartitionKey {

    /** Candidate keys tried before giving up; a member owning one partition in 71 needs ~71 on average. */
    static final int MAX_CANDIDATES = 100_000;

    private final PartitionService partitions;
    private String last;

    LocalPartitionKey(PartitionService partitions) {
        this.partitions = partitions;
    }

    /** A key whose partition this member owns now, or {@code null} when it owns none. */
    synchronized String current() {
        if (last != null && ownedHere(last)) {
            return last;
        }
        last = null;
        // more members than partitions, or a lite member: no search can succeed, so do not run one
        if (partitions.getPartitions().stream().noneMatch(LocalPartitionKey::isLocal)) {
            return null;
        }
        for (int n = 0; n < MAX_CANDIDATES; n++) {
            String candidate = "k" + n;
            if (ownedHere(candidate)) {
                last = candidate;
                return candidate;
            }
        }
        return null;
    }

    private boolean ownedHere(String key) {
        return isLocal(partitions.getPartition(key));
    }

    private static boolean isLocal(Partition partition) {
        return partition.getOwner() != null && partition.getOwner().localMember();
    }
}
