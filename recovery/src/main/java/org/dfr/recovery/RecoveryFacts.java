package org.dfr.recovery;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

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

    static RecoveryFacts of(RecoveryInput in) {
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
        // replacement: spares first (lowest rank first), then the least loaded survivor; among equals a rank
        // that holds a copy of the partition's checkpoint (it reads its own copy instead of fetching one)
        TreeSet<Integer> active = new TreeSet<>();
        for (int r : owner) {
            if (in.members().contains(r)) {
                active.add(r);
            }
        }
        TreeSet<Integer> spares = new TreeSet<>(in.members());
        spares.removeAll(active);
        List<Adoption> adoptions = new ArrayList<>();
        for (int p : lost) {
            if (in.members().contains(owner[p])) {
                continue; // invalid but its owner lives: the owner recomputes it
            }
            List<Integer> holders = in.copyHolders().getOrDefault(p, List.of());
            int adopter;
            if (!spares.isEmpty()) {
                adopter = spares.stream().filter(holders::contains).findFirst().orElse(spares.first());
                spares.remove(adopter);
            } else {
                adopter = leastLoaded(owner, active, holders);
            }
            owner[p] = adopter;
            active.add(adopter);
            adoptions.add(new Adoption(p, adopter));
        }
        return new RecoveryFacts(checkpoint, restore + 1, lost.stream().mapToInt(Integer::intValue).toArray(),
                owner, adoptions, new ArrayList<>(in.deadRanks()));
    }

    /** The candidate owning the fewest partitions; among equals the first of {@code holders}, else the lowest. */
    private static int leastLoaded(int[] owner, TreeSet<Integer> candidates, List<Integer> holders) {
        if (candidates.isEmpty()) {
            throw new IllegalStateException("no surviving rank can adopt a partition");
        }
        int best = -1;
        int bestLoad = Integer.MAX_VALUE;
        boolean bestHolds = false;
        for (int r : candidates) {
            int load = 0;
            for (int o : owner) {
                if (o == r) {
                    load++;
                }
            }
            boolean holds = holders.contains(r);
            if (load < bestLoad || load == bestLoad && holds && !bestHolds) {
                best = r;
                bestLoad = load;
                bestHolds = holds;
            }
        }
        return best;
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
