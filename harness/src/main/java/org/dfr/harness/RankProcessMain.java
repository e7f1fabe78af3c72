package org.dfr.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.dfr.recovery.RankKiller;
import org.dfr.recovery.ResilientRun;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.Leadership;
import org.dfr.runtime.Ownership;
import org.dfr.runtime.RankNode;
import org.dfr.runtime.ResultCollector;
import org.dfr.runtime.RunFailedException;
import org.dfr.runtime.RunOutcome;
import org.dfr.runtime.RunSpec;
import org.dfr.runtime.PartitionKernel;
import org.dfr.runtime.ThrownAt;
import org.dfr.runtime.kernel.KernelSetup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Entry point of one rank process in {@link Mode#PROCESSES}: joins the run's cluster as rank
 * {@code --rank}, runs the iteration loop (a planned failure SIGKILLs this very process), and, if it
 * is the lowest active rank at the end (the collector), collects the results and writes the report
 * to {@code --result}.
 *
 * <p>Exit codes: {@value #EXIT_OK} done; {@value #EXIT_RUN_FAILED} the run failed (the reason is
 * printed and put on the control board); {@value #EXIT_USAGE} bad arguments; {@value #EXIT_OUT_OF_MEMORY} the heap
 * ran out (the JVM's own code under {@code -XX:+ExitOnOutOfMemoryError}); {@value #EXIT_ORPHANED}
 * the launcher died, so this rank halted; {@value #EXIT_CHECKPOINT_LOST} the run failed because a
 * checkpoint a recovery needs has no copy left ({@link RunFailedException.Kind#CHECKPOINT_LOST});
 * {@value #EXIT_CLUSTER_NOT_FORMED} the members did not form their cluster, nothing was computed
 * ({@link RunFailedException.Kind#CLUSTER_NOT_FORMED});
 * 137 killed by a planned failure.
 */
@Command(name = "rank", aliases = "dfr-rank", mixinStandardHelpOptions = true,
        description = {"One rank of a processes-mode run: started by the dfr launcher, or by hand, ssh, srun or mpirun"
                + " on each host of a cluster with the configuration `dfr run ... --write-rank-config FILE` wrote.",
                "The rank id comes from --rank, else from SLURM_PROCID, OMPI_COMM_WORLD_RANK or PMI_RANK."},
        footer = {"", "Example (8 ranks by hand on one machine):",
                "  dfr run --cells 256x256 --iterations 10 --fail 1@4 --mode processes --write-rank-config run.json",
                "  for r in 0 1 2 3 4 5 6 7; do dfr rank --config run.json --rank $r --result report.json & done; wait",
                "", "Exit codes: 0 done, 1 the run failed, 2 bad arguments, 3 out of memory (the heap, -Xmx, was too"
                        + " small), 4 a needed checkpoint was lost, 5 the cluster did not form (docs/cluster.md lists"
                        + " the usual causes), 6 orphaned (stdin closed under --exit-when-stdin-closes, or the launcher"
                        + " is gone)."})
public final class RankProcessMain implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(RankProcessMain.class);

    /** Printed on stdout once this rank's member is up; the launcher starts the other ranks then. */
    public static final String MEMBER_UP_LINE = "dfr rank: member up";
    /** Starts the line a rank prints when the run failed, followed by the reason (the same at every rank, often). */
    public static final String RUN_FAILED_LINE = "dfr rank: run failed: ";
    /** Printed on stdout once this rank sees every member of the run. */
    public static final String CLUSTER_FORMED_LINE = "dfr rank: cluster formed";
    /** Printed on stdout when this rank enters the iteration loop (the launcher times start-up with it). */
    public static final String LOOP_STARTED_LINE = "dfr rank: loop started";
    /**
     * Printed on stdout when this rank begins its first iteration, checkpoint 0 taken: the launcher's power timeline
     * places the loop by the first rank's (not a spare's, which computes only once it adopts).
     */
    public static final String ITERATING_LINE = "dfr rank: iterating";
    /**
     * Printed on stdout by the collector once the report is written: a rank started by hand said nothing after
     * "loop started" (the launcher reads the report itself and does not relay this).
     */
    public static final String RESULT_LINE = "dfr rank: run done";
    /** Control-board key: wall-clock time at which the first rank entered the iteration loop. */
    public static final String LOOP_STARTED_KEY = "processes/loopStartedAtMillis";

    /**
     * System property: {@code false} skips the warm-up of the kernel and the halo path before the
     * loop (to measure what it saves); the launcher passes its own {@code dfr.*} properties on.
     */
    public static final String WARM_UP_PROPERTY = "dfr.warmUp";

    public static final int EXIT_OK = 0;
    public static final int EXIT_RUN_FAILED = 1;
    public static final int EXIT_USAGE = 2;
    /** The JVM's own exit code when its heap runs out under {@code -XX:+ExitOnOutOfMemoryError}. */
    public static final int EXIT_OUT_OF_MEMORY = 3;
    public static final int EXIT_CHECKPOINT_LOST = 4;
    public static final int EXIT_CLUSTER_NOT_FORMED = 5;
    /** Not 3, which the JVM itself exits with when its heap runs out ({@link #EXIT_OUT_OF_MEMORY}). */
    public static final int EXIT_ORPHANED = 6;

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "rank configuration (JSON)")
    Path configFile;

    @Option(names = "--rank", paramLabel = "R",
            description = "This process's rank id. Default: $SLURM_PROCID, $OMPI_COMM_WORLD_RANK or $PMI_RANK.")
    Integer rankOption;

    /** Environment variables that hold the rank id under Slurm, Open MPI and MPICH/PMI launchers, in order. */
    public static final List<String> RANK_VARIABLES = List.of("SLURM_PROCID", "OMPI_COMM_WORLD_RANK",
            "PMI_RANK");

    int rank;

    /** The option that makes a rank halt when its stdin reaches end-of-file (its ssh client is gone). */
    public static final String EXIT_WHEN_STDIN_CLOSES = "--exit-when-stdin-closes";

    /** Set to 1 to have a rank under a local launcher print a kernel exception's stack trace on its console too. */
    public static final String STACK_TRACE_VARIABLE = "DFR_STACK_TRACE";

    /**
     * System property that, when set, stands for {@value #STACK_TRACE_VARIABLE}: a pooled JVM's environment is the one
     * {@code dfr pool start} ran in, so its claim carries the run's choice here ({@link PoolClaim#stackTraces}).
     */
    static final String STACK_TRACE_PROPERTY = "dfr.stackTrace";

    /** Whether {@code environment} asks for kernel exceptions' stack traces ({@value #STACK_TRACE_VARIABLE}=1). */
    static boolean stackTracesAsked(Map<String, String> environment) {
        return "1".equals(environment.get(STACK_TRACE_VARIABLE));
    }

    /**
     * Whether this rank prints a kernel exception's stack trace on its console: always when started by hand (no
     * launcher reads its log for it), else as its claim says ({@value #STACK_TRACE_PROPERTY}, a pooled JVM) or its
     * environment ({@value #STACK_TRACE_VARIABLE}, a fresh one, which inherits the launcher's).
     */
    static boolean printsStackTraces(long launcherPid, String property, Map<String, String> environment) {
        if (launcherPid <= 0) {
            return true;
        }
        return property != null ? Boolean.parseBoolean(property) : stackTracesAsked(environment);
    }

    @Option(names = EXIT_WHEN_STDIN_CLOSES,
            description = "Halt (exit code 3) when stdin closes: under ssh, when the launcher's ssh client ends.")
    boolean exitWhenStdinCloses;

    /** The option naming the file through which rank 0 tells the others that it founded the cluster. */
    public static final String FOUNDER_UP_FILE = "--founder-up-file";
    /**
     * How long a rank waits for rank 0's member at most. Generous, and not the join timeout: 8 JVMs
     * starting on 2 loaded cores took rank 0 up to 25 s, and when rank 0 fails the launcher ends the
     * run (and kills this rank) at once anyway.
     */
    static final long FOUNDER_TIMEOUT_MILLIS = 300_000;
    /** How often a rank looks for the founder's file while it waits. */
    static final long FOUNDER_POLL_MILLIS = 5;

    @Option(names = FOUNDER_UP_FILE, paramLabel = "FILE", description = {
            "Rank 0 creates FILE once its member is up; every other rank starts its member only then (the",
            "launcher starts all ranks at once: a member that tried to join before rank 0 listened gave up)."})
    Path founderUpFile;

    /** The option of a rank process started in place of a dead rank ({@link Replacement#RESPAWN}). */
    public static final String RESPAWNED = "--respawned";

    @Option(names = RESPAWNED, description = {
            "This process replaces a dead rank (its id is the dead rank's plus the run's member count): it joins",
            "the running cluster as a spare and adopts the lost partitions in the recovery."})
    boolean respawned;

    @Option(names = "--result", required = true, paramLabel = "FILE",
            description = "where the collecting rank writes the run report")
    Path resultFile;

    public static void main(String[] args) {
        StoppedMemberThreads.install();
        System.exit(new CommandLine(new RankProcessMain()).execute(args));
    }

    @Override
    public Integer call() {
        // the configuration first: a missing file is the first thing to fix, whatever the rank id
        RankProcessConfig rc;
        try {
            rc = RankProcessConfig.read(configFile);
        } catch (UncheckedIOException e) {
            System.err.println("dfr rank: " + e.getMessage());
            return EXIT_USAGE;
        }
        Integer given = rankOption != null ? rankOption : rankFromEnvironment(System.getenv());
        if (given == null) {
            System.err.println("dfr rank: no rank id: give --rank R, or start it under a launcher that sets one of "
                    + String.join(", ", RANK_VARIABLES));
            return EXIT_USAGE;
        }
        rank = given;
        // for messages: where the id came from (under srun, --rank was never typed)
        String rankGiven = rankOption != null ? "--rank " + rank
                : "rank " + rank + " (from " + rankVariable(System.getenv()) + ")";
        if (rc.launcherPid() > 0) {
            haltWhenGone(rc.launcherPid());
        }
        if (exitWhenStdinCloses) {
            if (rc.run().capIdleHosts()) {
                System.err.println("dfr rank: " + EXIT_WHEN_STDIN_CLOSES + " cannot be used with capping (stdin carries"
                        + " the launcher's capping replies)");
                return EXIT_USAGE;
            }
            haltWhenStdinCloses();
        }
        RunConfig config = rc.run();
        RunSpec spec = config.runSpec();
        if (respawned && (!spec.isRespawned(rank) || rc.respawnWaitMillis() <= 0)) {
            System.err.println("dfr rank: " + RESPAWNED + " needs a run with respawned replacements and a rank id of"
                    + " at least " + spec.memberCount() + ", got rank " + rank);
            return EXIT_USAGE;
        }
        if (rank < 0 || (rank >= spec.memberCount() && !respawned)) {
            System.err.println("dfr rank: " + rankGiven + " does not exist; ranks are 0.." + (spec.memberCount() - 1));
            return EXIT_USAGE;
        }
        KernelSetup setup;
        try {
            setup = config.kernelSetup();
        } catch (IllegalArgumentException e) {
            System.err.println("dfr rank: " + e.getMessage());
            return EXIT_USAGE;
        }
        PartitionKernel kernel = setup.kernel();
        ResilientRun resilient = new ResilientRun(kernel, spec).strategy(config.strategy()).faults(config.faultPlan());
        if (config.capIdleHosts()) {
            resilient.idleListener(new LauncherCappingClient(System.out, System.in,
                    LauncherCappingClient.DEFAULT_READY_TIMEOUT_MILLIS));
        } else if (rc.launcherPid() > 0) {
            // a local launcher places the recovery phases of the power timeline by these lines, capped or not
            resilient.idleListener(LauncherCappingClient.reportingOnly(System.out));
        }
        ClusterSettings settings = rc.clusterSettings();
        RankNode node = null;
        try {
            if (founderUpFile != null && rank != 0 && !respawned) {
                awaitFounder(founderUpFile, FOUNDER_TIMEOUT_MILLIS);
            }
            node = startMember(spec, kernel, settings, resilient);
            if (founderUpFile != null && rank == 0) {
                announceFounder(founderUpFile);
            }
            System.out.println(MEMBER_UP_LINE + " (rank " + rank + ")");
            long memberUpMillis = sinceJvmStart();
            long memberUpCpuMillis = cpuMillis();
            if (respawned) {
                // the recovery waits for this rank: join and adopt at once; the kernel warms up in its recompute
                LOG.info("rank {}: respawned: JVM to member up {} ms ({} ms CPU)", rank, memberUpMillis,
                        memberUpCpuMillis);
            } else {
                // a rank whose JVM came up late may find the loop started and a member killed already: the
                // others saw every member, so the cluster formed (campaign seed 86, trial 8)
                boolean underWay = node.awaitClusterSizeOrStart(spec.memberCount(), settings.joinTimeoutMillis(),
                        LOOP_STARTED_KEY);
                if (underWay) {
                    LOG.warn("rank {}: the run started before this rank saw all {} members (it sees ranks {}): a member"
                            + " died since, or this member's list is behind", rank, spec.memberCount(), node.liveRanks());
                } else {
                    // partitions migrate in the background after the joins: rank 0 lets them settle (so that
                    // the loop does not share the CPU with moving checkpoints, and a member lost right after
                    // the start cannot take a checkpoint's only copy with it), then holds migrations
                    if (Leadership.isFounder(rank)) {
                        node.holdMigrations(settings.joinTimeoutMillis());
                    }
                    node.awaitMigrationsHeld(settings.joinTimeoutMillis());
                }
                System.out.println(CLUSTER_FORMED_LINE + " (rank " + rank + ", " + spec.memberCount()
                        + " members)");
                long formedMillis = sinceJvmStart();
                long formedCpuMillis = cpuMillis();
                if (!"false".equals(System.getProperty(WARM_UP_PROPERTY))) {
                    warmUp(kernel, spec, settings);
                }
                // every rank offers its start; the first one wins, all are within the first reduction of each other
                node.control().putIfAbsent(LOOP_STARTED_KEY, Long.toString(System.currentTimeMillis()));
                System.out.println(LOOP_STARTED_LINE + " (rank " + rank + ")");
                LOG.info("rank {}: start-up: JVM to member up {} ms ({} ms CPU), to cluster formed {} ms ({} ms CPU),"
                        + " to loop {} ms ({} ms CPU)", rank, memberUpMillis, memberUpCpuMillis, formedMillis,
                        formedCpuMillis, sinceJvmStart(), cpuMillis());
            }
            if (!respawned) {
                node.whenIterating(() -> System.out.println(ITERATING_LINE + " (rank " + rank + ")"));
            }
            node.run();
            long endedAt = System.currentTimeMillis();
            if (node.isCollector()) {
                collect(node, config, settings, setup, endedAt);
            } else if (!node.awaitCollected(rc.collectTimeoutMillis())) {
                System.err.println("dfr rank: rank " + rank + ": no collector within " + rc.collectTimeoutMillis()
                        + " ms; leaving");
            }
            return EXIT_OK;
        } catch (RuntimeException e) {
            String reason = e instanceof RunFailedException ? e.getMessage() : "rank " + rank + ": " + e + ThrownAt.of(e);
            RunFailedException.Kind kind = e instanceof RunFailedException rf ? rf.kind() : RunFailedException.Kind.OTHER;
            System.err.println(RUN_FAILED_LINE + reason);
            if (!(e instanceof RunFailedException)) {
                // a kernel's exception: under a local launcher, whose console shows this line, the stack trace goes to
                // the rank's log (--rank-log-dir) unless asked for; a rank started by hand prints it, its log is read
                // after the fact
                if (printsStackTraces(rc.launcherPid(), System.getProperty(STACK_TRACE_PROPERTY), System.getenv())) {
                    e.printStackTrace();
                } else {
                    LOG.info("rank {}: the stack trace of its failure", rank, e);
                }
            }
            announceFailure(node, kind, reason);
            return switch (kind) {
                case CHECKPOINT_LOST -> EXIT_CHECKPOINT_LOST;
                case CLUSTER_NOT_FORMED -> EXIT_CLUSTER_NOT_FORMED;
                default -> EXIT_RUN_FAILED;
            };
        } finally {
            if (node != null) {
                node.close();
            }
        }
    }

    /**
     * Compiles the kernel and the halo path of this rank's partition (partition 0's for a spare,
     * which may adopt any) before the loop. Only once the cluster is safe, never while members are
     * still joining: on a loaded machine, members busy computing while others joined made the
     * master lose members for good (a second master was elected, or members were dropped), and the
     * cluster never formed.
     */
    private void warmUp(PartitionKernel kernel, RunSpec spec, ClusterSettings settings) {
        // the partition this rank starts with (partition 0's for a spare, which may adopt any)
        int[] owned = Ownership.initial(spec.partitionCount()).partitionsOf(rank);
        int partition = owned.length > 0 ? owned[0] : 0;
        long start = System.nanoTime();
        // never longer than the run itself: a warm-up only pays for a run that is longer than it
        KernelWarmUp.forRun(kernel.cellsOf(partition), spec.iterations()).run(kernel, partition);
        try {
            TransportWarmUp.forRun(kernel, partition, TransportWarmUp.DEFAULT_ROUND_TRIPS, spec.iterations())
                    .run(InetAddress.getByName(settings.addressOfHost(spec.hostOf(rank))));
        } catch (UnknownHostException e) {
            LOG.debug("rank {}: no transport warm-up: {}", rank, e.getMessage());
        }
        LOG.debug("rank {}: kernel and halo path warmed up in {} ms", rank,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

    /**
     * Starts this rank's member; a rank other than the founder tries again when its member could not join
     * ({@link RankNode#startJoining}).
     */
    private RankNode startMember(RunSpec spec, PartitionKernel kernel, ClusterSettings settings,
                                 ResilientRun resilient) {
        return rank == 0
                ? RankNode.start(rank, spec, kernel, settings, resilient.failureHandler(),
                        resilient.faultInjector(RankKiller.SIGKILL_PROCESS))
                : RankNode.startJoining(rank, spec, kernel, settings, resilient.failureHandler(),
                        resilient.faultInjector(RankKiller.SIGKILL_PROCESS));
    }

    private void collect(RankNode node, RunConfig config, ClusterSettings settings, KernelSetup setup, long endedAt) {
        String started = node.control().get(LOOP_STARTED_KEY);
        long wallMillis = started == null ? 0 : Math.max(0, endedAt - Long.parseLong(started));
        RunOutcome outcome = ResultCollector.collect(node, wallMillis);
        RunReport report = RunReports.of(config, settings, setup, outcome, Runner.noEnergy());
        RunReports.write(report, resultFile);
        System.out.println(RESULT_LINE + " (rank " + node.rankId() + "): " + report.iterationsRun() + " iterations, "
                + report.recoveries().size() + " recover" + (report.recoveries().size() == 1 ? "y" : "ies")
                + ", field sha256 " + report.fieldSha256() + "; report " + resultFile.toAbsolutePath());
    }

    private static void announceFailure(RankNode node, RunFailedException.Kind kind, String reason) {
        if (node == null) {
            return;
        }
        try {
            node.control().put(RankNode.FAILED_KEY, RunFailedException.boardValue(kind, reason));
        } catch (RuntimeException ignored) {
            // the cluster may be gone already; the launcher sees the exit code and the message anyway
        }
    }

    /**
     * The rank id a cluster launcher put in the environment: the first of {@link #RANK_VARIABLES} that is
     * set, or null.
     *
     * @throws NumberFormatException when that variable is not a number
     */
    static Integer rankFromEnvironment(Map<String, String> env) {
        String name = rankVariable(env);
        return name == null ? null : Integer.valueOf(env.get(name).trim());
    }

    /** The first of {@link #RANK_VARIABLES} that is set in {@code env}, or null. */
    static String rankVariable(Map<String, String> env) {
        for (String name : RANK_VARIABLES) {
            String value = env.get(name);
            if (value != null && !value.isBlank()) {
                return name;
            }
        }
        return null;
    }

    /** Halts this JVM when stdin ends: ssh closes it when its client (the launcher's child) is gone. */
    private static void haltWhenStdinCloses() {
        Thread watch = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // nothing is sent on stdin; read only to see it end
                }
            } catch (IOException e) {
                // a broken stdin is a gone launcher too
            }
            Runtime.getRuntime().halt(EXIT_ORPHANED);
        }, "dfr-stdin-watch");
        watch.setDaemon(true);
        watch.start();
    }

    /** Where the start-up log counts from: the JVM's start, or a pooled JVM's claim ({@link #startUpFromNow}). */
    private static volatile Instant startUpBegan =
            Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
    private static volatile long startUpCpuMillisBefore;

    /** A pooled JVM was claimed: its start-up log counts wall and CPU time from now, not from its JVM's start. */
    static void startUpFromNow() {
        startUpCpuMillisBefore = cpuMillis();
        startUpBegan = Instant.now();
    }

    /**
     * Milliseconds since this JVM started or was claimed, for the start-up log (not the process's start instant,
     * which the JDK rounds to the boot time's whole second).
     */
    private static long sinceJvmStart() {
        return Duration.between(startUpBegan, Instant.now()).toMillis();
    }

    /**
     * Waits until rank 0 created {@code file}: this JVM started with the others and did its own
     * start-up meanwhile, but its member must not try to join before rank 0's member is up (a
     * refused connection to the required member makes Hazelcast give up joining at once).
     */
    static void awaitFounder(Path file, long timeoutMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!Files.exists(file)) {
            if (System.nanoTime() > deadline) {
                throw new RunFailedException("rank 0 did not start its member within " + timeoutMillis + " ms ("
                        + file + " was not created)");
            }
            try {
                Thread.sleep(FOUNDER_POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RunFailedException("interrupted while waiting for rank 0", e);
            }
        }
    }

    /** Rank 0's part of {@link #awaitFounder}: creates the file (atomically: a temp file renamed). */
    static void announceFounder(Path file) {
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, "up\n");
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("rank 0 cannot tell the others that it is up: " + e.getMessage(), e);
        }
    }

    /** CPU time this process used so far (every thread; since its claim if pooled), for the start-up log. */
    private static long cpuMillis() {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toMillis).orElse(-1L)
                - startUpCpuMillisBefore;
    }

    /** Halts this JVM the moment the launcher is gone (also if it is gone already). */
    private static void haltWhenGone(long launcherPid) {
        Optional<ProcessHandle> launcher = ProcessHandle.of(launcherPid);
        if (launcher.isEmpty() || !launcher.get().isAlive()) {
            Runtime.getRuntime().halt(EXIT_ORPHANED);
        }
        launcher.get().onExit().thenRun(() -> Runtime.getRuntime().halt(EXIT_ORPHANED));
    }
}
