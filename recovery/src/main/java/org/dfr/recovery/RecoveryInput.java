package org.dfr.recovery;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything a {@link RollbackStrategy} needs to decide a recovery, gathered by the coordinator.
 *
 * @param nextEpoch   epoch the decision opens
 * @param ownership   partition to owning rank before the failure
 * @param members     ranks currently in the cluster (spares included)
 * @param statuses    statuses of every live rank that owns partitions
 * @param deadRanks   ranks no longer in the cluster that owned partitions
 * @param copyHolders partition to the ranks holding a copy of its state at the committed checkpoint, where the
 *                    coordinator knows them (the data-plane path; empty with the map's backups): among equally
 *                    loaded candidates a holder adopts a lost partition, and reads its own copy instead of
 *                    fetching one
 */
public record RecoveryInput(int nextEpoch, int[] ownership, Set<Integer> members, List<RankStatus> statuses,
                            Set<Integer> deadRanks, Map<Integer, List<Integer>> copyHolders) {

    public RecoveryInput {
        copyHolders = Map.copyOf(copyHolders);
    }

    /** An input without known copy holders. */
    public RecoveryInput(int nextEpoch, int[] ownership, Set<Integer> members, List<RankStatus> statuses,
                         Set<Integer> deadRanks) {
        this(nextEpoch, ownership, members, statuses, deadRanks, Map.of());
    }

    /** This input with {@code holders} as the known copy holders. */
    public RecoveryInput withCopyHolders(Map<Integer, List<Integer>> holders) {
        return new RecoveryInput(nextEpoch, ownership, members, statuses, deadRanks, holders);
    }
}
