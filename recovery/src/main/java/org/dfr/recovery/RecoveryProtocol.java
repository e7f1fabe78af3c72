package org.dfr.recovery;

import com.hazelcast.core.HazelcastInstanceNotActiveException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.dfr.runtime.ControlBoard;
import org.dfr.runtime.Detector;
import org.dfr.runtime.FailureHandler;
import org.dfr.runtime.Membership;
import org.dfr.runtime.Ownership;
import org.dfr.runtime.RankKilledException;
import org.dfr.runtime.RankNode;
import org.dfr.runtime.RecoveryInbox;
import org.dfr.runtime.RecoveryView;
import org.dfr.runtime.ResultCollector;
import org.dfr.runtime.RunFailedException;
import org.dfr.runtime.net.CommunicationException;
import org.dfr.runtime.net.EpochChangedException;
import org.dfr.runtime.net.MessageKind;
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
 *
 * <p>Paths. Statuses travel over the data plane to every live rank (so that whichever rank is or
 * becomes the coordinator has them all), falling back to the control board only for a rank that
 * cannot be reached. The decision is committed by one {@code putIfAbsent} on the replicated control
 * board, exactly as before: that is the single point where the directive of an epoch is fixed, so a
 * coordinator that dies after deciding and a successor that decides again can never make two
 * directives of one epoch (the successor's {@code putIfAbsent} returns the first). The committed value
 * is then sent over the data plane to every live rank, which take it from there instead of reading
 * the board; a rank that misses that copy (its sender died half-way) reads the board every
 * {@value #BOARD_FALLBACK_MILLIS} ms. So the data plane carries only inputs about the sender itself
 * and copies of committed decisions: it adds no way to disagree, and a second failure during the
 * agreement, of the coordinator too, ends as before in a decision taken from the board.
 */
public final class RecoveryProtocol implements FailureHandler {

    private static final Logger LOG = LoggerFactory.getLogger(RecoveryProtocol.class);
    private static final String STATUS_PREFIX = "status/";
    private static final String DIRECTIVE_PREFIX = "directive/";
    /**
     * How often a rank waiting for a decision also reads the board (a status or directive it missed
     * on the data plane, a failed run): board reads can wait for Hazelcast to promote the copies of a
     * dead member, so they are kept off the fast path.
     */
    static final long BOARD_FALLBACK_MILLIS = 250;

    private final RollbackStrategy strategy;
    private final DirectiveExecutor executor;
    private final Map<Integer, RankRecoveryState> states = new ConcurrentHashMap<>();
    /** Epoch to the moment its coordinator began waiting for respawned ranks (System.nanoTime()). */
    private final Map<Integer, Long> respawnWaitStart = new ConcurrentHashMap<>();

    public RecoveryProtocol(RollbackStrategy strategy, IdleRankListener idleListener) {
        this.strategy = strategy;
        this.executor = new DirectiveExecutor(idleListener);
        // off the critical path: the first recovery would otherwise load and compile all of this
        Thread warmUp = new Thread(() -> {
            try {
                ProtocolJson.warmUp();
                strategy.warmUp();
            } catch (RuntimeException e) {
                LOG.debug("recovery warm-up failed (the first recovery will be slower): {}", e.toString());
            }
        }, "dfr-recovery-warm-up");
        warmUp.setDaemon(true);
        warmUp.start();
    }

    /**
     * The control board's key of the directive that opens {@code epoch}. Putting it is the decision's commit point: a
     * test that times a death between a decision and its execution waits for it.
     */
    public static String directiveKey(int epoch) {
        return DIRECTIVE_PREFIX + epoch;
    }

    RankRecoveryState stateOf(RecoveryView node) {
        return states.computeIfAbsent(node.rankId(), r -> new RankRecoveryState());
    }

    @Override
    public int recover(RecoveryView node, RuntimeException cause) {
        RankRecoveryState state = stateOf(node);
        node.setInRecovery(true);
        if (cause instanceof CommunicationException c && c.timedOut()) {
            // no death behind it: a peer is slow or stuck (an update that never returns), and the run was silent
            // for the whole message timeout (a walk-through, session 43): say it where the console shows it
            LOG.warn("rank {}: {}: a rank is slow or stuck (a kernel's update that does not return?); recovering"
                    + " without a death", node.rankId(), cause.getMessage());
        } else {
            LOG.info("rank {}: recovering after: {}", node.rankId(), cause.getMessage());
        }
        while (true) {
            long stoppedAt = System.currentTimeMillis();
            Detector detectedBy = null;
            // this rank's own finding of a death is when it knew, even if it stopped later (it was computing)
            for (Membership.MemberLoss loss : node.drainLosses()) {
                if (!state.accountedDead.contains(loss.rank()) && loss.observedAtMillis() <= stoppedAt) {
                    stoppedAt = loss.observedAtMillis();
                    detectedBy = loss.detectedBy();
                }
            }
            int epoch = node.communicator().epoch();
            TreeSet<Integer> live = node.liveRanks();
            node.communicator().announceRecovery(live);
            if (node.isCoordinator()) {
                touchLostCopies(node, live);
            }
            List<Integer> held = new ArrayList<>();
            for (int p : node.ownedPartitions()) {
                if (state.holds(p)) {
                    held.add(p);
                }
            }
            RankStatus status = new RankStatus(node.rankId(), epoch, node.liveIteration(), node.states().computedIteration(),
                    node.committedCheckpoint(), state.invalidPartitions(), held, state.pendingTarget, stoppedAt,
                    detectedBy, node.checkpoints().heldCopies());
            long sendStart = System.nanoTime();
            String json = write(status);
            // the coordinator first: the others only need it if they have to take over
            Set<Integer> unreached = node.communicator().sendText(node.liveRanksOldestFirst(), MessageKind.STATUS, epoch,
                    node.rankId(), 0, json);
            if (!unreached.isEmpty()) {
                // a rank that could not be reached may still be alive (and coordinate): the board has it too
                node.control().put(STATUS_PREFIX + epoch + "/" + node.rankId(), json);
            }
            LOG.debug("rank {}: status of epoch {} sent at {} in {} us (unreached {})", node.rankId(), epoch,
                    System.currentTimeMillis(), (System.nanoTime() - sendStart) / 1_000, unreached);
            node.duringAgreement(epoch);
            RecoveryDirective d = awaitDirective(node, epoch, state);
            LOG.debug("rank {}: directive of epoch {} in hand at {}", node.rankId(), d.epoch(), System.currentTimeMillis());
            state.lastDirective = d;
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
            RecoveryDirective d = awaitDirectiveOrEnd(spare, seenEpoch, state);
            if (d == null) {
                return -1;
            }
            seenEpoch = d.epoch();
            state.lastDirective = d;
            if (!d.ownership().contains(spare.rankId()) && d.abortReason() == null) {
                // not needed this time, but it must know who the root is when the run ends: the collector
                // it waits for before it leaves (an unused spare once waited for a dead initial root and
                // left while the real collector still read the maps)
                spare.adoptOwnership(Ownership.of(d.ownershipArray()));
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

    private RecoveryDirective awaitDirectiveOrEnd(RecoveryView node, int afterEpoch, RankRecoveryState state) {
        long deadline = System.nanoTime() + TimeUnit.DAYS.toNanos(1);
        while (true) {
            long seen = node.control().version();
            // before the directives: a death planned for it at an iteration already reached comes first
            node.whileIdle();
            RecoveryDirective d = newestDirective(node, afterEpoch, false);
            if (d != null) {
                return d;
            }
            if (node.control().get(RankNode.ENDED_KEY) != null) {
                return null;
            }
            d = newestDirective(node, afterEpoch, true);
            if (d != null) {
                return d;
            }
            if (node.isLeftAlone()) {
                // the run's members are gone (a rank respawned after the run ended finds none): nobody can
                // direct this rank any more
                LOG.info("rank {}: no other member of the run is left: nothing to wait for", node.rankId());
                return null;
            }
            if (node.isCoordinator()) {
                d = coordinate(node, afterEpoch, state, true);
                if (d != null) {
                    return d;
                }
            }
            if (node.isKilled()) {
                throw new RankKilledException(node.rankId());
            }
            node.control().awaitChange(seen, deadline);
        }
    }

    private RecoveryDirective awaitDirective(RecoveryView node, int epoch, RankRecoveryState state) {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(node.settings().recoveryTimeoutMillis());
        long boardNanos = TimeUnit.MILLISECONDS.toNanos(BOARD_FALLBACK_MILLIS);
        long nextBoardRead = start + boardNanos;
        while (true) {
            long seen = node.control().version();
            RecoveryDirective d = newestDirective(node, epoch, false);
            if (d != null) {
                return d;
            }
            boolean readBoard = System.nanoTime() >= nextBoardRead;
            if (node.isCoordinator()) {
                d = coordinate(node, epoch, state, readBoard);
                if (d != null) {
                    return d;
                }
            }
            if (readBoard) {
                d = newestDirective(node, epoch, true);
                if (d != null) {
                    return d;
                }
                String failed = node.control().getIfReachable(RankNode.FAILED_KEY);
                if (failed != null) {
                    throw RunFailedException.fromBoardValue(failed);
                }
                nextBoardRead = System.nanoTime() + boardNanos;
            }
            if (node.isKilled()) {
                throw new RankKilledException(node.rankId());
            }
            if (System.nanoTime() > deadline) {
                if (LOG.isDebugEnabled()) {
                    // what the coordinator, Hazelcast and this JVM's other ranks were doing: a stalled decision
                    // seldom comes back when replayed, so its log has to say where it waited
                    LOG.debug("rank {}: no decision for epoch {}; the threads of this JVM:{}", node.rankId(), epoch + 1,
                            ThreadStacks.ofAll());
                }
                throw new RunFailedException("rank " + node.rankId() + ": no recovery decision for epoch " + (epoch + 1)
                        + " within " + node.settings().recoveryTimeoutMillis() + " ms"
                        + silentRanks(node, epoch, currentOwnership(node, epoch, state)));
            }
            node.control().awaitChange(seen, Math.min(deadline, nextBoardRead));
        }
    }

    /**
     * The live owners (in {@code ownership}, the ownership in force) whose status of this round never reached this
     * rank (every owner sends its status to all; spares send none), for the timeout's message: a rank that did not
     * stop to recover is stuck (a kernel's update that does not return, a paused process), and the coordinator waits
     * for it. Empty when every status arrived.
     */
    private static String silentRanks(RecoveryView node, int epoch, int[] ownership) {
        Set<Integer> owners = new TreeSet<>(toList(ownership));
        List<Integer> silent = new ArrayList<>();
        for (int r : node.liveRanks()) {
            if (r != node.rankId() && owners.contains(r) && node.recoveryInbox().status(epoch, r) == null
                    && !statusOnBoard(node, epoch, r)) {
                silent.add(r);
            }
        }
        return silent.isEmpty() ? "" : " (no status from ranks " + silent + ": they did not stop to recover, stuck in"
                + " the kernel or paused; the coordinator waits for them)";
    }

    /** Whether {@code rank}'s status is on the board; false when the board cannot say (the timeout's own error wins). */
    private static boolean statusOnBoard(RecoveryView node, int epoch, int rank) {
        try {
            return node.control().get(STATUS_PREFIX + epoch + "/" + rank) != null;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * The newest directive after {@code afterEpoch} that arrived over the data plane, or with
     * {@code board}, the newest on the control board; null when there is none. A board entry whose
     * partition awaits its promoted owner counts as not there yet: the waiter checks its inbox meanwhile
     * and reads the board again later ({@link org.dfr.runtime.ControlBoard#getIfReachable}).
     */
    private static RecoveryDirective newestDirective(RecoveryView node, int afterEpoch, boolean board) {
        RecoveryInbox inbox = node.recoveryInbox();
        String json = board ? node.control().getIfReachable(DIRECTIVE_PREFIX + (afterEpoch + 1))
                : inbox.directive(afterEpoch + 1);
        if (json == null) {
            return null;
        }
        // a later round may already exist if this rank was slow: take the newest one
        int e = afterEpoch + 1;
        String newer;
        while ((newer = board ? node.control().getIfReachable(DIRECTIVE_PREFIX + (e + 1)) : inbox.directive(e + 1))
                != null) {
            json = newer;
            e++;
        }
        return read(json, RecoveryDirective.class);
    }

    /**
     * The coordinator's part: once every live active rank reported for {@code epoch}, decide, commit
     * the decision on the board, and send the committed directive to every live rank.
     *
     * @param readBoard whether to look on the board for statuses that did not come over the data plane
     * @return the committed directive, or null while statuses are missing (or when a member died while the copies
     *     the decision needs were checked: the next call decides again)
     */
    private RecoveryDirective coordinate(RecoveryView node, int epoch, RankRecoveryState state, boolean readBoard) {
        ControlBoard board = node.control();
        RecoveryInbox inbox = node.recoveryInbox();
        int[] ownership = currentOwnership(node, epoch, state);
        TreeSet<Integer> members = node.liveRanks();
        List<RankStatus> statuses = new ArrayList<>();
        Set<Integer> dead = new TreeSet<>();
        for (int r : new TreeSet<>(toList(ownership))) {
            if (!members.contains(r)) {
                dead.add(r);
                continue;
            }
            String json = inbox.status(epoch, r);
            if (json == null && readBoard) {
                json = board.get(STATUS_PREFIX + epoch + "/" + r);
            }
            if (json == null) {
                if (readBoard) {
                    // a rank that joined after the round began (a respawned one) missed its start (seed 86, trial 11)
                    node.communicator().remindRecovery(epoch, r);
                }
                LOG.debug("rank {} (coordinator): epoch {}: waiting for the status of rank {}", node.rankId(), epoch, r);
                return null; // not everybody reported yet
            }
            statuses.add(read(json, RankStatus.class));
        }
        if (awaitingRespawn(node, epoch, ownership, members, dead)) {
            return null; // fresh rank processes are starting in place of the dead: they adopt, not survivors
        }
        LOG.debug("rank {} (coordinator): epoch {}: all statuses in at {}", node.rankId(), epoch, System.currentTimeMillis());
        if (dead.isEmpty() && statuses.stream().allMatch(s -> s.invalidPartitions().isEmpty() && s.pendingTarget() < 0)) {
            // no owner lost: nothing is lost, so the ranks resume from the last iteration all computed (data-flow
            // rollback; global rollback reloads the committed checkpoint). A spare that died is no news worth a
            // warning (the run says so); a round without any member gone is a message that timed out
            TreeSet<Integer> gone = membersBefore(node, epoch + 1);
            gone.removeAll(members);
            if (gone.isEmpty()) {
                LOG.warn("rank {}: recovery round {} without a lost member (a message timed out): nothing to recompute",
                        node.rankId(), epoch);
            } else {
                LOG.info("rank {}: recovery round {}: ranks {} left owning no partition (spares): nothing to recompute",
                        node.rankId(), epoch, gone);
            }
        }
        RecoveryInput input = new RecoveryInput(epoch + 1, ownership, members, statuses, dead);
        input = input.withRankHosts(rankHosts(node, members, dead)).withRespawns(respawns(node, members));
        input = input.withCopyHolders(copyHolders(node, input));
        RecoveryDirective d;
        long decideStart = System.nanoTime();
        long checkStart = decideStart;
        try {
            d = strategy.decide(input);
            checkStart = System.nanoTime();
            LOG.debug("rank {} (coordinator): epoch {}: decided, checking the copies of checkpoint {}", node.rankId(),
                    epoch + 1, d.checkpointIteration());
            RecoveryDirective checked = checkCheckpointCopies(node, input, d);
            if (checked != d && !node.liveRanks().containsAll(members)) {
                // a copy the decision counted on went with a member that died while it was decided (its holder, as
                // a rule): decide again knowing that death, so that the fallback and its reason count it (campaign
                // seed 154, trial 425 replayed: one death "took every copy", the holder's came a moment later)
                TreeSet<Integer> died = new TreeSet<>(members);
                died.removeAll(node.liveRanks());
                LOG.info("rank {} (coordinator): epoch {}: ranks {} died while the recovery was decided: deciding again",
                        node.rankId(), epoch + 1, died);
                return null;
            }
            d = checked;
        } catch (RuntimeException e) {
            d = abort(input, "cannot decide a recovery: " + e.getMessage());
        }
        long publishStart = System.nanoTime();
        long decideMicros = (checkStart - decideStart) / 1_000;
        String mine = write(d);
        // the commit point: the first directive put for an epoch is the only one (see the class comment)
        LOG.debug("rank {} (coordinator): epoch {}: copies checked, committing", node.rankId(), epoch + 1);
        String committed = board.putIfAbsent(DIRECTIVE_PREFIX + d.epoch(), mine);
        long sendStart = System.nanoTime();
        Set<Integer> unreached = node.communicator().sendText(node.liveRanks(), MessageKind.DIRECTIVE, d.epoch(),
                node.rankId(), 0, committed);
        boolean published = committed.equals(mine);
        LOG.debug("rank {} (coordinator): epoch {}: decided in {} us, checked copies in {} ms, committed in {} ms, sent in {} us"
                        + " (unreached {}) at {}", node.rankId(), epoch + 1, decideMicros,
                TimeUnit.NANOSECONDS.toMillis(publishStart - checkStart),
                TimeUnit.NANOSECONDS.toMillis(sendStart - publishStart), (System.nanoTime() - sendStart) / 1_000,
                unreached, System.currentTimeMillis());
        if (published) {
            LOG.info("rank {} (coordinator): epoch {}: {} lost {} c={} t={} work={} adoptions={}", node.rankId(),
                    d.epoch(), d.effectiveStrategy(), d.lostPartitions(), d.checkpointIteration(),
                    d.failureIteration(), d.recomputedPartitionIterations(), d.adoptions());
            publishRecord(node, d, statuses);
        }
        return published ? d : read(committed, RecoveryDirective.class);
    }

    /**
     * With respawned replacements ({@link org.dfr.runtime.ClusterSettings#respawnWaitMillis} above 0):
     * whether the decision must wait because fewer ranks without partitions (the fresh processes the
     * launcher starts in place of the dead ones, which join as spares) are members than owners died.
     * After the wait, survivors adopt what no fresh rank can: the run goes on either way.
     */
    private boolean awaitingRespawn(RecoveryView node, int epoch, int[] ownership, Set<Integer> members,
                                    Set<Integer> dead) {
        long waitMillis = node.settings().respawnWaitMillis();
        if (waitMillis <= 0 || dead.isEmpty()) {
            return false;
        }
        Set<Integer> owners = new TreeSet<>(toList(ownership));
        long fresh = members.stream().filter(r -> !owners.contains(r)).count();
        if (fresh >= dead.size()) {
            return false;
        }
        long start = respawnWaitStart.computeIfAbsent(epoch, e -> System.nanoTime());
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        if (waited < waitMillis) {
            LOG.debug("rank {} (coordinator): epoch {}: {} of {} respawned ranks joined after {} ms", node.rankId(),
                    epoch, fresh, dead.size(), waited);
            return true;
        }
        LOG.warn("rank {} (coordinator): epoch {}: {} of {} respawned ranks joined within {} ms; survivors adopt the rest",
                node.rankId(), epoch, fresh, dead.size(), waitMillis);
        return false;
    }

    /** The ownership in force in {@code epoch}: that of its directive, which this rank holds if it ran it. */
    private static int[] currentOwnership(RecoveryView node, int epoch, RankRecoveryState state) {
        if (epoch == 0) {
            return node.ownership().toArray();
        }
        RecoveryDirective last = state.lastDirective;
        if (last != null && last.epoch() == epoch) {
            return last.ownershipArray();
        }
        String json = node.recoveryInbox().directive(epoch);
        if (json == null) {
            json = node.control().get(DIRECTIVE_PREFIX + epoch);
        }
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

    /**
     * Reads, in the background, whether the replicated copies of the dead ranks' partitions are
     * there, while the survivors are still stopping: such a read waits until Hazelcast has promoted
     * the backups of the dead member's partitions, and this way that wait overlaps the wait for the
     * statuses instead of following it in {@link #checkCheckpointCopies}.
     */
    private static void touchLostCopies(RecoveryView node, Set<Integer> live) {
        int c = node.committedCheckpoint();
        Ownership ownership = node.ownership();
        List<Integer> lost = new ArrayList<>();
        for (int p = 0; p < ownership.partitionCount(); p++) {
            if (!live.contains(ownership.ownerOf(p))) {
                lost.add(p);
            }
        }
        if (lost.isEmpty()) {
            return;
        }
        CompletableFuture.runAsync(() -> {
            for (int p : lost) {
                try {
                    node.checkpoints().hasReplicated(c, p);
                } catch (RuntimeException e) {
                    return; // only a head start: the coordinator checks again
                }
            }
        }, COPY_TOUCHER);
    }

    /**
     * Runs {@link #touchLostCopies}; daemons, so that a blocked read never holds the JVM, ending after a
     * second idle (a cached pool's minute outlived the runs: RuntimeIT finds no thread of a finished run).
     */
    private static final ExecutorService COPY_TOUCHER =
            new ThreadPoolExecutor(0, Integer.MAX_VALUE, 1, TimeUnit.SECONDS,
                    new SynchronousQueue<>(), r -> {
                        Thread t = new Thread(r, "dfr-recovery-copy-check");
                        t.setDaemon(true);
                        return t;
                    });

    /**
     * Partitions that must load from the replicated copy need one: otherwise the recovery falls back to an older state
     * it can read ({@link #fallBack}). These are the adopted ones and those whose live owner never loaded them
     * ({@link RecoveryInput#unloadedPartitions}); the others' owners read their own copy.
     */
    private RecoveryDirective checkCheckpointCopies(RecoveryView node, RecoveryInput input, RecoveryDirective d) {
        if (d.abortReason() != null || node.isStartingCheckpoint(d.checkpointIteration())) {
            // where the run started is rebuilt when no copy of it is left (DirectiveExecutor): campaign seed 137 lost
            // two trials to "no copy of checkpoint 0", after three deaths in the first iterations
            return d;
        }
        Set<Integer> needReplicated = new HashSet<>(input.unloadedPartitions());
        for (Adoption a : d.adoptions()) {
            needReplicated.add(a.partition());
        }
        // right after a loss the backups are being promoted and a copy can look absent for a moment:
        // a copy is gone only if it is still absent once every partition has a live owner again
        List<Integer> missing = missingCopies(node, input.statuses(), d.checkpointIteration(), needReplicated);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!missing.isEmpty() && System.nanoTime() < deadline) {
            boolean settled = node.partitionsOwnedByLiveMembers();
            node.control().awaitChange(node.control().version(), System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10));
            missing = missingCopies(node, input.statuses(), d.checkpointIteration(), needReplicated);
            if (settled) {
                break;
            }
        }
        if (missing.isEmpty()) {
            return d;
        }
        missing.sort(null);
        return fallBack(node, input, d, missing);
    }

    /**
     * Every copy of checkpoint {@code c} of the {@code missing} partitions died with their owners (more deaths at once
     * than the checkpoint has backups): the recovery is decided again from the newest state every partition can still
     * read, the newest complete file level at or before {@code c} ({@code --checkpoint-dir}), else where the run
     * started (rebuilt as the run built it). Its cone is larger, the result the same. A run without a file level
     * whose starting state cannot be rebuilt (a restart file removed) still fails when a rank reads it.
     */
    private RecoveryDirective fallBack(RecoveryView node, RecoveryInput input, RecoveryDirective d,
                                       List<Integer> missing) {
        int c = d.checkpointIteration();
        String lost = "no copy of checkpoint " + c + " is left for partitions " + missing + ": "
                + whyNoCopy(node, c, missing, d.deadRanks());
        int start = node.startingIteration();
        int fileLevel = node.newestFileLevel(c);
        RestoreSource source = fileLevel > start ? RestoreSource.FILE_LEVEL : RestoreSource.START;
        // both at or before c: the level is searched there, and c is not where the run started (checked above)
        int restored = source == RestoreSource.FILE_LEVEL ? fileLevel : start;
        RecoveryDirective older;
        try {
            older = strategy.decide(input.restoringCheckpoint(restored)).restoringFrom(source);
        } catch (RuntimeException e) {
            return d.aborted(RunFailedException.Kind.CHECKPOINT_LOST, lost + "; falling back to checkpoint " + restored
                    + " failed: " + e.getMessage());
        }
        LOG.warn("rank {} (coordinator): epoch {}: {}: restoring checkpoint {} from {} instead ({} partition-iterations"
                        + " to recompute instead of {})", node.rankId(), d.epoch(), lost, restored,
                source == RestoreSource.FILE_LEVEL ? "the file level" : "where the run started",
                older.recomputedPartitionIterations(), d.recomputedPartitionIterations());
        return older;
    }

    /**
     * Why the copies of checkpoint {@code c} of the {@code missing} partitions are gone, for the fallback's message:
     * the ranks their locators name as holders (the data-plane path; they may have died in an earlier round than this
     * one); else, with the map's backups, the members that died with the owners of this round.
     */
    private static String whyNoCopy(RecoveryView node, int c, List<Integer> missing, List<Integer> deadOwners) {
        TreeSet<Integer> holders = new TreeSet<>();
        try {
            for (int p : missing) {
                holders.addAll(node.checkpoints().copyHolders(c, p));
            }
        } catch (RuntimeException e) {
            holders.clear(); // the message says less, the decision is the same
        }
        if (!holders.isEmpty()) {
            return "no live rank serves one (their copies were on ranks " + holders + ")";
        }
        return "the members holding the replicated copy died together with ranks " + deadOwners;
    }

    /**
     * Who holds a copy of the restored checkpoint of each partition that will be adopted: the live ranks whose statuses
     * name one ({@link RankStatus#heldCopies}), else as the partition's locator says (nothing where the copies are the
     * map's backups, or the locator is not found): the strategy then prefers a holder as the adopter. The copy check
     * after the decision asks the statuses first too.
     */
    private static Map<Integer, List<Integer>> copyHolders(RecoveryView node, RecoveryInput input) {
        RecoveryFacts facts;
        try {
            facts = RecoveryFacts.of(input);
        } catch (RuntimeException e) {
            return Map.of(); // the strategy fails the same way, and says why
        }
        Map<Integer, List<Integer>> holders = new HashMap<>();
        try {
            for (Adoption a : facts.adoptions()) {
                List<Integer> ranks = reportedHolders(input.statuses(), input.members(), facts.checkpointIteration(),
                        a.partition());
                if (ranks.isEmpty()) {
                    ranks = node.checkpoints().copyHolders(facts.checkpointIteration(), a.partition());
                }
                if (!ranks.isEmpty()) {
                    holders.put(a.partition(), ranks);
                }
            }
        } catch (RuntimeException e) {
            // only a preference: the copy check after the decision reads the same locators and says what is wrong
            LOG.debug("rank {}: holders of the lost partitions' copies not read: {}", node.rankId(), e.toString());
        }
        return holders;
    }

    /** Every respawned member to the rank it was started in place of ({@code RunSpec#respawnedRank}). */
    private static Map<Integer, Integer> respawns(RecoveryView node, Set<Integer> members) {
        Map<Integer, Integer> predecessors = new HashMap<>();
        for (int r : members) {
            if (node.spec().isRespawned(r)) {
                predecessors.put(r, r - node.spec().memberCount());
            }
        }
        return predecessors;
    }

    /** The host of every member and dead owner, as the run's layout places them ({@code RunSpec#hostOf}). */
    private static Map<Integer, Integer> rankHosts(RecoveryView node, Set<Integer> members, Set<Integer> dead) {
        Map<Integer, Integer> hosts = new HashMap<>();
        for (int r : members) {
            hosts.put(r, node.spec().hostOf(r));
        }
        for (int r : dead) {
            hosts.put(r, node.spec().hostOf(r));
        }
        return hosts;
    }

    /**
     * The ranks among {@code members} whose statuses name a complete copy of checkpoint {@code c} of {@code partition}.
     * Read before any locator: a status is in hand, while a locator whose Hazelcast partition the dead member owned
     * waits for its backup to be promoted (74 ms in one run of session 47, the master commits promotions one member at
     * a time), and even a plain read is a round trip to a JVM that recovers on the same cores (about 30 ms of the
     * decision's inputs, session 48). A copy held under an older checkpoint (a state that did not change) is named
     * under that one: the locator finds it.
     */
    static List<Integer> reportedHolders(List<RankStatus> statuses, Set<Integer> members, int c, int partition) {
        return RankStatus.holdersOf(statuses, c, partition).stream().filter(members::contains).toList();
    }

    /**
     * The {@code partitions} without a copy of checkpoint {@code checkpoint} anywhere: no live rank named one in its
     * status, nor does a locator point at one.
     */
    private static List<Integer> missingCopies(RecoveryView node, List<RankStatus> statuses, int checkpoint,
                                               Set<Integer> partitions) {
        Set<Integer> live = node.liveRanks();
        List<Integer> missing = new ArrayList<>();
        for (int p : partitions) {
            if (reportedHolders(statuses, live, checkpoint, p).isEmpty()
                    && !node.checkpoints().hasReplicated(checkpoint, p)) {
                missing.add(p);
            }
        }
        return missing;
    }

    private static RecoveryDirective abort(RecoveryInput in, String reason) {
        List<Integer> own = toList(in.ownership());
        return new RecoveryDirective(in.nextEpoch(), null, null, List.of(), new ArrayList<>(in.deadRanks()), 0, 0, own,
                List.of(), List.of(), 0, List.of(), List.of(), new ArrayList<>(in.members()), false, reason,
                RunFailedException.Kind.OTHER, RestoreSource.COPIES);
    }

    private void publishRecord(RecoveryView node, RecoveryDirective d, List<RankStatus> statuses) {
        // detection: the first moment any survivor knew, by its own membership event or a failed message
        long detectedAt = Long.MAX_VALUE;
        // and what told the first survivor that found a death itself (one that stopped for a peer's announcement
        // or a failed message found none)
        long foundAt = Long.MAX_VALUE;
        Detector detectedBy = null;
        TreeSet<Integer> left = new TreeSet<>();
        for (Membership.MemberLoss loss : node.drainLosses()) {
            detectedAt = Math.min(detectedAt, loss.observedAtMillis());
            left.add(loss.rank());
            if (loss.observedAtMillis() < foundAt) {
                foundAt = loss.observedAtMillis();
                detectedBy = loss.detectedBy();
            }
        }
        for (RankStatus s : statuses) {
            detectedAt = Math.min(detectedAt, s.stoppedAtMillis());
            if (s.detectedBy() != null && s.stoppedAtMillis() < foundAt) {
                foundAt = s.stoppedAtMillis();
                detectedBy = s.detectedBy();
            }
        }
        RecoveryRecord decided = RecoveryRecord.decided(d, detectedAt == Long.MAX_VALUE ? null : detectedAt,
                detectedBy, System.currentTimeMillis());
        // off the critical path: the directive is out, the ranks must not wait for the record
        stateOf(node).writeInBackground(() -> {
            RecoveryRecord record = decided;
            if (d.deadRanks().isEmpty()) {
                // the directive names the dead that owned partitions: a round started by the loss of a spare without
                // partitions alone recomputes nothing, and its record said "ranks [] died". The loss queue was
                // drained when the round began, so the dead come from the membership: the members of the previous
                // decision (all ranks before the first) that this one no longer has
                TreeSet<Integer> gone = membersBefore(node, d.epoch());
                gone.removeAll(d.members());
                gone.addAll(left);
                record = record.withDeadRanks(new ArrayList<>(gone));
            }
            node.control().put(ResultCollector.RECOVERY_PREFIX + d.epoch(), record.toJson());
            restoreLostRecords(node, d.epoch());
        });
    }

    /** The members of the decision before {@code epoch}'s: every rank of the run before the first; none when unknown. */
    private static TreeSet<Integer> membersBefore(RecoveryView node, int epoch) {
        TreeSet<Integer> members = new TreeSet<>();
        if (epoch <= 1) {
            for (int r = 0; r < node.spec().memberCount(); r++) {
                members.add(r);
            }
            return members;
        }
        String previous = node.control().get(DIRECTIVE_PREFIX + (epoch - 1));
        if (previous != null) {
            members.addAll(read(previous, RecoveryDirective.class).members());
        }
        return members;
    }

    /**
     * Writes the record of every earlier recovery whose coordinator died before its own background write landed
     * (a death during that recovery; the report lost a whole recovery in 1 of 3 such runs), from its directive on
     * the board. Its times are unknown; {@code putIfAbsent}, so a late original is not overwritten.
     */
    private static void restoreLostRecords(RecoveryView node, int epoch) {
        for (int e = 1; e < epoch; e++) {
            if (node.control().get(ResultCollector.RECOVERY_PREFIX + e) != null) {
                continue;
            }
            String directive = node.control().get(DIRECTIVE_PREFIX + e);
            if (directive != null) {
                node.control().putIfAbsent(ResultCollector.RECOVERY_PREFIX + e,
                        RecoveryRecord.withoutTimes(read(directive, RecoveryDirective.class)).toJson());
                LOG.info("rank {}: the record of recovery {} was missing (its coordinator died): rebuilt from its"
                        + " directive, without its times", node.rankId(), e);
            }
        }
    }

    /**
     * Called by the root after the resume barrier: the end of the recovery, under its own key (the
     * result collector merges it into the record), written in the background.
     */
    static void recordResumed(RecoveryView node, RecoveryDirective d, long recomputeMillis, RankRecoveryState state) {
        String key = ResultCollector.RESUMED_PREFIX + d.epoch();
        String value = System.currentTimeMillis() + "," + recomputeMillis;
        state.writeInBackground(() -> node.control().put(key, value));
    }

    @Override
    public void flush(RecoveryView rank) {
        stateOf(rank).awaitBackgroundWrites(BACKGROUND_WRITES_TIMEOUT_MILLIS);
    }

    /** Bound of {@link #flush}: a board write blocked that long means the run is failing anyway. */
    static final long BACKGROUND_WRITES_TIMEOUT_MILLIS = 60_000;

    /**
     * One writer thread for the records of every rank in this JVM, in submission order; it ends after a
     * second without work, so that nothing of a finished run outlives it (a new one starts with the next write).
     */
    private static final ExecutorService RECORD_WRITER =
            new ThreadPoolExecutor(0, 1, 1, TimeUnit.SECONDS,
                    new LinkedBlockingQueue<>(), r -> {
                        Thread t = new Thread(r, "dfr-recovery-records");
                        t.setDaemon(true);
                        return t;
                    });

    static String write(Object value) {
        return ProtocolJson.write(value);
    }

    static <T> T read(String json, Class<T> type) {
        return ProtocolJson.read(json, type);
    }

    /** Per-rank memory of the recovery: which owned partitions hold no usable live state. */
    static final class RankRecoveryState {
        /** Owned partitions whose state was loaded (or reloaded) and is not yet recomputed to where the run stands. */
        private final TreeSet<Integer> invalid = new TreeSet<>();
        /**
         * Partitions a directive gave this rank that it has not loaded yet: neither held nor invalid in its status, so
         * the coordinator knows that their owner has no copy of their checkpoint of its own.
         */
        private final TreeSet<Integer> unloaded = new TreeSet<>();

        /** The invalid partitions, for this rank's status. */
        List<Integer> invalidPartitions() {
            return new ArrayList<>(invalid);
        }

        /** Whether this rank holds {@code p}'s live state: neither invalid nor unloaded. */
        boolean holds(int p) {
            return !invalid.contains(p) && !unloaded.contains(p);
        }

        /** {@code p} was given to this rank by a directive: unloaded until {@link #loaded}. */
        void given(int p) {
            unloaded.add(p);
        }

        /** {@code p}'s state is to be reloaded: invalid until recomputed (an unloaded one becomes so once loaded). */
        void reloading(int p) {
            if (!unloaded.contains(p)) {
                invalid.add(p);
            }
        }

        /** {@code p}'s checkpoint was read: an unloaded partition is now invalid, until recomputed. */
        void loaded(int p) {
            if (unloaded.remove(p)) {
                invalid.add(p);
            }
        }

        /** The recovery completed: every owned partition holds its state again. */
        void recovered() {
            invalid.clear();
            unloaded.clear();
        }
        /** Ranks whose death an executed directive accounted for: their late loss records are no news. */
        final Set<Integer> accountedDead = new HashSet<>();
        /** The last directive this rank took up (its ownership is the one in force when it fails). */
        volatile RecoveryDirective lastDirective;
        int pendingTarget = -1;
        /** Time this rank spent loading the checkpoints of partitions it adopted, in the current round. */
        long replacementNanos;
        /** The board writes this rank left to the background, in order. */
        private CompletableFuture<Void> backgroundWrites =
                CompletableFuture.completedFuture(null);

        /** Runs a board write on the record writer, after this rank's earlier ones. */
        synchronized void writeInBackground(Runnable write) {
            backgroundWrites = backgroundWrites.thenRunAsync(() -> {
                try {
                    write.run();
                } catch (HazelcastInstanceNotActiveException e) {
                    // this member was killed: the next coordinator rebuilds a lost record from its directive
                    LOG.debug("a recovery record was not written, this member is gone: {}", e.toString());
                } catch (RuntimeException e) {
                    LOG.warn("a recovery record could not be written: {}", e.toString());
                }
            }, RECORD_WRITER);
        }

        /** Waits for this rank's background writes, at most {@code timeoutMillis}. */
        void awaitBackgroundWrites(long timeoutMillis) {
            CompletableFuture<Void> pending;
            synchronized (this) {
                pending = backgroundWrites;
            }
            try {
                pending.get(timeoutMillis, TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                LOG.warn("recovery records still unwritten after {} ms: {}", timeoutMillis, e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
