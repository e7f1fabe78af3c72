package org.dfr.recovery;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.dfr.runtime.ControlBoard;
import org.dfr.runtime.FailureHandler;
import org.dfr.runtime.Membership;
import org.dfr.runtime.RankKilledException;
import org.dfr.runtime.RankNode;
import org.dfr.runtime.RecoveryView;
import org.dfr.runtime.ResultCollector;
import org.dfr.runtime.RunFailedException;
import org.dfr.runtime.net.CommunicationException;
import org.dfr.runtime.net.EpochChangedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recovery protocol every rank runs after a failure:
 * <ol>
 *   <li>report its {@link RankStatus} under its current epoch;</li>
 *   <li>wait for the directive of the next epoch; meanwhile, if it is the oldest member (the
 *       coordinator; if that one dies, the next oldest takes over), gather the statuses of every live
 *       active rank, decide with the {@link RollbackStrategy}, check that the needed checkpoint copies
 *       exist, and publish the directive;</li>
 *   <li>execute the directive ({@link DirectiveExecutor}); a failure during it starts a new round.</li>
 * </ol>
 */
public final class RecoveryProtocol implements FailureHandler {

    private static final Logger LOG = LoggerFactory.getLogger(RecoveryProtocol.class);
    private static final String STATUS_PREFIX = "status/";
    private static final String DIRECTIVE_PREFIX = "directive/";

    private final RollbackStrategy strategy;
    private final DirectiveExecutor executor;
    private final Map<Integer, RankRecoveryState> states = new ConcurrentHashMap<>();

    public RecoveryProtocol(RollbackStrategy strategy, IdleRankListener idleListener) {
        this.strategy = strategy;
        this.executor = new DirectiveExecutor(idleListener);
    }

    RankRecoveryState stateOf(RecoveryView node) {
        return states.computeIfAbsent(node.rankId(), r -> new RankRecoveryState());
    }

