package org.dfr.recovery;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.dfr.runtime.ControlBoard;
import org.dfr.runtime.FailureHandler;
import org.dfr.runtime.RankNode;
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
    static final ObjectMapper JSON = new ObjectMapper()
            .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private static final String STATUS_PREFIX = "status/";
    private static final String DIRECTIVE_PREFIX = "directive/";

    private final RollbackStrategy strategy;
    private final DirectiveExecutor executor;
    private final Map<Integer, RankRecoveryState> states = new ConcurrentHashMap<>();

    public RecoveryProtocol(RollbackStrategy strategy, IdleRankListener idleListener) {
        this.strategy = strategy;
        this.executor = new DirectiveExecutor(idleListener);
    }

    RankRecoveryState stateOf(RankNode node) {
        return states.computeIfAbsent(node.rankId(), r -> new RankRecoveryState());
    }

    @Override
    public int recover(RankNode node, RuntimeException cause) {
        RankRecoveryState state = stateOf(node);
        node.setInRecovery(true);
        LOG.info("rank {}: recovering after: {}", node.rankId(), cause.getMessage());
        while (true) {
            long stoppedAt = System.currentTimeMillis();
            int epoch = node.mailbox().epoch();
            node.announceRecovery();
            RankStatus status = new RankStatus(node.rankId(), epoch, node.liveIteration(), node.computedIteration(),
                    node.committedCheckpoint(), new ArrayList<>(state.invalid), state.pendingTarget, stoppedAt);
            long putStart = System.nanoTime();
            node.control().put(STATUS_PREFIX + epoch + "/" + node.rankId(), write(status));
            LOG.debug("rank {}: status of epoch {} written in {} ms", node.rankId(), epoch,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - putStart));
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
    public int awaitWork(RankNode spare) {
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

    private RecoveryDirective awaitDirectiveOrEnd(RankNode node, int afterEpoch) {
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
            if (node.isOldestMember()) {
                coordinate(node, afterEpoch);
            }
            if (node.isKilled()) {
                throw new RankNode.RankKilledException(node.rankId());
            }
            node.control().awaitChange(seen, deadline);
        }
    }

    private RecoveryDirective awaitDirective(RankNode node, int epoch) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(node.settings().recoveryTimeoutMillis());
        while (true) {
            long seen = node.control().version();
            RecoveryDirective d = newestDirective(node, epoch);
            if (d != null) {
                return d;
            }
            if (node.control().get(RankNode.FAILED_KEY) != null) {
                throw new RunFailedException(node.control().get(RankNode.FAILED_KEY));
            }
            if (node.isOldestMember()) {
                coordinate(node, epoch);
            }
            if (node.isKilled()) {
                throw new RankNode.RankKilledException(node.rankId());
            }
            if (System.nanoTime() > deadline) {
                throw new RunFailedException("rank " + node.rankId() + ": no recovery decision for epoch " + (epoch + 1)
                        + " within " + node.settings().recoveryTimeoutMillis() + " ms");
            }
            node.control().awaitChange(seen, deadline);
        }
    }

    private static RecoveryDirective newestDirective(RankNode node, int afterEpoch) {
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
    private void coordinate(RankNode node, int epoch) {
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

    private static int[] currentOwnership(RankNode node, int epoch) {
        if (epoch == 0) {
            return node.ownership();
        }
        String json = node.control().get(DIRECTIVE_PREFIX + epoch);
        if (json == null) {
            return node.ownership();
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
    private static RecoveryDirective checkCheckpointCopies(RankNode node, RecoveryDirective d) {
        if (d.abortReason() != null) {
            return d;
        }
        Set<Integer> needReplicated = new HashSet<>();
        for (String a : d.adoptions()) {
            needReplicated.add(Integer.parseInt(a.substring(0, a.indexOf(':'))));
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
        return abortOf(d, "no copy of checkpoint " + d.checkpointIteration() + " is left for partitions " + missing
                + ": their owners (ranks " + d.deadRanks() + ") died together with the members holding the"
                + " replicated copy, so the state cannot be rebuilt");
    }

    private static List<Integer> missingCopies(RankNode node, int checkpoint, Set<Integer> partitions) {
        List<Integer> missing = new ArrayList<>();
        for (int p : partitions) {
            if (!node.checkpoints().hasReplicated(checkpoint, p)) {
                missing.add(p);
            }
        }
        return missing;
    }

    private static RecoveryDirective abortOf(RecoveryDirective d, String reason) {
        return new RecoveryDirective(d.epoch(), d.strategy(), d.effectiveStrategy(), d.lostPartitions(), d.deadRanks(),
                d.checkpointIteration(), d.failureIteration(), d.ownership(), d.adoptions(), List.of(),
                0, List.of(), List.of(), d.members(), d.coversEverything(), reason);
    }

    private static RecoveryDirective abort(RecoveryInput in, String reason) {
        List<Integer> own = toList(in.ownership());
        return new RecoveryDirective(in.nextEpoch(), "", "", List.of(), new ArrayList<>(in.deadRanks()), 0, 0, own,
                List.of(), List.of(), 0, List.of(), List.of(), new ArrayList<>(in.members()), false, reason);
    }

    private static void publishRecord(RankNode node, RecoveryDirective d, List<RankStatus> statuses) {
        // detection: the first moment any survivor knew, by its own membership event or a failed message
        long detectedAt = Long.MAX_VALUE;
        for (RankNode.MemberLoss loss : node.drainLosses()) {
            detectedAt = Math.min(detectedAt, loss.observedAtMillis());
        }
        for (RankStatus s : statuses) {
            detectedAt = Math.min(detectedAt, s.stoppedAtMillis());
        }
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("epoch", d.epoch());
        record.put("strategy", d.strategy());
        record.put("effectiveStrategy", d.effectiveStrategy());
        record.put("deadRanks", d.deadRanks());
        record.put("lostPartitions", d.lostPartitions());
        record.put("checkpointIteration", d.checkpointIteration());
        record.put("failureIteration", d.failureIteration());
        record.put("lostIterations", d.lostIterations());
        record.put("levels", d.levels());
        record.put("recomputedPartitionIterations", d.recomputedPartitionIterations());
        record.put("participatingRanks", d.participatingRanks());
        record.put("idleRanks", d.idleRanks());
        record.put("adoptions", d.adoptions());
        record.put("coversEverything", d.coversEverything());
        record.put("detectedAtMillis", detectedAt == Long.MAX_VALUE ? null : detectedAt);
        record.put("decidedAtMillis", System.currentTimeMillis());
        record.put("abortReason", d.abortReason());
        node.control().put(ResultCollector.RECOVERY_PREFIX + d.epoch(), write(record));
    }

    /** Called by the lowest active rank after the resume barrier: completes the recovery record. */
    static void recordResumed(RankNode node, RecoveryDirective d, long recomputeMillis) {
        String key = ResultCollector.RECOVERY_PREFIX + d.epoch();
        String json = node.control().get(key);
        if (json == null) {
            return;
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> record = read(json, TreeMap.class);
        Map<String, Object> updated = new LinkedHashMap<>(record);
        updated.put("resumedAtMillis", System.currentTimeMillis());
        updated.put("recomputeMillis", recomputeMillis);
        node.control().put(key, write(updated));
    }

    static String write(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static <T> T read(String json, Class<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable control message: " + json, e);
        }
    }

    /** Per-rank memory of the recovery: which owned partitions hold no usable live state. */
    static final class RankRecoveryState {
        final TreeSet<Integer> invalid = new TreeSet<>();
        int pendingTarget = -1;
        /** Time this rank spent loading the checkpoints of partitions it adopted, in the current round. */
        long replacementNanos;
    }
}
