package org.dfr.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every rank as a Hazelcast member inside this JVM, one thread per rank. Every member and
 * thread it starts is gone when {@link #run} returns, whether the run succeeded or not.
 */
public final class EmbeddedCluster {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedCluster.class);

    private final RunSpec spec;
    private final PartitionKernel kernel;
    private final ClusterSettings settings;
    private final FailureHandler failureHandler;
    private final IterationHook hook;
    private LongConsumer loopEntered = nanos -> { };

    /** A cluster of {@link RunSpec#memberCount()} ranks running {@code kernel}. */
    public EmbeddedCluster(RunSpec spec, PartitionKernel kernel, ClusterSettings settings,
                           FailureHandler failureHandler, IterationHook hook) {
        this.spec = spec;
        this.kernel = kernel;
        this.settings = settings;
        this.failureHandler = failureHandler;
        this.hook = hook;
    }

    /**
     * Told, once the ranks ended, when the first of them began its first iteration, checkpoint 0 taken
     * ({@link System#nanoTime}; {@link RankNode#iteratingSinceNanos}): a power timeline places the loop by it. Not told
     * when no rank began one. Nothing by default.
     */
    public EmbeddedCluster loopEntered(LongConsumer listener) {
        this.loopEntered = Objects.requireNonNull(listener);
        return this;
    }

    /**
     * Starts the members, runs the solver and collects the outcome.
     *
     * @throws RunFailedException when the run cannot produce a correct result
     */
    public RunOutcome run() {
        boolean choosePorts = settings.basePort() < 0;
        for (int attempt = 1; ; attempt++) {
            if (choosePorts) {
                Set<String> addresses = new LinkedHashSet<>();
                for (int h = 0; h < spec.hostCount(); h++) {
                    addresses.add(settings.addressOfHost(h));
                }
                settings.basePort(HazelcastConfigs.freeBasePort(HazelcastConfigs.portCount(spec.memberCount()),
                        List.copyOf(addresses)));
            }
            try {
                return runOnce();
            } catch (RunFailedException e) {
                if (e.kind() != RunFailedException.Kind.CLUSTER_NOT_FORMED || attempt >= FORMATION_ATTEMPTS) {
                    throw e;
                }
                // nothing computed yet, every member is closed: a loaded machine now and then drops a joiner
                LOG.warn("the members did not form their cluster ({}); forming it again (attempt {} of {})",
                        e.getMessage(), attempt + 1, FORMATION_ATTEMPTS);
            }
        }
    }

    /**
     * How often the members are started when they do not form their cluster before the run starts
     * (see ProcessLauncher's constant of the same name).
     */
    public static final int FORMATION_ATTEMPTS = 2;

    /**
     * Members that start and join at once, after the founder: twice the cores. All at once, 64 members of one JVM on 2
     * cores never formed (each start's probes and Hazelcast threads starved the others: "Could not join cluster", two
     * masters claiming the cluster); 4 at a time, they formed in about a minute, and 8 members formed as fast as before
     * (session 42).
     */
    public static final int JOINING_AT_ONCE = 2 * Runtime.getRuntime().availableProcessors();

    private RunOutcome runOnce() {
        int members = spec.memberCount();
        ExecutorService threads = Executors.newFixedThreadPool(members, r -> {
            Thread t = new Thread(r, "dfr-rank");
            t.setDaemon(true);
            return t;
        });
        List<RankNode> nodes = new ArrayList<>();
        boolean stuckThreads = false;
        try {
            long formStart = System.nanoTime();
            // the founder becomes the master alone; the others then join it in parallel
            try {
                nodes.add(RankNode.start(Leadership.FOUNDER_RANK, spec, kernel, settings, failureHandler, hook));
            } catch (RuntimeException | Error e) {
                throw RunFailedException.failed("rank " + Leadership.FOUNDER_RANK + "'s start", e);
            }
            Map<Integer, Future<RankNode>> starting = new LinkedHashMap<>();
            Semaphore joining = new Semaphore(JOINING_AT_ONCE);
            // once a start failed, the members still waiting for their turn do not start: the run forms again or
            // fails, and 16 waves of 4 would each wait out the join limit first
            AtomicBoolean abandoned = new AtomicBoolean();
            for (int r = 0; r < members; r++) {
                if (Leadership.isFounder(r)) {
                    continue;
                }
                int rank = r;
                starting.put(rank, threads.submit(() -> {
                    Thread.currentThread().setName("dfr-rank" + rank);
                    joining.acquire();
                    try {
                        if (abandoned.get()) {
                            throw new CancellationException("rank " + rank + " not started: the formation failed");
                        }
                        // not startJoining: a retry may outlast the wait below and leave a member behind; the
                        // whole formation is tried again instead (FORMATION_ATTEMPTS)
                        return RankNode.start(rank, spec, kernel, settings, failureHandler, hook);
                    } finally {
                        joining.release();
                    }
                }));
            }
            try {
                for (Map.Entry<Integer, Future<RankNode>> f : starting.entrySet()) {
                    // a rank builds its kernel and initial state as it starts: a kernel's exception there is named as
                    // the rank's start, not as the cluster's formation (a solver author looked at the network)
                    nodes.add(await(f.getValue(), settings.joinTimeoutMillis(), "rank " + f.getKey() + "'s start"));
                }
            } catch (RunFailedException e) {
                abandoned.set(true);
                // the members that did start must be closed with the others: collect them (a start still
                // under way ends within Hazelcast's own join limit)
                for (Future<RankNode> f : starting.values()) {
                    try {
                        RankNode started = f.get(settings.joinTimeoutMillis(), TimeUnit.MILLISECONDS);
                        if (!nodes.contains(started)) {
                            nodes.add(started);
                        }
                    } catch (ExecutionException | TimeoutException | CancellationException other) {
                        // did not start: nothing to close
                    } catch (InterruptedException other) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
                throw e.kind() == RunFailedException.Kind.TIMEOUT
                        ? new RunFailedException(RunFailedException.Kind.CLUSTER_NOT_FORMED, e.getMessage(), e) : e;
            }
            // a member Hazelcast removes now does not come back: form again at once rather than wait out the limit
            nodes.forEach(node -> node.formingOnce(true));
            try {
                for (RankNode node : nodes) {
                    node.awaitClusterSize(members, settings.joinTimeoutMillis());
                }
                nodes.get(0).holdMigrations(settings.joinTimeoutMillis()); // the founder
                for (RankNode node : nodes) {
                    node.awaitMigrationsHeld(settings.joinTimeoutMillis());
                }
            } finally {
                nodes.forEach(node -> node.formingOnce(false));
            }
            LOG.info("cluster of {} members formed in {} ms", members,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - formStart));
            InJvmDeaths deaths = new InJvmDeaths();
            nodes.forEach(node -> node.shareJvmWith(deaths));
            long start = System.nanoTime();
            AtomicReference<RuntimeException> failure = new AtomicReference<>();
            List<Future<?>> running = new ArrayList<>();
            Map<Integer, Thread> rankThreads = new ConcurrentHashMap<>();
            for (RankNode node : nodes) {
                running.add(threads.submit(() -> {
                    // the pool's threads were named at formation, for whichever rank they started then
                    Thread.currentThread().setName("dfr-rank" + node.rankId());
                    rankThreads.put(node.rankId(), Thread.currentThread());
                    try {
                        node.run();
                    } catch (RuntimeException | Error thrown) {
                        // an Error too (a kernel's StackOverflowError, an AssertionError under -ea): the others must stop
                        RuntimeException e = thrown instanceof RuntimeException r ? r
                                : new RunFailedException(thrown + ThrownAt.of(thrown), thrown);
                        if (e instanceof RunFailedException rf) {
                            // before the others are stopped below: only the ranks the run lost
                            e = rf.withDeadRanks(nodes.stream().filter(RankNode::isKilled).map(RankNode::rankId).toList());
                        }
                        if (failure.compareAndSet(null, e)) {
                            // the caller gets the failure (the command line prints it once): not a second line here
                            LOG.info("rank {} failed: {}", node.rankId(), e.getMessage());
                            node.control().put(RankNode.FAILED_KEY, RunFailedException.boardValue(e));
                            deaths.close(); // the ranks stopped now are no deaths to recover from
                            nodes.forEach(n -> {
                                if (n != node && !n.isKilled()) {
                                    n.killAbruptly();
                                }
                            });
                        }
                    }
                }));
            }
            List<Integer> stuck = awaitRanks(nodes, running, failure, rankThreads);
            // measured, not the ranks' start: checkpoint 0 (a barrier and every rank's replication) came before, and
            // a loop placed from the start put 3 iterations of an energy timeline 200 ms wide and the rest nowhere
            nodes.stream().mapToLong(RankNode::iteratingSinceNanos).filter(t -> t != Long.MIN_VALUE).min()
                    .ifPresent(loopEntered::accept);
            if (failure.get() != null) {
                RuntimeException e = failure.get();
                if (!stuck.isEmpty()) {
                    stuckThreads = true;
                    String what = e instanceof RunFailedException ? e.getMessage() : e + ThrownAt.of(e);
                    throw new RunFailedException(RunFailedException.Kind.RANK_STUCK,
                            what + "; " + stuckRanks(stuck, rankThreads), e);
                }
                // not the runtime's own failure: a kernel's exception, named with the line that threw it
                throw e instanceof RunFailedException ? e : new RunFailedException(e + ThrownAt.of(e), e);
            }
            long wallMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            // the root gathered the final states; every surviving rank agrees on which rank it is
            RankNode collector = nodes.stream().filter(n -> !n.isKilled() && n.isCollector()).findFirst()
                    .orElseThrow(() -> new RunFailedException("no surviving rank holds the final states"));
            RunOutcome outcome = ResultCollector.collect(collector, wallMillis);
            return outcome;
        } finally {
            closeAll(nodes);
            threads.shutdownNow();
            try {
                // a thread that did not stop already had its time (they are daemons: the JVM may end without them)
                threads.awaitTermination(stuckThreads ? 0 : settings.rankStopMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Closes every member at once: one by one, each termination waits for the others' timeouts. */
    static void closeAll(List<RankNode> nodes) {
        List<Thread> closers = new ArrayList<>();
        for (RankNode node : nodes) {
            Thread t = new Thread(() -> {
                try {
                    node.close();
                } catch (RuntimeException e) {
                    LOG.debug("closing rank {}: {}", node.rankId(), e.toString());
                }
            }, "dfr-close-rank" + node.rankId());
            t.start();
            closers.add(t);
        }
        for (Thread t : closers) {
            try {
                t.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Waits for every rank's thread; once one failed, the others get {@link ClusterSettings#rankStopMillis} to
     * stop. Returns the ranks whose threads were still busy then (empty on success, and normally on failure).
     */
    private List<Integer> awaitRanks(List<RankNode> nodes, List<Future<?>> running,
                                     AtomicReference<RuntimeException> failure, Map<Integer, Thread> rankThreads) {
        long deadline = Long.MAX_VALUE;
        for (int i = 0; i < running.size(); i++) {
            Future<?> f = running.get(i);
            while (true) {
                if (failure.get() != null && deadline == Long.MAX_VALUE) {
                    deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.rankStopMillis());
                }
                long waitNanos = deadline == Long.MAX_VALUE ? TimeUnit.SECONDS.toNanos(1)
                        : Math.max(0, deadline - System.nanoTime());
                try {
                    await(f, Math.max(1, TimeUnit.NANOSECONDS.toMillis(waitNanos)), "run");
                    break;
                } catch (RunFailedException e) {
                    if (e.kind() != RunFailedException.Kind.TIMEOUT) {
                        throw e;
                    }
                    if (deadline != Long.MAX_VALUE && System.nanoTime() - deadline >= 0) {
                        List<Integer> stuck = new ArrayList<>();
                        for (int k = i; k < running.size(); k++) {
                            if (!running.get(k).isDone()) {
                                stuck.add(nodes.get(k).rankId());
                            }
                        }
                        return stuck;
                    }
                }
            }
        }
        return List.of();
    }

    /** "rank 1 did not stop within 30000 ms after the failure (its thread is at Kernel.update(Kernel.java:42))". */
    private String stuckRanks(List<Integer> ranks, Map<Integer, Thread> rankThreads) {
        List<String> parts = new ArrayList<>();
        for (int r : ranks) {
            Thread t = rankThreads.get(r);
            parts.add("rank " + r + (t == null ? "" : " (its thread is" + ThrownAt.of(t.getStackTrace()) + ")"));
        }
        return String.join(", ", parts) + " did not stop within "
                + settings.rankStopMillis() + " ms after it: a kernel's update that never returns?";
    }

    private static <T> T await(Future<T> future, long timeoutMillis, String what) {
        try {
            return future.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            // not the runtime's own failure: a kernel's exception, named with the line that threw it
            throw RunFailedException.failed(what, e.getCause());
        } catch (TimeoutException e) {
            throw new RunFailedException(RunFailedException.Kind.TIMEOUT,
                    what + " did not finish within " + timeoutMillis + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailedException(what + " interrupted", e);
        }
    }
}