    @Override
    public int recover(RecoveryView node, RuntimeException cause) {
        RankRecoveryState state = stateOf(node);
        node.setInRecovery(true);
        LOG.info("rank {}: recovering after: {}", node.rankId(), cause.getMessage());
        while (true) {
            long stoppedAt = System.currentTimeMillis();
            int epoch = node.communicator().epoch();
            node.communicator().announceRecovery(node.liveRanks());
            RankStatus status = new RankStatus(node.rankId(), epoch, node.liveIteration(), node.states().computedIteration(),
                    node.committedCheckpoint(), new ArrayList<>(state.invalid), state.pendingTarget, stoppedAt);
            long putStart = System.nanoTime();
            node.control().put(STATUS_PREFIX + epoch + "/" + node.rankId(), write(status));
            LOG.debug("rank {}: status of epoch {} written in {} ms", node.rankId(), epoch,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - putStart));
            node.duringAgreement(epoch);
            RecoveryDirective d = awaitDirective(node, epoch);
            try {
                int next = executor.execute(node, d, state);
                node.setInRecovery(false);
                return next;
            } catch (EpochChangedException | CommunicationException e) {
                LOG.info("rank {}: failure during recovery of epoch {}: {}", node.rankId(), d.epoch(), e.getMessage());
            }
        }
    }

    @Override
    public int awaitWork(RecoveryView spare) {
        RankRecoveryState state = stateOf(spare);
        int seenEpoch = 0;
        while (true) {
            RecoveryDirective d = awaitDirectiveOrEnd(spare, seenEpoch);
            if (d == null) {
                return -1;
            }
            seenEpoch = d.epoch();
            if (!d.ownership().contains(spare.rankId()) && d.abortReason() == null) {
                continue;
            }
            spare.setInRecovery(true);
            try {
                int next = executor.execute(spare, d, state);
                spare.setInRecovery(false);
                return next;
            } catch (EpochChangedException | CommunicationException e) {
                // a failure during the recovery: from now on this rank is active and reports like the others
                return recover(spare, e);
            }
        }
    }

    private RecoveryDirective awaitDirectiveOrEnd(RecoveryView node, int afterEpoch) {
        long deadline = System.nanoTime() + TimeUnit.DAYS.toNanos(1);
        while (true) {
            long seen = node.control().version();
            if (node.control().get(RankNode.ENDED_KEY) != null) {
                return null;
            }
            RecoveryDirective d = newestDirective(node, afterEpoch);
            if (d != null) {
                return d;
            }
            if (node.isCoordinator()) {
                coordinate(node, afterEpoch);
            }
            if (node.isKilled()) {
                throw new RankKilledException(node.rankId());
            }
            node.control().awaitChange(seen, deadline);
        }
    }

    private RecoveryDirective awaitDirective(RecoveryView node, int epoch) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(node.settings().recoveryTimeoutMillis());
        while (true) {
            long seen = node.control().version();
            RecoveryDirective d = newestDirective(node, epoch);
            if (d != null) {
                return d;
            }
            String failed = node.control().get(RankNode.FAILED_KEY);
            if (failed != null) {
                throw RunFailedException.fromBoardValue(failed);
            }
            if (node.isCoordinator()) {
                coordinate(node, epoch);
            }
            if (node.isKilled()) {
                throw new RankKilledException(node.rankId());
            }
            if (System.nanoTime() > deadline) {
                throw new RunFailedException("rank " + node.rankId() + ": no recovery decision for epoch " + (epoch + 1)
                        + " within " + node.settings().recoveryTimeoutMillis() + " ms");
            }
            node.control().awaitChange(seen, deadline);
        }
    }

    private static RecoveryDirective newestDirective(RecoveryView node, int afterEpoch) {
        String json = node.control().get(DIRECTIVE_PREFIX + (afterEpoch + 1));
        if (json == null) {
            return null;
        }
        // a later round may already exist if this rank was slow: take the newest one
        int e = afterEpoch + 1;
        String newer;
        while ((newer = node.control().get(DIRECTIVE_PREFIX + (e + 1))) != null) {
            json = newer;
            e++;
        }
        return read(json, RecoveryDirective.class);
    }

    /** The coordinator's part: decide once every live active rank reported for {@code epoch}. */
    private void coordinate(RecoveryView node, int epoch) {
        ControlBoard board = node.control();
        if (board.get(DIRECTIVE_PREFIX + (epoch + 1)) != null) {
            return;
        }
        int[] ownership = currentOwnership(node, epoch);
        TreeSet<Integer> members = node.liveRanks();
        List<RankStatus> statuses = new ArrayList<>();
        Set<Integer> dead = new TreeSet<>();
        for (int r : new TreeSet<>(toList(ownership))) {
            if (!members.contains(r)) {
                dead.add(r);
                continue;
            }
            String json = board.get(STATUS_PREFIX + epoch + "/" + r);
            if (json == null) {
                LOG.debug("rank {} (coordinator): epoch {}: waiting for the status of rank {}", node.rankId(), epoch, r);
                return; // not everybody reported yet
            }
            statuses.add(read(json, RankStatus.class));
        }
        if (dead.isEmpty() && statuses.stream().allMatch(s -> s.invalidPartitions().isEmpty() && s.pendingTarget() < 0)) {
            // a communication timeout without any member loss: nothing is lost, so retry from the same state
            LOG.warn("rank {}: recovery round {} without a lost member", node.rankId(), epoch);
        }
        RecoveryInput input = new RecoveryInput(epoch + 1, ownership, members, statuses, dead);
        RecoveryDirective d;
        long decideStart = System.nanoTime();
        try {
            d = strategy.decide(input);
            d = checkCheckpointCopies(node, d);
        } catch (RuntimeException e) {
            d = abort(input, "cannot decide a recovery: " + e.getMessage());
        }
        long publishStart = System.nanoTime();
        boolean published = board.putIfAbsent(DIRECTIVE_PREFIX + d.epoch(), write(d)).equals(write(d));
        LOG.debug("rank {} (coordinator): epoch {}: all statuses in; decided and checked copies in {} ms, published in {} ms",
                node.rankId(), epoch + 1, TimeUnit.NANOSECONDS.toMillis(publishStart - decideStart),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - publishStart));
        if (published) {
            LOG.info("rank {} (coordinator): epoch {}: {} lost {} c={} t={} work={} adoptions={}", node.rankId(),
                    d.epoch(), d.effectiveStrategy(), d.lostPartitions(), d.checkpointIteration(),
                    d.failureIteration(), d.recomputedPartitionIterations(), d.adoptions());
            publishRecord(node, d, statuses);
        }
    }

    private static int[] currentOwnership(RecoveryView node, int epoch) {
        if (epoch == 0) {
            return node.ownership().toArray();
        }
        String json = node.control().get(DIRECTIVE_PREFIX + epoch);
        if (json == null) {
            return node.ownership().toArray();
        }
        return read(json, RecoveryDirective.class).ownershipArray();
    }

    private static List<Integer> toList(int[] values) {
        List<Integer> out = new ArrayList<>();
        for (int v : values) {
            out.add(v);
        }
        return out;
    }

    /** Partitions that must load from the replicated copy need one: otherwise fail clearly. */
    private static RecoveryDirective checkCheckpointCopies(RecoveryView node, RecoveryDirective d) {
        if (d.abortReason() != null) {
            return d;
        }
        Set<Integer> needReplicated = new HashSet<>();
        for (Adoption a : d.adoptions()) {
            needReplicated.add(a.partition());
        }
        // right after a loss the backups are being promoted and a copy can look absent for a moment:
        // a copy is gone only if it is still absent once every partition has a live owner again
        List<Integer> missing = missingCopies(node, d.checkpointIteration(), needReplicated);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!missing.isEmpty() && System.nanoTime() < deadline) {
            boolean settled = node.partitionsOwnedByLiveMembers();
            node.control().awaitChange(node.control().version(), System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10));
            missing = missingCopies(node, d.checkpointIteration(), needReplicated);
            if (settled) {
                break;
            }
        }
        if (missing.isEmpty()) {
            return d;
        }
        missing.sort(null);
        return d.aborted(RunFailedException.Kind.CHECKPOINT_LOST, "no copy of checkpoint " + d.checkpointIteration() + " is left for partitions " + missing
                + ": their owners (ranks " + d.deadRanks() + ") died together with the members holding the"
                + " replicated copy, so the state cannot be rebuilt");
    }

    private static List<Integer> missingCopies(RecoveryView node, int checkpoint, Set<Integer> partitions) {
        List<Integer> missing = new ArrayList<>();
        for (int p : partitions) {
            if (!node.checkpoints().hasReplicated(checkpoint, p)) {
                missing.add(p);
            }
        }
        return missing;
    }

    private static RecoveryDirective abort(RecoveryInput in, String reason) {
        List<Integer> own = toList(in.ownership());
        return new RecoveryDirective(in.nextEpoch(), null, null, List.of(), new ArrayList<>(in.deadRanks()), 0, 0, own,
                List.of(), List.of(), 0, List.of(), List.of(), new ArrayList<>(in.members()), false, reason,
                RunFailedException.Kind.OTHER);
    }

    private static void publishRecord(RecoveryView node, RecoveryDirective d, List<RankStatus> statuses) {
        // detection: the first moment any survivor knew, by its own membership event or a failed message
        long detectedAt = Long.MAX_VALUE;
        for (Membership.MemberLoss loss : node.drainLosses()) {
            detectedAt = Math.min(detectedAt, loss.observedAtMillis());
        }
        for (RankStatus s : statuses) {
            detectedAt = Math.min(detectedAt, s.stoppedAtMillis());
        }
        RecoveryRecord record = RecoveryRecord.decided(d, detectedAt == Long.MAX_VALUE ? null : detectedAt,
                System.currentTimeMillis());
        node.control().put(ResultCollector.RECOVERY_PREFIX + d.epoch(), record.toJson());
    }

    /** Called by the root after the resume barrier: completes the recovery record. */
    static void recordResumed(RecoveryView node, RecoveryDirective d, long recomputeMillis) {
        String key = ResultCollector.RECOVERY_PREFIX + d.epoch();
        String json = node.control().get(key);
        if (json == null) {
            return;
        }
        RecoveryRecord updated = RecoveryRecord.fromJson(json).resumed(System.currentTimeMillis(), recomputeMillis);
        node.control().put(key, updated.toJson());
    }

    static String write(Object value) {
        return ProtocolJson.write(value);
    }

    static <T> T read(String json, Class<T> type) {
        return ProtocolJson.read(json, type);
    }

    /** Per-rank memory of the recovery: which owned partitions hold no usable live state. */
    static final class RankRecoveryState {
        final TreeSet<Integer> invalid = new TreeSet<>();
        int pendingTarget = -1;
        /** Time this rank spent loading the checkpoints of partitions it adopted, in the current round. */
        long replacementNanos;
    }
}
