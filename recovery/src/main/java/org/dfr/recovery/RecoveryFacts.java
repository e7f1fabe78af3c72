package org.dfr.recovery;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntUnaryOperator;

/**
 * The facts both strategies agree on: the state iteration to restore, the checkpoint, the lost
 * partitions and who adopts them.
 *
 * <p>Why {@code t-1 = min(computedIteration)} over the ranks that hold some partition's state: a
 * rank can only finish the reduction of iteration {@code j} once every rank computed {@code j}, so
 * the survivors' computed iterations differ by at most one, and each survivor holds both its live
 * state and the one it computed (a rank that holds no state, a spare or an adopter cut short, has
 * no say). A partition is lost when its owner is dead, when a status calls it invalid, or when the
 * ownership in force gives it to a rank that does not hold it. Why
 * {@code c = max(committedCheckpoint)}: a rank commits {@code c} only after every rank's reduction
 * message of {@code c}, each sent after that rank wrote its checkpoint.
 */
record RecoveryFacts(int checkpointIteration, int failureIteration, int[] lost, int[] ownership,
                     List<Adoption> adoptions, List<Integer> deadRanks) {

    /**
     * The partitions that compute in a recovery, given what is lost: each strategy's answer, asked before the
     * adopters are chosen so that an adopter can be placed on a host that computes anyway.
     */
    @FunctionalInterface
    interface RecomputingPartitions {

        /** No partition is known to compute: adopters are chosen by load and copies alone. */
        RecomputingPartitions NONE = (lost, checkpoint, failure) -> Set.of();

        /**
         * @param lost                the lost partitions
         * @param checkpointIteration the checkpoint restored
         * @param failureIteration    the first iteration not computed by everyone
         * @return the partitions that compute in the recovery (their owners' hosts are busy)
         */
        Set<Integer> of(int[] lost, int checkpointIteration, int failureIteration);
    }

    /** The facts, with adopters chosen by load and copies alone ({@link RecomputingPartitions#NONE}). */
    static RecoveryFacts of(RecoveryInput in) {
        return of(in, RecomputingPartitions.NONE);
    }

    /**
     * The facts of {@code in}; a lost partition's adopter is the rank respawned in place of its dead owner if that
     * one joined, else a spare that is no other dead owner's respawned rank (one holding a copy of the partition's
     * checkpoint first, then the lowest), else the least loaded survivors, preferring in turn a rank on a host that
     * computes in the recovery anyway (an owner of one of {@code recomputing}'s partitions, or an adopter chosen
     * before), a rank holding a copy, and the lowest rank.
     */
    static RecoveryFacts of(RecoveryInput in, RecomputingPartitions recomputing) {
        int restore = Integer.MAX_VALUE;
        int pending = -1;
        int checkpoint = -1;
        TreeSet<Integer> invalid = new TreeSet<>();
        int restoreOfAll = Integer.MAX_VALUE;
        for (RankStatus s : in.statuses()) {
            restoreOfAll = Math.min(restoreOfAll, s.computedIteration());
            if (!s.heldPartitions().isEmpty()) {
                // a rank that holds no state (a spare, or an adopter cut short before it loaded what
                // it adopted) computed nothing that counts: its iteration is not the run's
                restore = Math.min(restore, s.computedIteration());
            }
            pending = Math.max(pending, s.pendingTarget());
            checkpoint = Math.max(checkpoint, s.committedCheckpoint());
            invalid.addAll(s.invalidPartitions());
        }
        if (restore == Integer.MAX_VALUE) {
            restore = restoreOfAll;
        }
        if (pending >= 0) {
            restore = pending;
        }
        if (in.statuses().isEmpty()) {
            throw new IllegalStateException("no surviving rank reported its state");
        }
        if (checkpoint < 0) {
            checkpoint = 0;
        }
        int[] owner = in.ownership().clone();
        TreeSet<Integer> lost = new TreeSet<>(invalid);
        Map<Integer, RankStatus> statusOf = new HashMap<>();
        for (RankStatus s : in.statuses()) {
            statusOf.put(s.rank(), s);
        }
        for (int p = 0; p < owner.length; p++) {
            if (!in.members().contains(owner[p])) {
                lost.add(p);
            } else if (statusOf.containsKey(owner[p]) && !statusOf.get(owner[p]).heldPartitions().contains(p)) {
                // the ownership in force gives p to a rank that does not hold it: the directive that
                // did was cut short by another failure before that rank loaded p
                lost.add(p);
            }
        }
        // replacement: spares first, then the least loaded survivor; among equal survivors a rank on a host that
        // computes in the recovery anyway (the other hosts can idle, and cap their frequency, for the whole
        // recovery), then a rank that holds a copy of the partition's checkpoint (it reads its own copy instead of
        // fetching one)
        int[] lostArray = lost.stream().mapToInt(Integer::intValue).toArray();
        Set<Integer> busyHosts = new HashSet<>();
        if (!in.rankHosts().isEmpty()) {
            for (int p : recomputing.of(lostArray, checkpoint, restore + 1)) {
                Integer host = in.members().contains(owner[p]) ? in.rankHosts().get(owner[p]) : null;
                if (host != null) {
                    busyHosts.add(host);
                }
            }
        }
        Preference preference = new Preference(in.rankHosts(), busyHosts);
        TreeSet<Integer> active = new TreeSet<>();
        for (int r : owner) {
            if (in.members().contains(r)) {
                active.add(r);
            }
        }
        TreeSet<Integer> spares = new TreeSet<>(in.members());
        spares.removeAll(active);
        // a rank respawned in place of a dead owner is kept for that owner's partitions: when another respawned rank
        // had not joined in time, the lowest spare took its predecessor's partition (campaign seed 149, trial 5)
        Set<Integer> deadOwners = new HashSet<>();
        for (int p : lost) {
            if (!in.members().contains(owner[p])) {
                deadOwners.add(owner[p]);
            }
        }
        List<Adoption> adoptions = new ArrayList<>();
        for (int p : lost) {
            if (in.members().contains(owner[p])) {
                continue; // invalid but its owner lives: the owner recomputes it
            }
            List<Integer> holders = in.copyHolders().getOrDefault(p, List.of());
            int deadOwner = owner[p];
            Integer respawned = spares.stream().filter(s -> Integer.valueOf(deadOwner).equals(in.respawnOf().get(s)))
                    .findFirst().orElse(null);
            TreeSet<Integer> free = new TreeSet<>(spares);
            free.removeIf(s -> deadOwners.contains(in.respawnOf().get(s)));
            int adopter;
            if (respawned != null) {
                adopter = respawned;
                spares.remove(adopter);
            } else if (!free.isEmpty()) {
                // not by host: a hot spare first, a holder of the copy among them first
                adopter = free.stream().filter(holders::contains).findFirst().orElse(free.first());
                spares.remove(adopter);
            } else {
                adopter = preference.leastLoaded(active, r -> loadOf(owner, r), holders);
            }
            owner[p] = adopter;
            active.add(adopter);
            preference.markBusy(adopter);
            adoptions.add(new Adoption(p, adopter));
        }
        return new RecoveryFacts(checkpoint, restore + 1, lostArray, owner, adoptions, new ArrayList<>(in.deadRanks()));
    }

    private static int loadOf(int[] owner, int rank) {
        int load = 0;
        for (int o : owner) {
            if (o == rank) {
                load++;
            }
        }
        return load;
    }

    /** The order among surviving adopter candidates: load, then a busy host, then a copy held, then the lowest rank. */
    private static final class Preference {

        private final Map<Integer, Integer> rankHosts;
        private final Set<Integer> busyHosts;

        Preference(Map<Integer, Integer> rankHosts, Set<Integer> busyHosts) {
            this.rankHosts = rankHosts;
            this.busyHosts = busyHosts;
        }

        void markBusy(int rank) {
            Integer host = rankHosts.get(rank);
            if (host != null) {
                busyHosts.add(host);
            }
        }

        int leastLoaded(TreeSet<Integer> candidates, IntUnaryOperator load, List<Integer> holders) {
            if (candidates.isEmpty()) {
                throw new IllegalStateException("no surviving rank can adopt a partition");
            }
            Comparator<Integer> order = Comparator.<Integer>comparingInt(load::applyAsInt)
                    .thenComparing(r -> !busyHosts.contains(rankHosts.get(r)))
                    .thenComparing(r -> !holders.contains(r))
                    .thenComparingInt(r -> r);
            return candidates.stream().min(order).orElseThrow();
        }
    }

    List<Integer> lostList() {
        return Arrays.stream(lost).boxed().toList();
    }

    List<Integer> ownershipList() {
        return Arrays.stream(ownership).boxed().toList();
    }

    List<Integer> activeRanks() {
        return Arrays.stream(ownership).distinct().sorted().boxed().toList();
    }

    List<Integer> ownersOf(int[] partitions) {
        TreeSet<Integer> ranks = new TreeSet<>();
        for (int p : partitions) {
            ranks.add(ownership[p]);
        }
        return new ArrayList<>(ranks);
    }
}
