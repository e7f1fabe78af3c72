package org.dfr.recovery;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

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
 * @param rankHosts   rank to the host it runs on, where known (empty: every rank counts as on a host of its own
 *                    choosing). Among equally loaded candidates, one on a host that computes in the recovery
 *                    anyway adopts a lost partition before a holder of its copy on a host that would otherwise
 *                    be idle: an idle host can cap its frequency for the whole recovery, while fetching a copy
 *                    costs one transfer
 * @param respawnOf   a rank respawned in place of a dead one to that dead rank (empty without respawned ranks):
 *                    it adopts its predecessor's partitions, on its predecessor's host, and no other dead rank's
 */
public record RecoveryInput(int nextEpoch, int[] ownership, Set<Integer> members, List<RankStatus> statuses,
                            Set<Integer> deadRanks, Map<Integer, List<Integer>> copyHolders,
                            Map<Integer, Integer> rankHosts, Map<Integer, Integer> respawnOf) {

    public RecoveryInput {
        copyHolders = Map.copyOf(copyHolders);
        rankHosts = Map.copyOf(rankHosts);
        respawnOf = Map.copyOf(respawnOf);
    }

    /** An input without respawned ranks. */
    public RecoveryInput(int nextEpoch, int[] ownership, Set<Integer> members, List<RankStatus> statuses,
                         Set<Integer> deadRanks, Map<Integer, List<Integer>> copyHolders,
                         Map<Integer, Integer> rankHosts) {
        this(nextEpoch, ownership, members, statuses, deadRanks, copyHolders, rankHosts, Map.of());
    }

    /** An input without known copy holders and hosts. */
    public RecoveryInput(int nextEpoch, int[] ownership, Set<Integer> members, List<RankStatus> statuses,
                         Set<Integer> deadRanks) {
        this(nextEpoch, ownership, members, statuses, deadRanks, Map.of(), Map.of(), Map.of());
    }

    /** An input without known hosts. */
    public RecoveryInput(int nextEpoch, int[] ownership, Set<Integer> members, List<RankStatus> statuses,
                         Set<Integer> deadRanks, Map<Integer, List<Integer>> copyHolders) {
        this(nextEpoch, ownership, members, statuses, deadRanks, copyHolders, Map.of(), Map.of());
    }

    /**
     * A made-up loss for warming a strategy up: {@code partitions} ranks own one partition each, rank 0 died after
     * every survivor computed iteration 3 of checkpoint 0, rank 1 holds a copy of its partition, two ranks per host.
     * Null for fewer than 2 partitions (no survivor to decide).
     */
    static RecoveryInput madeUpLoss(int partitions) {
        if (partitions < 2) {
            return null;
        }
        int[] ownership = new int[partitions];
        Set<Integer> members = new TreeSet<>();
        List<RankStatus> statuses = new ArrayList<>();
        Map<Integer, Integer> hosts = new HashMap<>();
        for (int r = 0; r < partitions; r++) {
            ownership[r] = r;
            hosts.put(r, r / 2);
            if (r > 0) {
                members.add(r);
                statuses.add(new RankStatus(r, 0, 3, 3, 0, new ArrayList<>(), new ArrayList<>(List.of(r)), -1, 0L,
                        null));
            }
        }
        return new RecoveryInput(1, ownership, members, statuses, Set.of(0)).withRankHosts(hosts)
                .withCopyHolders(Map.of(0, List.of(1)));
    }

    /** This input with {@code holders} as the known copy holders. */
    public RecoveryInput withCopyHolders(Map<Integer, List<Integer>> holders) {
        return new RecoveryInput(nextEpoch, ownership, members, statuses, deadRanks, holders, rankHosts, respawnOf);
    }

    /** This input with {@code hosts} (rank to host) as the known hosts. */
    public RecoveryInput withRankHosts(Map<Integer, Integer> hosts) {
        return new RecoveryInput(nextEpoch, ownership, members, statuses, deadRanks, copyHolders, hosts, respawnOf);
    }

    /**
     * This input restoring checkpoint {@code iteration} instead of the committed one the statuses name: every status
     * reports it as its committed checkpoint, and no copy holder is known (the state is read from elsewhere).
     */
    public RecoveryInput restoringCheckpoint(int iteration) {
        List<RankStatus> restoring = statuses.stream().map(s -> new RankStatus(s.rank(), s.epoch(), s.liveIteration(),
                s.computedIteration(), iteration, s.invalidPartitions(), s.heldPartitions(), s.pendingTarget(),
                s.stoppedAtMillis(), s.detectedBy(), s.heldCopies())).toList();
        return new RecoveryInput(nextEpoch, ownership, members, restoring, deadRanks, Map.of(), rankHosts, respawnOf);
    }

    /**
     * Partitions that the ownership in force gives a live rank which neither holds nor loaded them: a directive that
     * gave them to that rank was cut short by another death before the rank read their checkpoint. Like an adopted
     * partition, such a partition is lost, and its owner reads the checkpoint from the replicated copy (it has none
     * of its own), so that copy must be there. Partitions of ranks without a status are not counted.
     */
    public SortedSet<Integer> unloadedPartitions() {
        Map<Integer, RankStatus> statusOf = new HashMap<>();
        for (RankStatus s : statuses) {
            statusOf.put(s.rank(), s);
        }
        SortedSet<Integer> unloaded = new TreeSet<>();
        for (int p = 0; p < ownership.length; p++) {
            RankStatus owner = statusOf.get(ownership[p]);
            if (owner != null && members.contains(ownership[p]) && !owner.heldPartitions().contains(p)
                    && !owner.invalidPartitions().contains(p)) {
                unloaded.add(p);
            }
        }
        return unloaded;
    }

    /** This input with {@code predecessors} (respawned rank to the dead rank it replaces) as the respawned ranks. */
    public RecoveryInput withRespawns(Map<Integer, Integer> predecessors) {
        return new RecoveryInput(nextEpoch, ownership, members, statuses, deadRanks, copyHolders, rankHosts,
                predecessors);
    }
}
