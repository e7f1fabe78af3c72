package org.dfr.recovery;

import java.util.List;
import java.util.Set;

/**
 * Everything a {@link RollbackStrategy} needs to decide a recovery, gathered by the coordinator.
 *
 * @param nextEpoch epoch the decision opens
 * @param ownership partition to owning rank before the failure
 * @param members ranks currently in the cluster (spares included)
 * @param statuses statuses of every live rank that owns partitions
 * @param deadRanks ranks no longer in the cluster that owned partitions
 */
public record RecoveryInput(int nextEpoch, int[] ownership, Set<Integer> members, List<RankStatus> statuses,
                            Set<Integer> deadRanks) {
}
