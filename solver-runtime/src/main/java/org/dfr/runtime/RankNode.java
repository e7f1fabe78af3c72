package org.dfr.runtime;

import com.hazelcast.cluster.ClusterState;
import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.dfr.analysis.PartitionDependencies;
import org.dfr.runtime.net.DataPlane;
import org.dfr.runtime.net.Mailbox;
import org.dfr.runtime.net.MessageKey;
import org.dfr.runtime.net.MessageKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One rank: a Hazelcast member that owns partitions and runs the iteration loop on them.
 *
 * <p>Per iteration {@code i}: halos of state {@code i-1} go to the owners of the consuming
 * partitions, every owned partition is updated into its second buffer, a checkpoint is written when
 * {@code i} is a checkpoint iteration, the residual contributions are summed through the lowest
 * active rank and the sum sent back (which is also the barrier that commits the checkpoint), and the
 * buffers swap. Until the swap the previous state stays intact, which is what lets survivors fall
 * back to the state before a failure.
 *
 * <p>The halos of iteration {@code i+1} leave as soon as this rank's contribution to the reduction
 * of {@code i} is sent, before it waits for the sum: when the sum arrives the neighbours' halos are
 * usually there too, so a rank wakes once per iteration instead of twice. It changes nothing a
 * recovery sees: the state those halos carry is already computed, and they carry the epoch. The
 * hook can forbid it for an iteration ({@link IterationHook#mayStartEarly}).
 *
 * <p>Thread model: {@link #run()} runs on the rank's own thread; membership events arrive on
 * Hazelcast's event threads and only interrupt waits.
 */
public final class RankNode implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RankNode.class);

    /** Control-board key set once every active rank has published its final state. */
    public static final String ENDED_KEY = "ended";
    /**
     * Control-board key of the last committed checkpoint, {@code "epoch:iteration"}, written once every
     * rank is known to have written every partition of it.
     */
    public static final String COMMITTED_CHECKPOINT_KEY = "checkpoint/committed";
    /**
     * Control-board key of the iteration whose global residual was below the run's tolerance, written
     * by the reduction's root before it sends that sum: a rank that missed the sum (an adopter that
     * recomputed up to it) learns there that the run ends.
     */
    public static final String CONVERGED_KEY = "converged";
    /** Control-board key holding the reason the run failed, when it did. */
    public static final String FAILED_KEY = "failed";

    private final int rankId;
    private final RunSpec spec;
    private final PartitionKernel kernel;
    private final ClusterSettings settings;
    private final FailureHandler failureHandler;
    private final IterationHook hook;
    private final int[][] inputs;
    private final int[][] consumers;
    private final Mailbox mailbox = new Mailbox();
    private final DataPlane dataPlane;
    private final HazelcastInstance hazelcast;
    private final PromotionRetry promotionRetry;
    private final BackupRepair backupRepair;
    private final CheckpointStore checkpoints;
    private final ControlBoard control;
    private final ConcurrentLinkedQueue<MemberLoss> losses = new ConcurrentLinkedQueue<>();
    private final Map<Integer, Member> membersByRank = new ConcurrentHashMap<>();

    private final Set<Integer> knownDead = ConcurrentHashMap.newKeySet();
    private volatile int[] owner;
    /** Distinct owners of {@link #owner}, ascending; derived once per ownership change, read every iteration. */
    private volatile int[] activeRanks;
    private final TreeMap<Integer, double[][]> buffers = new TreeMap<>();
    private int liveIteration;
    private int computedIteration;
    private int committedCheckpoint = -1;
    private double lastResidual = Double.NaN;
    /** The last iteration of the run: {@code spec.iterations()} or, once converged, the converged iteration. */
    private int lastIteration;
    /** Iteration and epoch whose halos this rank already sent, ahead of its start. */
    private int halosSentIteration = -1;
    private int halosSentEpoch = -1;
    private volatile boolean finished;
    private volatile boolean inRecovery;
    private volatile boolean killed;

    private long loopNanos;
    private long checkpointNanos;
    private int checkpointCount;
    private final AtomicLong kernelUpdates = new AtomicLong();
    private final AtomicLong kernelUpdatesDuringRecovery = new AtomicLong();

    /** A member that left, and when this rank learnt of it. */
    public record MemberLoss(int rank, long observedAtMillis) {
    }

    private RankNode(int rankId, RunSpec spec, PartitionKernel kernel, ClusterSettings settings,
                     FailureHandler failureHandler, IterationHook hook) {
        this.rankId = rankId;
        this.spec = spec;
        this.kernel = kernel;
        this.settings = settings;
        this.failureHandler = failureHandler;
        this.hook = hook;
        PartitionDependencies deps = kernel.dependencies();
        if (deps.partitionCount() != spec.partitionCount()) {
            throw new IllegalArgumentException("kernel declares " + deps.partitionCount()
                    + " partitions but the run expects " + spec.partitionCount());
        }
        int n = deps.partitionCount();
        this.inputs = new int[n][];
        for (int p = 0; p < n; p++) {
            inputs[p] = deps.inputsOf(p);
        }
        this.consumers = deps.consumers();
        int[] initialOwner = new int[n];
        for (int p = 0; p < n; p++) {
            initialOwner[p] = p;
        }
        this.owner = initialOwner;
        this.lastIteration = spec.iterations();
        this.activeRanks = distinctOwners(initialOwner);
        try {
            this.dataPlane = new DataPlane(settings.clusterName(), rankId, mailbox, this::dataAddressOf);
        } catch (IOException e) {
            throw new UncheckedIOException("rank " + rankId + ": cannot open its data-plane socket", e);
        }
        HazelcastInstance hz;
        try {
            hz = Hazelcast.newHazelcastInstance(
                    HazelcastConfigs.member(settings, rankId, dataPlane.port(), spec.memberCount(),
                            spec.hostOf(rankId), spec.hostCount()));
        } catch (RuntimeException e) {
            dataPlane.close();
            throw e;
        }
        this.hazelcast = hz;
        this.promotionRetry = new PromotionRetry(hz, PromotionRetry.DEFAULT_MAX_WAIT_MILLIS);
        this.backupRepair = new BackupRepair(hz, "dfr-rank" + rankId + "-backup-repair");
        IMap<String, byte[]> ckptMap = hz.getMap(HazelcastConfigs.CHECKPOINT_MAP);
        this.checkpoints = new CheckpointStore(ckptMap, promotionRetry,
                new LocalPartitionKey(hz.getPartitionService())::current);
        IMap<String, String> controlMap = hz.getMap(HazelcastConfigs.CONTROL_MAP);
        this.control = new ControlBoard(controlMap, promotionRetry);
        for (Member m : hz.getCluster().getMembers()) {
            rememberMember(m);
        }
        hz.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                rememberMember(event.getMember());
                control.bump();
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                onMemberRemoved(event.getMember());
            }
        });
        if (!isSpare()) {
            buffers.put(rankId, new double[][] {kernel.initialState(rankId), kernel.initialState(rankId)});
        }
    }

    /**
     * Starts a member for {@code rankId} and returns once the whole cluster ({@link RunSpec#memberCount()}
     * members) has formed.
     */
    public static RankNode start(int rankId, RunSpec spec, PartitionKernel kernel, ClusterSettings settings,
                                 FailureHandler failureHandler, IterationHook hook) {
        return new RankNode(rankId, spec, kernel, settings, failureHandler, hook);
    }

    /**
     * Waits until this member sees {@code size} members.
     *
     * @throws RunFailedException if that does not happen within the timeout
     */
    public void awaitClusterSize(int size, long timeoutMillis) {
        awaitCondition(() -> hazelcast.getCluster().getMembers().size() >= size, timeoutMillis, 50,
                () -> "rank " + rankId + " sees " + hazelcast.getCluster().getMembers().size()
                        + " of " + size + " members after " + timeoutMillis + " ms");
        for (Member m : hazelcast.getCluster().getMembers()) {
            rememberMember(m);
        }
    }

    /**
     * Waits until every Hazelcast partition has its owner and backup in place: a member loss right
     * after start-up must not lose checkpoint data (migrations after the joins are asynchronous).
     */
    public void awaitClusterSafe(long timeoutMillis) {
        // partitions are assigned on first use; until then the cluster counts as safe
        hazelcast.getPartitionService().getPartitions().forEach(p -> p.getOwner());
        awaitCondition(() -> hazelcast.getPartitionService().isClusterSafe(), timeoutMillis, 20,
                () -> "rank " + rankId + ": the cluster did not reach a safe state (all backups in place) within "
                        + timeoutMillis + " ms");
    }

    /**
     * Stops Hazelcast from rebalancing partitions for the rest of the run (cluster state
     * {@link ClusterState#NO_MIGRATION}), once every partition has its owner and backups in place.
     * Called by one member after the cluster formed.
     *
     * <p>Why: after a member loss, Hazelcast promotes the backups of its partitions at once (no data
     * moves), then migrates replicas to restore the backup count. While a partition migrates, every
     * operation on it is retried with back-off, so the recovery's control-board writes and checkpoint
     * reads waited for the whole repartitioning (0.7-1.2 s measured with 8 rank processes) although the
     * promoted copies were already there. With migrations held, promotion still happens, and the
     * checkpoint copies that remain (two synchronous backups, on other hosts) are what recovery reads;
     * {@link BackupRepair} restores the backup count once the recovery has resumed.
     *
     * @throws RunFailedException if the cluster does not reach a safe state or refuses the change
     */
    public void holdMigrations(long timeoutMillis) {
        awaitClusterSafe(timeoutMillis);
        try {
            hazelcast.getCluster().changeClusterState(ClusterState.NO_MIGRATION);
        } catch (RuntimeException e) {
            throw new RunFailedException("rank " + rankId + ": could not stop partition migrations for the run: " + e);
        }
    }

    /**
     * Waits until {@link #holdMigrations} took effect on this member.
     *
     * @throws RunFailedException if it does not within the timeout
     */
    public void awaitMigrationsHeld(long timeoutMillis) {
        awaitCondition(() -> hazelcast.getCluster().getClusterState() == ClusterState.NO_MIGRATION, timeoutMillis, 10,
                () -> "rank " + rankId + ": partition migrations were not stopped within " + timeoutMillis
                        + " ms (cluster state " + hazelcast.getCluster().getClusterState() + ")");
    }

    /**
     * {@link #pollUntil}, failing the run with {@code failure}'s message when the time is up.
     *
     * @throws RunFailedException once {@code timeoutMillis} passed without the condition
     */
    private void awaitCondition(BooleanSupplier condition, long timeoutMillis, long pollMillis,
                                Supplier<String> failure) {
        if (!pollUntil(condition, timeoutMillis, pollMillis)) {
            throw new RunFailedException(failure.get());
        }
    }

    /**
     * Re-checks {@code condition} whenever the control board changes (a member event bumps it too),
     * and at least every {@code pollMillis}: cluster state, membership and partition safety change
     * without a board entry.
     *
     * @return whether the condition held before {@code timeoutMillis} passed
     */
    private boolean pollUntil(BooleanSupplier condition, long timeoutMillis, long pollMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        long pollNanos = TimeUnit.MILLISECONDS.toNanos(pollMillis);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            control.awaitChange(control.version(), Math.min(deadline, System.nanoTime() + pollNanos));
        }
        return true;
    }

    /**
     * Whether every Hazelcast partition has an owner that is a current member: right after a loss,
     * until the backups of the dead member's partitions are promoted, a read may not see a copy
     * that is there.
     */
    public boolean partitionsOwnedByLiveMembers() {
        Set<Member> members = hazelcast.getCluster().getMembers();
        for (com.hazelcast.partition.Partition p : hazelcast.getPartitionService().getPartitions()) {
            Member owner = p.getOwner();
            if (owner == null || !members.contains(owner)) {
                return false;
            }
        }
        return true;
    }

    private void rememberMember(Member m) {
        String rank = m.getAttribute(HazelcastConfigs.RANK_ATTRIBUTE);
        if (rank != null) {
            membersByRank.put(Integer.parseInt(rank), m);
        }
    }

    private void onMemberRemoved(Member m) {
        String attr = m.getAttribute(HazelcastConfigs.RANK_ATTRIBUTE);
        if (attr == null) {
            return;
        }
        int rank = Integer.parseInt(attr);
        membersByRank.remove(rank);
        dataPlane.forget(rank);
        if (finished || knownDead.contains(rank)) {
            return;
        }
        losses.add(new MemberLoss(rank, System.currentTimeMillis()));
        LOG.info("rank {}: member of rank {} left the cluster", rankId, rank);
        mailbox.interruptEpoch("rank " + rank + " left the cluster");
        control.bump();
    }

    private InetSocketAddress dataAddressOf(int rank) {
        Member m = membersByRank.get(rank);
        if (m == null) {
            return null;
        }
        return new InetSocketAddress(InetAddress.getLoopbackAddress(),
                Integer.parseInt(m.getAttribute(HazelcastConfigs.DATA_PORT_ATTRIBUTE)));
    }

    // ------------------------------------------------------------------ the loop

    /** Runs this rank to the end of the run (or until it is killed). */
    public void run() {
        try {
            int next;
            if (isSpare()) {
                next = failureHandler.awaitWork(this);
                if (next < 0) {
                    finished = true;
                    return;
                }
            } else {
                next = startFromInitialCheckpoint();
            }
            long loopStart = System.nanoTime();
            while (true) {
                next = iterateFrom(next);
                loopNanos = System.nanoTime() - loopStart;
                try {
                    publishFinalState();
                    break;
                } catch (org.dfr.runtime.net.EpochChangedException | org.dfr.runtime.net.CommunicationException e) {
                    next = failureHandler.recover(this, e);
                }
            }
        } catch (RankKilledException e) {
            LOG.info("rank {}: killed", rankId);
        }
    }

    private int startFromInitialCheckpoint() {
        while (true) {
            try {
                writeCheckpoint(0, true);
                allreduce(0, new TreeMap<>());
                commitCheckpoint(0);
                return 1;
            } catch (org.dfr.runtime.net.EpochChangedException | org.dfr.runtime.net.CommunicationException e) {
                int next = failureHandler.recover(this, e);
                if (next >= 1) {
                    return next;
                }
            }
        }
    }

    private int iterateFrom(int first) {
        int i = first;
        learnConvergence();
        while (i <= lastIteration) {
            try {
                runIteration(i);
                i++;
            } catch (org.dfr.runtime.net.EpochChangedException | org.dfr.runtime.net.CommunicationException e) {
                i = failureHandler.recover(this, e);
                learnConvergence();
            }
        }
        return i;
    }

    /**
     * After a recovery (or a spare's adoption) this rank may not have seen the sum that ended the run:
     * the root recorded the converged iteration on the control board before it sent that sum.
     */
    private void learnConvergence() {
        if (spec.hasTolerance() && lastIteration == spec.iterations()) {
            String converged = control.get(CONVERGED_KEY);
            if (converged != null) {
                lastIteration = Math.min(lastIteration, Integer.parseInt(converged));
            }
        }
    }

    /**
     * The iteration the run ends with: {@link RunSpec#iterations()}, or the first whose global residual
     * fell below the tolerance.
     */
    public int lastIteration() {
        return lastIteration;
    }

    /** Runs one full iteration (halos, update, checkpoint when due, reduction, swap). */
    public void runIteration(int i) {
        checkAlive();
        int epoch = mailbox.epoch();
        if (halosSentIteration != i || halosSentEpoch != epoch) {
            startIteration(epoch, i, 0);
        }
        for (Map.Entry<Integer, double[][]> e : buffers.entrySet()) {
            receiveHalos(MessageKind.HALO, epoch, i, e.getKey(), e.getValue()[0]);
        }
        TreeMap<Integer, Double> partials = new TreeMap<>();
        for (Map.Entry<Integer, double[][]> e : buffers.entrySet()) {
            double[][] b = e.getValue();
            partials.put(e.getKey(), kernel.update(e.getKey(), b[0], b[1]));
            countUpdate();
        }
        computedIteration = i;
        boolean checkpoint = spec.isCheckpointIteration(i);
        if (checkpoint) {
            writeCheckpoint(i, false);
            hook.afterCheckpointWrite(this, i);
        }
        // with a convergence test nobody knows before the sum whether i+1 runs at all
        double residual = allreduce(i, partials, () -> {
            if (i < spec.iterations() && !spec.hasTolerance() && hook.mayStartEarly(this, i + 1)) {
                startIteration(epoch, i + 1, 1);
            }
        });
        for (double[][] b : buffers.values()) {
            double[] t = b[0];
            b[0] = b[1];
            b[1] = t;
        }
        liveIteration = i;
        lastResidual = residual;
        if (checkpoint) {
            commitCheckpoint(i);
        }
        if (spec.converged(residual)) {
            lastIteration = i;
        }
    }

    /**
     * Begins iteration {@code i}: the hook, then the halos of state {@code i-1}, which buffer
     * {@code stateBuffer} of every owned partition holds (0 once swapped, 1 while the reduction of
     * {@code i-1} is still pending).
     */
    private void startIteration(int epoch, int i, int stateBuffer) {
        hook.beforeIteration(this, i);
        checkAlive();
        for (Map.Entry<Integer, double[][]> e : buffers.entrySet()) {
            sendHalos(MessageKind.HALO, epoch, i, e.getKey(), e.getValue()[stateBuffer]);
        }
        halosSentIteration = i;
        halosSentEpoch = epoch;
    }

    private void writeCheckpoint(int iteration, boolean fromLive) {
        long start = System.nanoTime();
        checkpointCount++;
        for (Map.Entry<Integer, double[][]> e : buffers.entrySet()) {
            int p = e.getKey();
            double[] state = fromLive ? e.getValue()[0] : e.getValue()[1];
            checkpoints.write(iteration, p, state);
        }
        checkpointNanos += System.nanoTime() - start;
    }

    /** Called once every rank is known to have written checkpoint {@code iteration}. */
    private void commitCheckpoint(int iteration) {
        committedCheckpoint = iteration;
        if (rankId == activeRanks()[0]) {
            // the epoch marker: every rank's reduction message of this iteration came after its write
            control.put(COMMITTED_CHECKPOINT_KEY, mailbox.epoch() + ":" + iteration);
        }
        checkpoints.dropOlderThan(iteration, ownedPartitions());
    }

    // ------------------------------------------------------------------ communication primitives

    /**
     * Sends the halos of partition {@code from} (state {@code state}) to the owners of every
     * partition that consumes it.
     */
    public void sendHalos(MessageKind kind, int epoch, int iteration, int from, double[] state) {
        sendHalos(kind, epoch, iteration, from, state, consumers[from]);
    }

    /** Sends the halos of {@code from} to the given consumers only. */
    public void sendHalos(MessageKind kind, int epoch, int iteration, int from, double[] state, int[] to) {
        int[] own = owner;
        for (int c : to) {
            double[] halo = new double[kernel.haloLength(from, c)];
            kernel.packHalo(from, state, c, halo);
            dataPlane.send(own[c], new MessageKey(epoch, kind, iteration, from, c), halo);
        }
    }

    /** Receives every halo partition {@code to} needs for {@code iteration} and unpacks it. */
    public void receiveHalos(MessageKind kind, int epoch, int iteration, int to, double[] state) {
        for (int q : inputs[to]) {
            if (q != to) {
                receiveHalo(kind, epoch, iteration, q, to, state);
            }
        }
    }

    /** Receives one halo and unpacks it into {@code state}. */
    public void receiveHalo(MessageKind kind, int epoch, int iteration, int from, int to, double[] state) {
        double[] halo = mailbox.take(new MessageKey(epoch, kind, iteration, from, to), settings.messageTimeoutMillis());
        kernel.unpackHalo(to, state, from, halo);
    }

    /**
     * Sums the residual contributions of every active rank and returns the global sum, added in
     * partition order so that every rank gets the same bits.
     *
     * <p>Gather and broadcast through the lowest active rank (the root): the others send it their
     * contributions and wait for the sum. When a rank has the sum, every active rank has finished
     * the iteration up to its contribution, checkpoint write included, so this is also the barrier
     * that commits a checkpoint. {@code 2(n-1)} messages instead of the {@code n(n-1)} of an
     * all-to-all exchange: with 8 rank processes on 2 cores, 6 % more cell updates per second
     * (measured, docs/bench.md).
     */
    public double allreduce(int iteration, TreeMap<Integer, Double> partials) {
        return allreduce(iteration, partials, () -> { });
    }

    /**
     * {@link #allreduce(int, TreeMap)}, running {@code whileWaiting} once this rank's contribution
     * is sent and before it waits for the others.
     */
    private double allreduce(int iteration, TreeMap<Integer, Double> partials, Runnable whileWaiting) {
        int epoch = mailbox.epoch();
        int[] ranks = activeRanks;
        int root = ranks[0];
        if (rankId != root) {
            double[] payload = new double[partials.size() * 2];
            int k = 0;
            for (Map.Entry<Integer, Double> e : partials.entrySet()) {
                payload[k++] = e.getKey();
                payload[k++] = e.getValue();
            }
            dataPlane.send(root, new MessageKey(epoch, MessageKind.PARTIAL, iteration, rankId, 0), payload);
            hook.afterPartialSent(this, iteration);
            whileWaiting.run();
            return mailbox.take(new MessageKey(epoch, MessageKind.REDUCED, iteration, root, rankId),
                    settings.messageTimeoutMillis())[0];
        }
        hook.afterPartialSent(this, iteration);
        whileWaiting.run();
        double[] byPartition = new double[spec.partitionCount()];
        for (Map.Entry<Integer, Double> e : partials.entrySet()) {
            byPartition[e.getKey()] = e.getValue();
        }
        for (int r : ranks) {
            if (r != rankId) {
                double[] got = mailbox.take(new MessageKey(epoch, MessageKind.PARTIAL, iteration, r, 0),
                        settings.messageTimeoutMillis());
                for (int j = 0; j + 1 < got.length; j += 2) {
                    byPartition[(int) got[j]] = got[j + 1];
                }
            }
        }
        double sum = 0;
        for (double v : byPartition) {
            sum += v;
        }
        if (spec.converged(sum) && iteration > 0) {
            control.putIfAbsent(CONVERGED_KEY, Integer.toString(iteration));
        }
        double[] reduced = {sum};
        for (int r : ranks) {
            if (r != rankId) {
                dataPlane.send(r, new MessageKey(epoch, MessageKind.REDUCED, iteration, rankId, r), reduced);
            }
        }
        return sum;
    }

    /**
     * Tells every other live active rank that this rank entered a recovery in the current epoch, so
     * that they stop and report without waiting for their own membership event. Best effort: a peer
     * that cannot be reached is dead or will learn it from Hazelcast.
     */
    public void announceRecovery() {
        int epoch = mailbox.epoch();
        TreeSet<Integer> live = liveRanks();
        double[] empty = new double[0];
        for (int r : activeRanks()) {
            if (r != rankId && live.contains(r)) {
                try {
                    dataPlane.send(r, new MessageKey(epoch, MessageKind.RECOVERY_START, 0, rankId, 0), empty);
                } catch (org.dfr.runtime.net.CommunicationException e) {
                    LOG.debug("rank {}: cannot announce the recovery to rank {}: {}", rankId, r, e.getMessage());
                }
            }
        }
    }

    /** All-to-all barrier among the given ranks in the current epoch. */
    public void barrier(MessageKind kind, int iteration, int[] ranks) {
        int epoch = mailbox.epoch();
        double[] empty = new double[0];
        for (int r : ranks) {
            if (r != rankId) {
                dataPlane.send(r, new MessageKey(epoch, kind, iteration, rankId, 0), empty);
            }
        }
        for (int r : ranks) {
            if (r != rankId) {
                mailbox.take(new MessageKey(epoch, kind, iteration, r, 0), settings.messageTimeoutMillis());
            }
        }
    }

    private void publishFinalState() {
        IMap<Integer, byte[]> finals = hazelcast.getMap(HazelcastConfigs.FINAL_STATE_MAP);
        for (Map.Entry<Integer, double[][]> e : buffers.entrySet()) {
            byte[] bytes = Doubles.toBytes(e.getValue()[0]);
            promotionRetry.run(() -> finals.set(e.getKey(), bytes));
        }
        IMap<Integer, String> stats = hazelcast.getMap(HazelcastConfigs.STATS_MAP);
        String encoded = stats().encode();
        promotionRetry.run(() -> stats.set(rankId, encoded));
        barrier(MessageKind.END_BARRIER, spec.iterations() + 1, activeRanks());
        finished = true;
        control.put(ENDED_KEY, Double.toString(lastResidual));
    }

    /**
     * Blocks until the run ended (a spare that was never needed) and returns -1.
     */
    public int awaitRunEnd() {
        long deadline = System.nanoTime() + TimeUnit.DAYS.toNanos(1);
        while (System.nanoTime() < deadline) {
            long seen = control.version();
            if (control.get(ENDED_KEY) != null || control.get(FAILED_KEY) != null) {
                finished = true;
                return -1;
            }
            control.awaitChange(seen, deadline);
            checkAlive();
        }
        return -1;
    }

    /**
     * The rank that reads the run's results once it has ended: the lowest active rank. Every rank
     * knows it from the ownership all of them agreed on, so no race with members leaving decides it.
     * (It used to be the oldest member: a slow rank could then find the collector and the next
     * oldest gone already, take itself for the oldest, and collect again from maps whose owners were
     * leaving, which failed a correct run with "final state ... is missing".)
     */
    public int collectorRank() {
        return activeRanks[0];
    }

    /** Whether this rank is the {@link #collectorRank collector}. */
    public boolean isCollector() {
        return rankId == collectorRank();
    }

    /**
     * Waits until the {@link #collectorRank collector} has left the cluster: it leaves only after it
     * has read every rank's results, so from then on this rank loses nothing by leaving. (If it dies
     * instead, its launcher reports that.) Deliberately no control-board read: an entry may live in a
     * partition the collector owned, and reading it races with every rank leaving at once, when
     * promotions can stall.
     *
     * @return false if the collector is still a member after the timeout
     */
    public boolean awaitCollected(long timeoutMillis) {
        int collector = collectorRank();
        return pollUntil(() -> !liveRanks().contains(collector), timeoutMillis, 50);
    }

    // ------------------------------------------------------------------ state access for recovery

    public int rankId() {
        return rankId;
    }

    public RunSpec spec() {
        return spec;
    }

    public PartitionKernel kernel() {
        return kernel;
    }

    public ClusterSettings settings() {
        return settings;
    }

    /** Restores the backups a loss took, between recoveries (see {@link BackupRepair}). */
    public BackupRepair backupRepair() {
        return backupRepair;
    }

    /** Wraps operations on the cluster's partitioned maps (see {@link PromotionRetry}). */
    public PromotionRetry promotionRetry() {
        return promotionRetry;
    }

    public HazelcastInstance hazelcast() {
        return hazelcast;
    }

    public Mailbox mailbox() {
        return mailbox;
    }

    public CheckpointStore checkpoints() {
        return checkpoints;
    }

    public ControlBoard control() {
        return control;
    }

    public IterationHook hook() {
        return hook;
    }

    public int[] inputsOf(int partition) {
        return inputs[partition];
    }

    public int[] consumersOf(int partition) {
        return consumers[partition];
    }

    /** Partition to owning rank; a copy. */
    public int[] ownership() {
        return owner.clone();
    }

    /** Installs a new ownership (agreed by the recovery); drops buffers of partitions no longer owned. */
    public void setOwnership(int[] newOwner) {
        if (newOwner.length != spec.partitionCount()) {
            throw new IllegalArgumentException("ownership of " + newOwner.length + " partitions, expected "
                    + spec.partitionCount());
        }
        this.owner = newOwner.clone();
        this.activeRanks = distinctOwners(newOwner);
        buffers.keySet().removeIf(p -> newOwner[p] != rankId);
    }

    /** Distinct ranks that own at least one partition, ascending. */
    public int[] activeRanks() {
        return activeRanks.clone();
    }

    private static int[] distinctOwners(int[] owners) {
        return Arrays.stream(owners).distinct().sorted().toArray();
    }

    /** Partitions this rank owns, ascending. */
    public int[] ownedPartitions() {
        int[] own = owner;
        return java.util.stream.IntStream.range(0, own.length).filter(p -> own[p] == rankId).toArray();
    }

    public boolean isSpare() {
        return ownedPartitions().length == 0;
    }

    /** The live state buffer of an owned partition (state at {@link #liveIteration()}). */
    public double[] liveState(int partition) {
        double[][] b = buffers.get(partition);
        if (b == null) {
            throw new IllegalStateException("rank " + rankId + " does not own partition " + partition);
        }
        return b[0];
    }

    /** Replaces the live state of a partition (reload from a checkpoint, or a recomputed result). */
    public void installLiveState(int partition, double[] state) {
        double[] second = state.clone();
        buffers.put(partition, new double[][] {state, second});
    }

    /** Iteration the live buffers hold. */
    public int liveIteration() {
        return liveIteration;
    }

    /** Highest iteration computed into the second buffers ({@code liveIteration} or one more). */
    public int computedIteration() {
        return computedIteration;
    }

    /**
     * Makes the live buffers hold state {@code iteration}: a no-op when they already do; a swap when
     * the second buffers hold it (computed but not yet committed).
     */
    public void fallBackTo(int iteration) {
        if (iteration == liveIteration) {
            computedIteration = liveIteration;
            return;
        }
        if (iteration == liveIteration + 1 && computedIteration == iteration) {
            for (double[][] b : buffers.values()) {
                double[] t = b[0];
                b[0] = b[1];
                b[1] = t;
            }
            liveIteration = iteration;
            computedIteration = iteration;
            return;
        }
        throw new IllegalStateException("rank " + rankId + " holds states " + liveIteration + " and "
                + computedIteration + ", cannot fall back to " + iteration);
    }

    /** Sets the iteration of the live buffers after they were replaced wholesale. */
    public void setLiveIteration(int iteration) {
        this.liveIteration = iteration;
        this.computedIteration = iteration;
    }

    public int committedCheckpoint() {
        return committedCheckpoint;
    }

    public void setCommittedCheckpoint(int iteration) {
        this.committedCheckpoint = iteration;
    }

    public double lastResidual() {
        return lastResidual;
    }

    /** Member losses observed so far, oldest first (drained by the recovery). */
    public List<MemberLoss> drainLosses() {
        List<MemberLoss> out = new ArrayList<>();
        MemberLoss l;
        while ((l = losses.poll()) != null) {
            out.add(l);
        }
        return out;
    }

    /**
     * Records ranks whose death a recovery already accounted for: a late membership event about them
     * must not interrupt the new epoch.
     */
    public void acknowledgeDead(java.util.Collection<Integer> ranks) {
        knownDead.addAll(ranks);
    }

    /**
     * Ranks currently in the cluster, from Hazelcast's member list itself (it changes before the
     * membership events are dispatched, so it is the freshest view).
     */
    public TreeSet<Integer> liveRanks() {
        TreeSet<Integer> ranks = new TreeSet<>();
        try {
            for (Member m : hazelcast.getCluster().getMembers()) {
                String rank = m.getAttribute(HazelcastConfigs.RANK_ATTRIBUTE);
                if (rank != null) {
                    ranks.add(Integer.parseInt(rank));
                }
            }
        } catch (RuntimeException e) {
            ranks.addAll(membersByRank.keySet());
        }
        return ranks;
    }

    /** Whether this member is the oldest of the cluster (the coordinator). */
    public boolean isOldestMember() {
        try {
            return hazelcast.getCluster().getMembers().iterator().next().localMember();
        } catch (RuntimeException e) {
            return false;
        }
    }

    public void setInRecovery(boolean value) {
        inRecovery = value;
    }

    public boolean inRecovery() {
        return inRecovery;
    }

    /** Counts one kernel update (and whether it happened during a recovery). */
    public void countUpdate() {
        kernelUpdates.incrementAndGet();
        if (inRecovery) {
            kernelUpdatesDuringRecovery.incrementAndGet();
        }
    }

    public RankStats stats() {
        return new RankStats(rankId, kernelUpdates.get(), kernelUpdatesDuringRecovery.get(), mailbox.droppedCount(),
                loopNanos / 1_000, checkpointNanos / 1_000, checkpointCount);
    }

    // ------------------------------------------------------------------ death

    /**
     * Ends this member abruptly, as a crash would: the Hazelcast member is terminated (no graceful
     * migration), sockets close, and the rank's thread unwinds with {@link RankKilledException}.
     */
    public RankKilledException killAbruptly() {
        killed = true;
        finished = true;
        try {
            hazelcast.getLifecycleService().terminate();
        } finally {
            dataPlane.close();
            mailbox.interruptEpoch("this rank was killed");
        }
        return new RankKilledException(rankId);
    }

    private void checkAlive() {
        if (killed) {
            throw new RankKilledException(rankId);
        }
    }

    public boolean isKilled() {
        return killed;
    }

    public boolean isFinished() {
        return finished;
    }

    /** Stops this member (after the run): no failure is reported for members leaving now. */
    @Override
    public void close() {
        finished = true;
        // no listener deregistration: it is a cluster-wide operation that waits on members that are
        // terminating at the same moment; terminating the member drops its listeners anyway
        try {
            if (hazelcast.getLifecycleService().isRunning()) {
                hazelcast.getLifecycleService().terminate();
            }
        } finally {
            backupRepair.close();
            dataPlane.close();
        }
    }

    /** Thrown through a killed rank's thread so that it stops wherever it was. */
    public static final class RankKilledException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public RankKilledException(int rank) {
            super("rank " + rank + " was killed", null, false, false);
        }
    }

}
