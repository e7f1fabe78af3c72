package org.dfr.runtime;

import com.hazelcast.cluster.ClusterState;
import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastException;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.dfr.analysis.PartitionDependencies;
import org.dfr.runtime.net.CommunicationException;
import org.dfr.runtime.net.DataPlane;
import org.dfr.runtime.net.EpochChangedException;
import org.dfr.runtime.net.Mailbox;
import org.dfr.runtime.net.MessageKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One rank: a Hazelcast member that owns partitions and runs the iteration loop on them. It
 * assembles parts with one job each and drives the run from start to end:
 * <ul>
 *   <li>{@link Membership}: the Hazelcast member, members by rank, losses, live ranks, the coordinator;</li>
 *   <li>{@link Ownership}: which rank owns each partition (replaced by a recovery);</li>
 *   <li>{@link PartitionStates}: the owned partitions' double buffers and their iterations;</li>
 *   <li>{@link Communicator}: halos, the residual reduction, barriers over the data plane;</li>
 *   <li>{@link Checkpointing}: checkpoint writes and the commit protocol ({@link CheckpointStore});</li>
 *   <li>{@link IterationLoop}: halos, update, checkpoint, reduction, swap, convergence;</li>
 *   <li>{@link RankCounters}: the rank's {@link RankStats}.</li>
 * </ul>
 * Who leads which role is decided by {@link Leadership}. A {@link FailureHandler} sees the rank
 * through {@link RecoveryView}, an {@link IterationHook} through {@link RankContext}.
 *
 * <p>Thread model: {@link #run()} runs on the rank's own thread; membership events arrive on
 * Hazelcast's event threads and only interrupt waits.
 */
public final class RankNode implements RecoveryView, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RankNode.class);

    /** Control-board key set once every active rank has published its final state. */
    public static final String ENDED_KEY = "ended";
    /** Control-board key of the converged iteration (see {@link IterationLoop#CONVERGED_KEY}). */
    public static final String CONVERGED_KEY = IterationLoop.CONVERGED_KEY;
    /**
     * Control-board key holding the failure of the run, when it failed: its kind and reason
     * ({@link RunFailedException#boardValue}).
     */
    public static final String FAILED_KEY = "failed";

    private final int rankId;
    private final RunSpec spec;
    private final PartitionKernel kernel;
    private final ClusterSettings settings;
    private final FailureHandler failureHandler;
    private final IterationHook hook;
    private final Mailbox mailbox = new Mailbox();
    private final DataPlane dataPlane;
    private final HazelcastInstance hazelcast;
    private final PromotionRetry promotionRetry;
    private final BackupRepair backupRepair;
    private final ControlBoard control;
    private final FailureLog failures;
    private final Membership membership;
    /** Serves the copies this rank holds for others ({@link DataPlaneReplicas}); nothing to close for the map's. */
    private final ReplicaStore replicas;
    private final DeathWatch deathWatch;
    /** Watches a peer process of this machine through /proc ({@link ExitWatch}); a no-op without one. */
    private final AutoCloseable exitWatch;
    /**
     * System property {@code dfr.exitWatch}: {@code false} turns the {@link ExitWatch} off (the launcher
     * passes its {@code dfr.*} properties on to rank processes). On by default since the defects behind
     * the "no recovery decision" of runs with it on were found (docs/reliability.md, sessions 11 and 13);
     * a processes campaign with it on is in docs/reliability.md, session 14.
     */
    public static final String EXIT_WATCH_PROPERTY = "dfr.exitWatch";
    private static final boolean EXIT_WATCH_ENABLED = !"false".equals(System.getProperty(EXIT_WATCH_PROPERTY));
    private final RecoveryInbox recoveryInbox;
    private final PartitionStates states;
    private final Communicator communicator;
    private final Checkpointing checkpointing;
    private final RankCounters counters = new RankCounters();
    private final IterationLoop loop;
    private final CheckpointSchedule schedule;

    private volatile Ownership ownership;
    private volatile boolean finished;
    /** On the root once the run ended: every partition's final state (see {@link #finalStates}). */
    private volatile Map<Integer, double[]> collectedFinalStates;
    /** On the collector: whether it has read the run's results ({@link #markResultsRead}). */
    private volatile boolean resultsReadHere;
    private volatile boolean killed;
    /** The other ranks of this JVM, told of this rank's death and read for theirs ({@link #shareJvmWith}). */
    private volatile InJvmDeaths jvmDeaths = InJvmDeaths.none();

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
        this.ownership = Ownership.initial(spec.partitionCount());
        try {
            // the data plane binds this rank's host address and accepts only connections with the run's token
            this.dataPlane = new DataPlane(settings.clusterName(), rankId, mailbox, this::dataAddressOf,
                    InetAddress.getByName(settings.addressOfHost(spec.hostOf(rankId))), settings.dataToken());
        } catch (IOException e) {
            throw new UncheckedIOException("rank " + rankId + ": cannot open its data-plane socket", e);
        }
        // a holder takes copies from the moment its data address is published with its member, which is
        // before the membership exists: the liveness it needs for its own writes is read when it writes
        DataPlaneReplicas heldByPeers = settings.checkpointReplication() == CheckpointReplication.DATA_PLANE
                ? new DataPlaneReplicas(rankId, dataPlane, this::liveRanksNow, this::isLiveNow,
                        this::isSettledNow, spec::hostOf, settings.checkpointBackups(),
                        settings.messageTimeoutMillis(),
                        SharedMemoryCopies.in(settings.sharedMemoryDirectory(), rankId))
                : null;
        HazelcastInstance hz;
        ProcFs proc = new ProcFs(ProcFs.DEFAULT_ROOT);
        Optional<ProcessIdentity> identity = EXIT_WATCH_ENABLED ? proc.self() : Optional.empty();
        try {
            Config config = HazelcastConfigs.member(settings, rankId, dataPlane.port(),
                    spec.memberCount(), spec.hostOf(rankId), spec.hostCount());
            identity.ifPresent(id -> config.getMemberAttributeConfig()
                    .setAttribute(ProcessIdentity.BOOT_ATTRIBUTE, id.bootId())
                    .setAttribute(ProcessIdentity.PID_ATTRIBUTE, Long.toString(id.pid()))
                    .setAttribute(ProcessIdentity.START_ATTRIBUTE, Long.toString(id.startTicks())));
            hz = Hazelcast.newHazelcastInstance(config);
        } catch (RuntimeException e) {
            if (heldByPeers != null) {
                heldByPeers.close();
            }
            dataPlane.close();
            // Hazelcast gives up joining after hazelcast.max.join.seconds, or its port was taken
            throw new RunFailedException(RunFailedException.Kind.CLUSTER_NOT_FORMED,
                    "rank " + rankId + " could not join the cluster: " + e.getMessage(), e);
        }
        this.hazelcast = hz;
        try {
            this.promotionRetry = new PromotionRetry(hz, PromotionRetry.DEFAULT_MAX_WAIT_MILLIS);
            this.backupRepair = new BackupRepair(hz, "dfr-rank" + rankId + "-backup-repair");
            IMap<String, String> controlMap = hz.getMap(HazelcastConfigs.CONTROL_MAP);
            this.control = new ControlBoard(controlMap, promotionRetry);
            this.failures = new FailureLog(hz.getMap(HazelcastConfigs.FAILURE_MAP), promotionRetry);
            this.membership = new Membership(rankId, hz, control, dataPlane, mailbox, () -> finished, this::resultsRead);
            IMap<String, byte[]> ckptMap = hz.getMap(HazelcastConfigs.CHECKPOINT_MAP);
            this.replicas = heldByPeers != null ? heldByPeers
                    : new HazelcastReplicas(ckptMap, promotionRetry, new LocalPartitionKey(hz.getPartitionService())::current);
            CheckpointStore checkpoints = new CheckpointStore(ckptMap, promotionRetry, replicas);
            this.deathWatch = new DeathWatch(rankId, dataPlane, membership, mailbox::epoch,
                    rank -> exitedOnThisMachine(proc, identity, rank), rank -> jvmDeaths.isDead(rank));
            this.exitWatch = ExitWatch.start(rankId, identity, proc, membership::liveRanks, membership::processOf,
                    () -> finished, deathWatch::exitSeen);
            this.recoveryInbox = new RecoveryInbox(control);
            mailbox.attachSideChannel((key, payload) -> {
                if (key.kind() == MessageKind.RANK_LOST) {
                    deathWatch.noticeReceived(key);
                } else {
                    recoveryInbox.accept(key, payload);
                }
            });
            this.states = new PartitionStates(rankId);
            DiskCheckpoints disk = settings.diskCheckpoints();
            for (int p : ownership.partitionsOf(rankId)) {
                states.install(p, disk.restarts() ? loadFileCheckpoint(disk, p, kernel) : kernel.initialState(p));
            }
            if (disk.restarts()) {
                states.setLiveIteration(disk.restartIteration());
            }
            this.communicator = new Communicator(rankId, kernel, dataPlane, mailbox, settings.messageTimeoutMillis(),
                    this::ownership);
            this.checkpointing = new Checkpointing(checkpoints, counters,
                    FileCheckpointWriter.of(disk, rankId, spec), spec.checkpointEvery(), spec.commitLagIterations(), hook, this,
                    "dfr-rank" + rankId + "-checkpoint-replicator");
            this.schedule = new CheckpointSchedule(spec, disk.restarts() ? disk.restartIteration() : 0,
                    checkpointing::useInterval);
            this.loop = new IterationLoop(this, spec, kernel, states, communicator, checkpointing, counters, control, hook,
                    this::ownership, this::checkAlive, schedule);
        } catch (RuntimeException | Error e) {
            // the member joined, but the rank did not start (a kernel's initial state threw, or a cluster-wide
            // listener registration met a topology that kept changing while the others joined: "Cluster topology
            // was not stable for 100 retries", campaign seed 151): nothing may stay behind in this JVM
            finished = true;
            try {
                hz.getLifecycleService().terminate();
            } finally {
                if (heldByPeers != null) {
                    heldByPeers.close();
                }
                dataPlane.close();
            }
            if (e instanceof HazelcastException) {
                // Hazelcast's own start-up, not the kernel's: the formation is tried again (EmbeddedCluster,
                // startJoining)
                throw new RunFailedException(RunFailedException.Kind.CLUSTER_NOT_FORMED,
                        "rank " + rankId + " could not join the cluster: " + e.getMessage(), e);
            }
            throw e;
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

    /** Attempts of a rank other than the founder to start a member that joins (see {@link #startJoining}). */
    public static final int JOIN_ATTEMPTS = 3;

    /**
     * {@link #start} for a rank that joins the founder's cluster, trying again when its member could not join:
     * with 7 members joining rank 0 within milliseconds of each other on 2 loaded cores, a member now and then
     * gives up at once ("Node failed to start!": a connection to rank 0 that failed once is not tried again,
     * see hazelcast.connection.monitor.max.faults). Each attempt is bounded by Hazelcast's join limit, so this
     * is for a rank process, whose launcher ends it when the run gives up; in one JVM, where a late success would
     * leave a member behind, {@link EmbeddedCluster} tries the whole formation again instead.
     *
     * <p>An attempt that used up half the join limit or more is not tried again: the founder is not there (a rank
     * started by hand before rank 0, or without it), and waiting the limit out {@link #JOIN_ATTEMPTS} times only
     * made the one-line error come three times later.
     *
     * @throws RunFailedException of kind CLUSTER_NOT_FORMED after {@link #JOIN_ATTEMPTS} failed attempts, or after one
     *     that waited out half the join limit
     */
    public static RankNode startJoining(int rankId, RunSpec spec, PartitionKernel kernel, ClusterSettings settings,
                                        FailureHandler failureHandler, IterationHook hook) {
        for (int attempt = 1; ; attempt++) {
            long startedAt = System.nanoTime();
            try {
                return start(rankId, spec, kernel, settings, failureHandler, hook);
            } catch (RunFailedException e) {
                long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAt);
                if (e.kind() != RunFailedException.Kind.CLUSTER_NOT_FORMED || attempt >= JOIN_ATTEMPTS
                        || tookMillis >= settings.joinTimeoutMillis() / 2) {
                    throw e;
                }
                LOG.warn("rank {}: its member could not join ({}); attempt {} of {}", rankId, e.getMessage(),
                        attempt + 1, JOIN_ATTEMPTS);
            }
        }
    }

    /**
     * How rank {@code rank}'s process exited, read from {@code /proc} now, or null while it lives, or when it is not a
     * process of this machine ({@link ExitWatch#exitOf}).
     */
    private String exitedOnThisMachine(ProcFs proc, Optional<ProcessIdentity> self, int rank) {
        if (self.isEmpty()) {
            return null;
        }
        Optional<ProcessIdentity> peer = membership.processOf(rank);
        if (peer.isEmpty() || !self.get().isOtherProcessOnThisMachine(peer.get())) {
            return null;
        }
        return ExitWatch.exitOf(proc.stat(peer.get().pid()), peer.get());
    }

    /** Partition {@code p}'s state of the restart iteration, from its checkpoint file. */
    private static double[] loadFileCheckpoint(DiskCheckpoints disk, int p, PartitionKernel kernel) {
        Path file = CheckpointFile.path(disk.restartFrom(), disk.runKey(), disk.restartIteration(), p);
        return readPartitionFile(file, p, disk.restartIteration(), kernel, RunFailedException.Kind.OTHER,
                "cannot restart from " + file);
    }

    /**
     * Partition {@code p}'s checkpoint {@code iteration} read from {@code file}, checked (checksum, partition,
     * iteration) and of the partition's size; otherwise a failure of {@code kind} whose message starts with
     * {@code cannot}.
     */
    private static double[] readPartitionFile(Path file, int p, int iteration, PartitionKernel kernel,
                                              RunFailedException.Kind kind, String cannot) {
        double[] state;
        try {
            state = CheckpointFile.read(file, p, iteration);
        } catch (IOException e) {
            throw new RunFailedException(kind, cannot + ": " + e.getMessage(), e);
        }
        int expected = kernel.initialState(p).length;
        if (state.length != expected) {
            throw new RunFailedException(kind, cannot + ": it holds " + state.length + " values, partition " + p
                    + " of this problem has " + expected);
        }
        return state;
    }

    /** The live ranks; read only once the membership exists (by a write of this rank's checkpoint copies). */
    private Set<Integer> liveRanksNow() {
        return membership.liveRanks();
    }

    private boolean isSettledNow(int rank) {
        return membership.isLive(rank);
    }

    private boolean isLiveNow(int rank) {
        // not isLive alone: a holder whose joining event this rank has not handled yet is no dead holder
        return membership.isLiveOrJoining(rank);
    }

    private InetSocketAddress dataAddressOf(int rank) {
        Membership m = this.membership;
        return m == null ? null : m.dataAddressOf(rank);
    }

    // ------------------------------------------------------------------ cluster formation

    /** See {@link Membership#formingOnce}: set by a launcher that starts each member once, while it forms. */
    public void formingOnce(boolean on) {
        membership.formingOnce(on);
    }

    /**
     * Waits until this member sees {@code size} members.
     *
     * @throws RunFailedException if that does not happen within the timeout
     */
    public void awaitClusterSize(int size, long timeoutMillis) {
        membership.awaitClusterSize(size, timeoutMillis);
    }

    /**
     * Waits until this member sees {@code size} members, or until the control board holds
     * {@code formedKey}, which the other members write once they saw them all and began: a member that
     * came up late may find a member already dead.
     *
     * @return whether the cluster formed without this member (the run is under way)
     * @throws RunFailedException if neither happens within the timeout
     */
    public boolean awaitClusterSizeOrStart(int size, long timeoutMillis, String formedKey) {
        boolean[] elsewhere = new boolean[1];
        membership.awaitClusterSize(size, timeoutMillis, () -> {
            // a partition operation (this get) before every member joined makes Hazelcast assign the partitions to the
            // members there are, and every later join migrates them: 1-2 s of CPU of a formation on 2 cores. Until the
            // table is assigned nobody wrote the key (the loop starts with writes), so there is nothing to read.
            elsewhere[0] = membership.ranksSeen().size() < size && membership.partitionsAssigned()
                    && control.get(formedKey) != null;
            return elsewhere[0];
        });
        return elsewhere[0];
    }

    /**
     * Waits until every Hazelcast partition has its owner and backup in place: a member loss right
     * after start-up must not lose checkpoint data (migrations after the joins are asynchronous).
     */
    public void awaitClusterSafe(long timeoutMillis) {
        membership.awaitClusterSafe(timeoutMillis);
    }

    /**
     * Stops Hazelcast from rebalancing partitions for the rest of the run (cluster state
     * {@link ClusterState#NO_MIGRATION}), once every partition has its owner and backups in place.
     * Called by the {@link Leadership#isFounder founder} after the cluster formed.
     *
     * <p>Why: after a member loss, Hazelcast promotes the backups of its partitions at once (no data
     * moves), then migrates replicas to restore the backup count. While a partition migrates, every
     * operation on it is retried with back-off, so the recovery's control-board writes and checkpoint
     * reads waited for the whole repartitioning (0.7-1.2 s measured with 8 rank processes) although the
     * promoted copies were already there. With migrations held, promotion still happens, and the
     * checkpoint copies that remain ({@link ClusterSettings#checkpointBackups} synchronous backups, on other hosts) are what recovery reads;
     * {@link BackupRepair} restores the backup count once the recovery has resumed.
     *
     * @throws RunFailedException if the cluster does not reach a safe state or refuses the change
     */
    public void holdMigrations(long timeoutMillis) {
        membership.holdMigrations(timeoutMillis);
    }

    /**
     * Waits until {@link #holdMigrations} took effect on this member.
     *
     * @throws RunFailedException if it does not within the timeout
     */
    public void awaitMigrationsHeld(long timeoutMillis) {
        membership.awaitMigrationsHeld(timeoutMillis);
    }

    // ------------------------------------------------------------------ the run

    /** {@link System#nanoTime} at which this rank began its first iteration, or {@link Long#MIN_VALUE}. */
    private volatile long iteratingSinceNanos = Long.MIN_VALUE;
    private volatile Runnable whenIterating = () -> { };

    /**
     * Called on the rank's thread when it begins its first iteration, checkpoint 0 taken and committed (a rank
     * process tells its launcher then); not for a spare, which computes only once it adopts.
     */
    public void whenIterating(Runnable listener) {
        this.whenIterating = Objects.requireNonNull(listener);
    }

    /**
     * {@link System#nanoTime} at which this rank began its first iteration (after checkpoint 0, which takes a
     * barrier and the replication of every rank's copies), or {@link Long#MIN_VALUE} if it did not (a spare).
     */
    public long iteratingSinceNanos() {
        return iteratingSinceNanos;
    }

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
                next = loop.startFromInitialCheckpoint(this::recover);
                iteratingSinceNanos = System.nanoTime();
                whenIterating.run();
            }
            long loopStart = System.nanoTime();
            while (true) {
                next = loop.iterateFrom(next, this::recover);
                counters.setLoopNanos(System.nanoTime() - loopStart);
                try {
                    publishFinalState();
                    break;
                } catch (EpochChangedException | CommunicationException e) {
                    next = recover(e);
                }
            }
        } catch (RankKilledException e) {
            LOG.info("rank {}: killed", rankId);
        } catch (RuntimeException e) {
            if (!killed) {
                throw e;
            }
            // killed from another thread (the run stopping the other ranks after a failure, a test's kill at a chosen
            // moment): what this rank's own thread was doing fails with its member, and is no failure of the run
            LOG.info("rank {}: killed ({} on its own thread)", rankId, e.toString());
        }
    }

    private int recover(RuntimeException cause) {
        return failureHandler.recover(this, cause);
    }

    /**
     * The iteration the run ends with: {@link RunSpec#iterations()}, or the first whose global residual
     * fell below the tolerance.
     */
    public int lastIteration() {
        return loop.lastIteration();
    }

    @Override
    public void runIteration(int i) {
        loop.runIteration(i);
    }

    private void publishFinalState() {
        failureHandler.flush(this);
        Map<Integer, double[]> own = new TreeMap<>();
        for (Map.Entry<Integer, DoubleBuffer> e : states.buffers().entrySet()) {
            // the gather copies what the root keeps
            own.put(e.getKey(), e.getValue().live());
        }
        collectedFinalStates = communicator.gatherFinalStates(own);
        LOG.debug("rank {}: final states of partitions {} sent to the root", rankId, own.keySet());
        IMap<Integer, String> stats = hazelcast.getMap(HazelcastConfigs.STATS_MAP);
        String encoded = stats().encode();
        promotionRetry.run(() -> stats.set(rankId, encoded));
        int[] active = ownership.activeRanks();
        int epoch = communicator.sendEndNotices(spec.iterations() + 1, active);
        hook.afterEndNoticesSent(this);
        communicator.awaitEndNotices(spec.iterations() + 1, active, epoch);
        finished = true;
        control.put(ENDED_KEY, Double.toString(loop.lastResidual()));
    }

    @Override
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
     * The rank that reads the run's results once it has ended: the {@link Leadership#root root}.
     * Every rank knows it from the ownership all of them agreed on, so no race with members leaving
     * decides it. (It used to be the oldest member: a slow rank could then find the collector and the
     * next oldest gone already, take itself for the oldest, and collect again from maps whose owners
     * were leaving, which failed a correct run with "final state ... is missing".)
     */
    public int collectorRank() {
        return Leadership.root(ownership);
    }

    /**
     * Every partition's final state, gathered by this rank as the {@link #collectorRank collector} when the
     * run ended.
     *
     * @throws IllegalStateException if this rank did not gather them (it is not the collector, or the run
     *         has not ended)
     */
    public Map<Integer, double[]> finalStates() {
        Map<Integer, double[]> gathered = collectedFinalStates;
        if (gathered == null || !finished) {
            throw new IllegalStateException("rank " + rankId + " holds no final states: the collector is rank "
                    + collectorRank() + (finished ? "" : ", and the run has not ended"));
        }
        return gathered;
    }

    /** Records, on the {@link #collectorRank collector}, that it has read the run's results. */
    public void markResultsRead() {
        resultsReadHere = true;
    }

    /**
     * Whether the run's results have been read: on the collector once it has read them, elsewhere once
     * the run ended and the collector left (it leaves only after reading them). Until then a departed
     * member's partitions must still be promoted: the collector reads the statistics and the records from
     * them ({@link PromotionWatch}).
     */
    boolean resultsRead() {
        if (!finished) {
            return false;
        }
        return isCollector() ? resultsReadHere : hasLeft(collectorRank());
    }

    /** Whether {@code rank} is no longer a member: for the collector, that it has read the results. */
    private boolean hasLeft(int rank) {
        return !membership.liveRanks().contains(rank);
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
        return membership.pollUntil(() -> hasLeft(collector), timeoutMillis, 50);
    }

    // ------------------------------------------------------------------ RecoveryView

    @Override
    public int rankId() {
        return rankId;
    }

    @Override
    public RunSpec spec() {
        return spec;
    }

    @Override
    public PartitionKernel kernel() {
        return kernel;
    }

    @Override
    public boolean isStartingCheckpoint(int iteration) {
        return iteration == startingIteration();
    }

    @Override
    public int startingIteration() {
        DiskCheckpoints disk = settings.diskCheckpoints();
        return disk.restarts() ? disk.restartIteration() : 0;
    }

    @Override
    public double[] startingState(int iteration, int partition) {
        if (!isStartingCheckpoint(iteration)) {
            throw new IllegalArgumentException("checkpoint " + iteration + " is not where the run started");
        }
        DiskCheckpoints disk = settings.diskCheckpoints();
        // as the constructor built it: the kernel's initial state is deterministic, a restart file is still there
        return disk.restarts() ? loadFileCheckpoint(disk, partition, kernel) : kernel.initialState(partition);
    }

    @Override
    public int newestFileLevel(int atMost) {
        DiskCheckpoints disk = settings.diskCheckpoints();
        if (!disk.writes() || atMost < 0) {
            return -1;
        }
        try {
            return CheckpointFile.newestComplete(disk.directory(), disk.runKey(), spec.partitionCount(), atMost + 1,
                    skipped -> LOG.warn("rank {}: file level: {}", rankId, skipped));
        } catch (IOException e) {
            LOG.warn("rank {}: cannot read the file level under {}: {}", rankId, disk.directory(), e.toString());
            return -1;
        }
    }

    @Override
    public double[] fileLevelState(int iteration, int partition) {
        DiskCheckpoints disk = settings.diskCheckpoints();
        if (!disk.writes()) {
            throw new IllegalStateException("this run writes no file level");
        }
        Path file = CheckpointFile.path(disk.directory(), disk.runKey(), iteration, partition);
        return readPartitionFile(file, partition, iteration, kernel, RunFailedException.Kind.CHECKPOINT_LOST,
                "cannot read checkpoint " + iteration + " of partition " + partition + " from the file level " + file);
    }

    @Override
    public ClusterSettings settings() {
        return settings;
    }

    @Override
    public BackupRepair backupRepair() {
        return backupRepair;
    }

    /** Wraps operations on the cluster's partitioned maps (see {@link PromotionRetry}). */
    public PromotionRetry promotionRetry() {
        return promotionRetry;
    }

    /** The Hazelcast member of this rank. */
    public HazelcastInstance hazelcast() {
        return hazelcast;
    }

    @Override
    public CheckpointStore checkpoints() {
        return checkpointing.store();
    }

    @Override
    public ControlBoard control() {
        return control;
    }

    @Override
    public FailureLog failures() {
        return failures;
    }

    @Override
    public Communicator communicator() {
        return communicator;
    }

    @Override
    public RecoveryInbox recoveryInbox() {
        return recoveryInbox;
    }

    @Override
    public PartitionStates states() {
        return states;
    }

    @Override
    public Ownership ownership() {
        return ownership;
    }

    @Override
    public void adoptOwnership(Ownership newOwnership) {
        if (newOwnership.partitionCount() != spec.partitionCount()) {
            throw new IllegalArgumentException("ownership of " + newOwnership.partitionCount()
                    + " partitions, expected " + spec.partitionCount());
        }
        this.ownership = newOwnership;
        states.retainOnly(p -> newOwnership.ownerOf(p) == rankId);
    }

    @Override
    public int[] ownedPartitions() {
        return ownership.partitionsOf(rankId);
    }

    /** Whether this rank owns no partition. */
    public boolean isSpare() {
        return !ownership.isActive(rankId);
    }

    @Override
    public int liveIteration() {
        return states.liveIteration();
    }

    @Override
    public int committedCheckpoint() {
        // before the first commit, where the run started: it is rebuilt when no copy of it is left (a restart run
        // that lost a rank then fell back to a "checkpoint 0" it never had)
        return Math.max(checkpointing.committed(), startingIteration());
    }

    @Override
    public void setCommittedCheckpoint(int iteration) {
        checkpointing.setCommitted(iteration, ownedPartitions());
    }

    /** Checkpoint copies this rank holds for other ranks now (none when the copies live in the checkpoint map). */
    public int heldCheckpointCopies() {
        return replicas.heldCopies();
    }

    @Override
    public void repairCheckpointCopies(Collection<Integer> deadRanks) {
        int dropped = replicas.dropOrphans(deadRanks, checkpointing.committed());
        if (dropped > 0) {
            LOG.debug("rank {}: dropped {} copies of uncommitted checkpoints of dead ranks {}", rankId, dropped, deadRanks);
        }
        checkpointing.repairCopiesInBackground(ownedPartitions());
    }

    /** Whether copies of the committed checkpoint placed again after a recovery are still on their way. */
    public boolean repairingCheckpointCopies() {
        return checkpointing.repairingCopies();
    }

    /** The global residual of the last completed iteration. */
    public double lastResidual() {
        return loop.lastResidual();
    }

    @Override
    public List<Membership.MemberLoss> drainLosses() {
        return membership.drainLosses();
    }

    @Override
    public void acknowledgeDead(Collection<Integer> ranks) {
        membership.acknowledgeDead(ranks);
    }

    @Override
    public TreeSet<Integer> liveRanks() {
        return membership.liveRanks();
    }

    @Override
    public boolean isLeftAlone() {
        TreeSet<Integer> live = membership.liveRanks();
        return live.size() == 1 && live.contains(rankId) && (spec.isRespawned(rankId) || membership.sawDepartures());
    }

    @Override
    public Set<Integer> awaitMembers(Collection<Integer> ranks, long timeoutMillis) {
        return membership.awaitMembers(ranks, timeoutMillis);
    }

    @Override
    public boolean pollUntil(BooleanSupplier condition, long timeoutMillis, long pollMillis) {
        return membership.pollUntil(condition, timeoutMillis, pollMillis);
    }

    @Override
    public List<Integer> liveRanksOldestFirst() {
        return membership.liveRanksOldestFirst();
    }

    @Override
    public boolean isCoordinator() {
        return membership.isCoordinator();
    }

    @Override
    public boolean partitionsOwnedByLiveMembers() {
        return membership.partitionsOwnedByLiveMembers();
    }

    @Override
    public void duringAgreement(int epoch) {
        hook.duringAgreement(this, epoch);
    }

    @Override
    public void afterRecoveryStep(int failureIteration, int level) {
        hook.afterRecoveryStep(this, failureIteration, level);
    }

    @Override
    public void whileIdle() {
        hook.whileIdle(this);
    }

    @Override
    public void setInRecovery(boolean value) {
        counters.setInRecovery(value);
    }

    @Override
    public boolean inRecovery() {
        return counters.inRecovery();
    }

    @Override
    public boolean hasHandledLossOf(int rank) {
        return membership.hasHandledLossOf(rank);
    }

    @Override
    public void countUpdate() {
        counters.countUpdate();
    }

    /** What this rank did so far. */
    public RankStats stats() {
        return counters.stats(rankId, mailbox.droppedCount(), replicas.sharedMemoryCopies(),
                replicas.lentCopies());
    }

    // ------------------------------------------------------------------ death

    /**
     * Joins the ranks of this JVM (embedded mode): from now on this rank is told of their deaths at once, and they of
     * its ({@link InJvmDeaths}). Called before the run starts.
     */
    public void shareJvmWith(InJvmDeaths deaths) {
        this.jvmDeaths = Objects.requireNonNull(deaths);
        deaths.register(rankId, (rank, how) -> deathWatch.jvmPeerDied(rank, how));
    }

    /**
     * {@link #killAbruptly}, once the ranks of this JVM that die at the same point ({@code together}) are dying too,
     * at most {@link #DYING_TOGETHER_MAX_WAIT_MILLIS} later ({@link InJvmDeaths#dyingWith}).
     */
    @Override
    public RankKilledException killAbruptlyWith(Collection<Integer> together) {
        jvmDeaths.dyingWith(rankId, together, DYING_TOGETHER_MAX_WAIT_MILLIS);
        return killAbruptly();
    }

    /**
     * How long a rank of one JVM that is to die waits for the others of the same point to be dying: they reach it
     * within milliseconds; the wait adds to the detection the report measures from the recorded time of death.
     */
    static final long DYING_TOGETHER_MAX_WAIT_MILLIS = 500;

    @Override
    public RankKilledException killAbruptly() {
        killed = true;
        finished = true;
        // a master must reach nobody from now on, as a killed process: alive while the others are told, it
        // removed the first one that suspected it and split the cluster (see MasterSilence)
        MasterSilence.ifMaster(hazelcast);
        // the ranks of this JVM see the death before the member terminates, as the exit watch sees a process exit
        // before its sockets close; told later, they learnt of it from Hazelcast alone (see InJvmDeaths)
        jvmDeaths.died(rankId);
        checkpointing.stopReplication();
        try {
            hazelcast.getLifecycleService().terminate();
        } finally {
            // no goodbye: peers must see this as the death it stands for
            closeExitWatch();
            deathWatch.close();
            membership.close();
            closeReplicaServer();
            dataPlane.closeAbruptly();
            mailbox.interruptEpoch("this rank was killed");
        }
        return new RankKilledException(rankId);
    }

    private void closeReplicaServer() {
        try {
            replicas.close();
        } catch (RuntimeException e) {
            LOG.debug("rank {}: closing the replica server: {}", rankId, e.toString());
        }
    }

    private void closeExitWatch() {
        try {
            exitWatch.close();
        } catch (Exception e) {
            LOG.debug("rank {}: closing the exit watch: {}", rankId, e.toString());
        }
    }

    private void checkAlive() {
        if (killed) {
            throw new RankKilledException(rankId);
        }
    }

    @Override
    public boolean isKilled() {
        return killed;
    }

    /** Whether this rank finished (ended, was killed, or is closing). */
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
            closeExitWatch();
            deathWatch.close();
            membership.close();
            checkpointing.close();
            // before the data plane: a replication still running then stops instead of trying every rank
            closeReplicaServer();
            dataPlane.close();
        }
    }
}
