package org.dfr.recovery;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.dfr.runtime.BackupRepair;
import org.dfr.runtime.Communicator;
import org.dfr.runtime.DoubleBuffer;
import org.dfr.runtime.Leadership;
import org.dfr.runtime.Ownership;
import org.dfr.runtime.PartitionKernel;
import org.dfr.runtime.PartitionStates;
import org.dfr.runtime.RecoveryView;
import org.dfr.runtime.ResultCollector;
import org.dfr.runtime.RunFailedException;
import org.dfr.runtime.net.EpochChangedException;
import org.dfr.runtime.net.MessageKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes a {@link RecoveryDirective} on one rank, which it sees through its {@link RecoveryView}.
 *
 * <p>Global: every owned partition reloads checkpoint {@code c} into its live buffers and the normal
 * loop recomputes {@code c+1 .. t-1}. Data-flow: survivors keep their live state at {@code t-1}
 * untouched; the owners of cone partitions load checkpoint {@code c} into <em>duplicate</em> buffers
 * and recompute level by level, exchanging halos only inside the cone (the halos a level-1 partition
 * needs from outside the cone come from its neighbours' checkpoints); only the lost partitions'
 * results are kept. Everybody then meets at the resume barrier.
 */
final class DirectiveExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(DirectiveExecutor.class);

    /** How long a rank waits for a member of the decision that its own member list does not show yet. */
    static final long MEMBER_VIEW_WAIT_MILLIS = 10_000;

    private final IdleRankListener idleListener;

    DirectiveExecutor(IdleRankListener idleListener) {
        this.idleListener = idleListener;
    }

    int execute(RecoveryView node, RecoveryDirective d, RecoveryProtocol.RankRecoveryState state) {
        node.acknowledgeDead(d.deadRanks());
        state.accountedDead.addAll(d.deadRanks());
        node.communicator().mailbox().enterEpoch(d.epoch());
        node.recoveryInbox().forgetBefore(d.epoch());
        // a rank that joined just before the decision (a respawned process) may not be in this rank's
        // member list yet: that is not a member that left (campaign seed 86, trial 10: a spurious round
        // that the fresh rank never heard of, and no decision for 60 s)
        Set<Integer> missing = node.awaitMembers(d.members(), MEMBER_VIEW_WAIT_MILLIS);
        if (!missing.isEmpty()) {
            throw new EpochChangedException("ranks " + missing + " of the decision of epoch " + d.epoch()
                    + " left, or did not appear here within " + MEMBER_VIEW_WAIT_MILLIS + " ms");
        }
        if (d.abortReason() != null) {
            throw d.abortFailure();
        }
        long start = System.nanoTime();
        state.replacementNanos = 0;
        int c = d.checkpointIteration();
        int target = d.failureIteration() - 1;
        Set<Integer> previouslyOwned = toSet(node.ownedPartitions());
        boolean hadLiveState = previouslyOwned.stream().anyMatch(state::holds);
        // what this directive gives this rank holds no state until the recovery loads it: if another
        // failure cuts the recovery short, the next round must count it as lost, and know that this rank has no copy
        // of its checkpoint either (the rank's status names it neither held nor invalid)
        int[] newOwnership = d.ownershipArray();
        for (int p = 0; p < newOwnership.length; p++) {
            if (newOwnership[p] == node.rankId() && !previouslyOwned.contains(p)) {
                state.given(p);
            }
        }
        node.adoptOwnership(Ownership.of(newOwnership));
        int[] owned = node.ownedPartitions();
        if (owned.length == 0) {
            // this rank owns nothing any more (cannot happen with the current replacement rule)
            return d.failureIteration();
        }
        // a checkpoint newer than c was still in flight: abandon it (both strategies restart from c)
        node.setCommittedCheckpoint(c);
        if (d.isGlobal() && d.lostIterations() > 0) {
            recomputeGlobally(node, d, state, owned, previouslyOwned, c, target);
        } else {
            recomputeCone(node, d, state, owned, previouslyOwned, hadLiveState, c, target);
        }
        if (state.replacementNanos > 0) {
            String key = ResultCollector.REPLACEMENT_PREFIX + d.epoch() + "/" + node.rankId();
            String value = Long.toString(state.replacementNanos / 1_000_000);
            state.writeInBackground(() -> node.control().put(key, value));
        }
        // the committed checkpoint gets its copies back (a holder may have died) while the ranks resume
        node.repairCheckpointCopies(d.deadRanks());
        Ownership ownership = node.ownership();
        node.communicator().barrier(MessageKind.RESUME_BARRIER, d.failureIteration(), ownership.activeRanks());
        idleListener.rankBusy(node.rankId());
        state.pendingTarget = -1;
        state.recovered();
        if (Leadership.isRoot(node.rankId(), ownership)) {
            RecoveryProtocol.recordResumed(node, d, (System.nanoTime() - start) / 1_000_000, state);
            // the loss used up copies of the partitions it held: let Hazelcast re-create them now
            // that the recovery no longer needs the cluster to hold still
            node.backupRepair().startInBackground(BackupRepair.DEFAULT_TIMEOUT_MILLIS);
        }
        return d.failureIteration();
    }

    /** This rank waits idle for the resume; the ranks the directive counts dead go before it, for its host's sake. */
    private void goIdle(RecoveryView node, RecoveryDirective d) {
        if (d.deadRanks() != null) {
            d.deadRanks().forEach(idleListener::rankGone);
        }
        idleListener.rankIdle(node.rankId());
    }

    private void recomputeGlobally(RecoveryView node, RecoveryDirective d, RecoveryProtocol.RankRecoveryState state,
                                   int[] owned, Set<Integer> previouslyOwned, int c, int target) {
        state.pendingTarget = target;
        for (int p : owned) {
            state.reloading(p);
        }
        idleListener.rankBusy(node.rankId());
        PartitionStates states = node.states();
        for (int p : owned) {
            states.install(p, loadCheckpoint(node, d, p, previouslyOwned, state));
        }
        states.setLiveIteration(c);
        node.setCommittedCheckpoint(c);
        for (int i = c + 1; i <= target; i++) {
            node.runIteration(i);
            node.afterRecoveryStep(d.failureIteration(), i - c);
        }
    }

    private void recomputeCone(RecoveryView node, RecoveryDirective d, RecoveryProtocol.RankRecoveryState state,
                               int[] owned, Set<Integer> previouslyOwned, boolean hadLiveState, int c, int target) {
        Set<Integer> lost = new HashSet<>(d.lostPartitions());
        state.pendingTarget = target;
        PartitionStates states = node.states();
        Communicator comm = node.communicator();
        if (hadLiveState && !states.canFallBackTo(target) && target == c) {
            // a rank caught in an earlier recovery reported state c, this one is further ahead than its
            // buffers reach back: checkpoint c itself is the consistent state everybody can return to
            for (int p : owned) {
                states.install(p, loadCheckpoint(node, d, p, previouslyOwned, state));
            }
            states.setLiveIteration(c);
        } else if (hadLiveState) {
            states.fallBackTo(target);
        } else {
            states.setLiveIteration(target);
        }
        for (int p : owned) {
            if (lost.contains(p)) {
                state.reloading(p);
            }
        }
        PartitionKernel kernel = node.kernel();
        int m = d.lostIterations();
        List<Set<Integer>> levels = new ArrayList<>();
        for (List<Integer> level : d.levels()) {
            levels.add(new HashSet<>(level));
        }
        if (m == 0 || levels.isEmpty()) {
            // no iteration lost, or nothing lost (an empty cone): load what is lost, if anything, and resume
            for (int p : owned) {
                if (lost.contains(p)) {
                    states.install(p, loadCheckpoint(node, d, p, previouslyOwned, state));
                }
            }
            goIdle(node, d);
            return;
        }
        Set<Integer> level1 = levels.get(0);
        // duplicate buffers: state c of every owned cone partition, and of owned cone-edge partitions
        Map<Integer, DoubleBuffer> dup = new HashMap<>();
        Set<Integer> edge = new TreeSet<>();
        for (int q : owned) {
            boolean inCone = level1.contains(q);
            boolean feedsCone = false;
            if (!inCone) {
                for (int consumer : comm.consumersOf(q)) {
                    if (level1.contains(consumer)) {
                        feedsCone = true;
                        break;
                    }
                }
            }
            if (inCone || feedsCone) {
                double[] s = loadCheckpoint(node, d, q, previouslyOwned, state);
                dup.put(q, DoubleBuffer.of(s));
                if (feedsCone) {
                    edge.add(q);
                }
            }
        }
        boolean participates = owned.length > 0 && Arrays.stream(owned).anyMatch(level1::contains);
        int epoch = d.epoch();
        // step 1 senders: level-1 partitions and the cone's edge, all at state c
        for (Map.Entry<Integer, DoubleBuffer> e : dup.entrySet()) {
            comm.sendHalos(MessageKind.RECOMPUTE_HALO, epoch, c + 1, e.getKey(), e.getValue().live(),
                    consumersIn(comm, e.getKey(), level1));
        }
        if (!participates) {
            goIdle(node, d);
            node.afterRecoveryStep(d.failureIteration(), 1);
            return;
        }
        idleListener.rankBusy(node.rankId());
        for (int k = 1; k <= m; k++) {
            Set<Integer> level = levels.get(k - 1);
            int iteration = c + k;
            for (int p : owned) {
                if (level.contains(p)) {
                    DoubleBuffer b = dup.get(p);
                    comm.receiveHalos(MessageKind.RECOMPUTE_HALO, epoch, iteration, p, b.live());
                    kernel.update(p, b.live(), b.next());
                    node.countUpdate();
                    b.swap();
                }
            }
            if (k < m) {
                Set<Integer> nextLevel = levels.get(k);
                for (int p : owned) {
                    if (level.contains(p)) {
                        comm.sendHalos(MessageKind.RECOMPUTE_HALO, epoch, iteration + 1, p, dup.get(p).live(),
                                consumersIn(comm, p, nextLevel));
                    }
                }
            }
            node.afterRecoveryStep(d.failureIteration(), k);
        }
        for (int p : owned) {
            if (lost.contains(p)) {
                states.install(p, dup.get(p).live());
            }
        }
    }

    private static int[] consumersIn(Communicator comm, int partition, Set<Integer> level) {
        return Arrays.stream(comm.consumersOf(partition)).filter(level::contains).toArray();
    }

    /** Loads the directive's checkpoint, timing it as replacement work when this rank adopts the partition. */
    private static double[] loadCheckpoint(RecoveryView node, RecoveryDirective d, int p, Set<Integer> previouslyOwned,
                                           RecoveryProtocol.RankRecoveryState state) {
        long t0 = System.nanoTime();
        double[] s = switch (d.restoredFrom()) {
            case FILE_LEVEL -> loadFileLevel(node, d.checkpointIteration(), p);
            // the copies of where the run started went with the first commit after it: rebuilt, nobody asked
            case START -> rebuildStartingState(node, d.checkpointIteration(), p);
            case COPIES -> loadCheckpoint(node, d.checkpointIteration(), p, previouslyOwned, d.members());
        };
        state.loaded(p);
        if (!previouslyOwned.contains(p)) {
            state.replacementNanos += System.nanoTime() - t0;
        }
        return s;
    }

    /**
     * Checkpoint {@code c} from the file level, where the coordinator fell back to it: every copy of a lost partition
     * died. This rank's own copy of {@code c} where it holds one (the same state, no file to read); the state read is
     * kept as this rank's copy of {@code c}, for another rollback before the next checkpoint.
     */
    private static double[] loadFileLevel(RecoveryView node, int c, int p) {
        double[] local = node.checkpoints().local(c, p);
        if (local != null) {
            return local.clone();
        }
        double[] s = node.fileLevelState(c, p);
        node.checkpoints().adoptLocal(c, p, s);
        return s;
    }

    private static double[] rebuildStartingState(RecoveryView node, int c, int p) {
        double[] local = node.checkpoints().local(c, p);
        if (local != null) {
            return local.clone();
        }
        try {
            return node.startingState(c, p);
        } catch (RunFailedException e) {
            throw new RunFailedException(RunFailedException.Kind.CHECKPOINT_LOST, "no copy of the checkpoint a recovery"
                    + " needs is left, and rank " + node.rankId() + " cannot rebuild partition " + p + " where the run"
                    + " started (iteration " + c + "): " + e.getMessage(), e);
        }
    }

    private static double[] loadCheckpoint(RecoveryView node, int c, int p, Set<Integer> previouslyOwned,
                                           List<Integer> members) {
        double[] local = node.checkpoints().local(c, p);
        if (local != null) {
            return local.clone();
        }
        double[] replicated = node.isStartingCheckpoint(c) ? copyOrStartingState(node, c, p)
                : node.checkpoints().replicated(c, p);
        if (replicated == null) {
            // holders the decision counted as members: a death among them is news to the next round. With no locator
            // left (its map entry died with the members that held it: ranks 0 and 2 of DataPlaneReplicationIT, once in
            // a full verify of session 41) or with the map's backups as copies, which rank held the copy is unknown:
            // any member of the decision that died is news
            List<Integer> located = node.checkpoints().copyHolders(c, p).stream().filter(members::contains).toList();
            List<Integer> holders = located.isEmpty() ? members : located;
            if (aHolderDied(node, holders)) {
                // the decision counted on a copy whose holder died with the partition's owner, a moment after it:
                // a new round decides with both deaths (and falls back when no copy is left). Campaign seed 153,
                // trial 217: 6@7 4@7 with one backup, rank 4's copy on rank 6, UNRECOVERABLE. A holder the decision
                // already knew dead is no news: a new round would decide the same, again and again (seed 154,
                // trial 425, before this check: 74,000 rounds in 4 s, HUNG)
                throw new EpochChangedException("the holders " + holders + " of checkpoint " + c + " of partition " + p
                        + " died during the recovery");
            }
            throw new RunFailedException(RunFailedException.Kind.CHECKPOINT_LOST, "no copy of checkpoint " + c + " of partition " + p
                    + " is left (rank " + node.rankId() + (previouslyOwned.contains(p) ? " owned it" : " adopted it") + ")");
        }
        node.checkpoints().adoptLocal(c, p, replicated);
        return replicated;
    }

    /**
     * Whether a rank of {@code holders} is dead, or is found dead before Hazelcast's heartbeat timeout: a copy that
     * could not be read from a holder that lives is lost for good, one whose holder died is for the next round. The
     * wait is that of a run about to fail: the decision saw every copy it needs, so one gone is a death on its way.
     */
    private static boolean aHolderDied(RecoveryView node, List<Integer> holders) {
        if (holders.isEmpty()) {
            return false;
        }
        // a death counted out bumps the board's version, which wakes the poll
        node.pollUntil(() -> !node.liveRanks().containsAll(holders) || node.isKilled(),
                node.settings().maxNoHeartbeatMillis(), 50);
        return !node.liveRanks().containsAll(holders);
    }

    /**
     * Where the run started: its copy where one is located, else rebuilt as the run built it (deaths before its
     * replication, or its owner and holders together, leave none). Not the search of every live rank for a copy whose
     * locator was lost, which waited seconds for their answers where the state can be rebuilt at once.
     */
    private static double[] copyOrStartingState(RecoveryView node, int c, int p) {
        double[] copy = node.checkpoints().replicatedIfLocated(c, p);
        if (copy != null) {
            return copy;
        }
        try {
            return node.startingState(c, p);
        } catch (RunFailedException e) {
            // a restart file this rank cannot read (not on a shared file system here, or removed)
            throw new RunFailedException(RunFailedException.Kind.CHECKPOINT_LOST, "no copy of checkpoint " + c
                    + " of partition " + p + " is left, and rank " + node.rankId() + " cannot rebuild it: "
                    + e.getMessage(), e);
        }
    }

    private static Set<Integer> toSet(int[] values) {
        Set<Integer> out = new HashSet<>();
        for (int v : values) {
            out.add(v);
        }
        return out;
    }
}
