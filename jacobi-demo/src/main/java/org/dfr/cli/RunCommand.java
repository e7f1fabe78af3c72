package org.dfr.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;
import org.dfr.cli.logging.RankLogFiles;
import org.dfr.cli.options.CheckpointCopiesMixin;
import org.dfr.cli.options.CheckpointIntervalOptions;
import org.dfr.cli.options.CliFiles;
import org.dfr.cli.options.FaultOptions;
import org.dfr.cli.options.FileCheckpointOptions;
import org.dfr.cli.options.GivenOptions;
import org.dfr.cli.options.HostList;
import org.dfr.cli.options.HostListConverter;
import org.dfr.cli.options.KernelMixin;
import org.dfr.cli.options.PoolDirectoryOption;
import org.dfr.cli.options.PowerModelOptions;
import org.dfr.cli.options.Ranges;
import org.dfr.cli.options.Sizes;
import org.dfr.cli.options.SizesConverter;
import org.dfr.cli.options.SshOptions;
import org.dfr.cli.options.StrategyConverter;
import org.dfr.harness.Campaign;
import org.dfr.harness.EmbeddedLimits;
import org.dfr.harness.Mode;
import org.dfr.harness.ProcessLauncher;
import org.dfr.harness.RankJvmPool;
import org.dfr.harness.RankProcessConfig;
import org.dfr.harness.RankProcessListener;
import org.dfr.harness.Replacement;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.harness.RunReports;
import org.dfr.harness.Runner;
import org.dfr.harness.SshLauncher;
import org.dfr.power.energy.Phase;
import org.dfr.power.meter.PowerModel;
import org.dfr.recovery.FaultPlan;
import org.dfr.recovery.Strategy;
import org.dfr.runtime.CheckpointSchedule;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.HazelcastConfigs;
import org.dfr.runtime.RunFailedException;
import org.dfr.runtime.RunSpec;
import org.dfr.runtime.kernel.KernelChoice;
import org.dfr.runtime.kernel.KernelProblem;
import org.dfr.runtime.kernel.ReferenceSolver;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code dfr run}: any installed kernel on ranks that are Hazelcast members, with optional fault
 * injection and recovery. Prints the field digest (equal to the sequential one, whatever failed),
 * the final residual and throughput, and writes the run report.
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs a kernel (default jacobi2d5) on ranks that are Hazelcast members, optionally killing ranks"
                + " and recovering by global or data-flow rollback. Prints the field digest (SHA-256 of the"
                + " interior)."},
        footer = {"", "Examples:",
                "  dfr run --ranks-grid 2x4 --cells 256x256 --iterations 10 --checkpoint-every 10 --fail 1@4",
                "  dfr run --kernel heat3d7 --ranks-grid 2x2x2 --cells 32x32x32 --iterations 20 --fail 3@7 --mode processes",
                "  dfr run --kernel graph-jacobi --ranks-grid 8 --cells 100000 --iterations 500 --tolerance 1e-12",
                "  dfr run --kernel heat1d3 --cells 4096 --iterations 10 --reference",
                "", "Exit codes: 0 success, 1 the run failed (message says why), 2 bad arguments."})
public final class RunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    KernelMixin kernel;

    @Option(names = "--ranks-grid", paramLabel = "PX[xPY[xPZ]]", converter = SizesConverter.class,
            description = "Partitions (one rank each) per axis; as many axes as --cells. Default: 2x4 for 2 axes,"
                    + " 8 for 1, 2x2x2 for 3.")
    Sizes ranksGrid;

    @Option(names = "--cells", paramLabel = "NX[xNY[xNZ]]", required = true, converter = SizesConverter.class,
            description = "Interior cells per axis (a graph kernel: its vertex count).")
    Sizes cells;

    @Option(names = "--iterations", paramLabel = "N", required = true,
            description = "Iterations (>= 1); with --tolerance, the most that run.")
    int iterations;

    @Option(names = "--tolerance", paramLabel = "EPS",
            description = "Stop after the first iteration whose global residual is below EPS (> 0).")
    Double tolerance;

    @Mixin
    CheckpointIntervalOptions checkpointInterval;

    @Option(names = "--mode", paramLabel = "embedded|processes", defaultValue = "embedded",
            description = "Ranks as members in this JVM, or one JVM per rank. Default: ${DEFAULT-VALUE}.")
    Mode mode;

    @Option(names = "--ranks-per-host", paramLabel = "H", defaultValue = "" + RunSpec.DEFAULT_RANKS_PER_HOST,
            description = "Ranks grouped per host (for host failures and capping). Default: ${DEFAULT-VALUE}.")
    int ranksPerHost;

    @Option(names = "--spares", paramLabel = "S", defaultValue = "0",
            description = "Hot spare ranks that adopt lost partitions. Default: ${DEFAULT-VALUE}.")
    int spares;

    @Option(names = "--replacement", paramLabel = "spare|adopt|respawn", description = {
            "Who takes over a dead rank's partitions: a spare (--spares S), the least loaded survivor (adopt),",
            "or a fresh rank process the launcher starts in its place (respawn; --mode processes).",
            "Default: spare with --spares, else adopt."})
    String replacement;

    @Option(names = "--respawn-wait-millis", paramLabel = "MS",
            description = {"With --replacement respawn: how long a recovery waits for the fresh rank process to join",
                    "before a survivor adopts instead (1000..the recovery timeout). Default: "
                    + ClusterSettings.DEFAULT_RESPAWN_WAIT_MILLIS + "."})
    Long respawnWaitMillis;

    @Option(names = "--strategy", paramLabel = "global|dfr", defaultValue = "dfr", converter = StrategyConverter.class,
            description = "Rollback strategy after a failure. Default: ${DEFAULT-VALUE}.")
    Strategy strategy;

    @Mixin
    FaultOptions faults;

    @Option(names = "--host-addresses", paramLabel = "ADDR[,ADDR...]", converter = HostListConverter.class,
            description = "The address each host's ranks bind and advertise, host 0 first (rank 0's is the seed the"
                    + " others join through); e.g. 127.0.0.2,127.0.0.3,... to give every simulated host its own"
                    + " loopback address. Default: all on 127.0.0.1.")
    HostList hostAddresses;

    @Option(names = "--base-port", paramLabel = "PORT",
            description = "First port of the members' range on every host (rank 0 holds it). Default: a free range.")
    Integer basePort;

    @Mixin
    CheckpointCopiesMixin checkpointCopies;

    @Option(names = "--heartbeat-timeout-millis", paramLabel = "MS", converter = Ranges.HeartbeatMillis.class,
            defaultValue = "" + ClusterSettings.DEFAULT_MAX_NO_HEARTBEAT_MILLIS,
            description = "A member silent this long is removed (Hazelcast's max no-heartbeat time, whole seconds,"
                    + " >= 1000). A killed rank is found much faster, by its refused connections; this bounds a"
                    + " frozen one. Default: ${DEFAULT-VALUE}.")
    long heartbeatTimeoutMillis;

    @Option(names = "--write-rank-config", paramLabel = "FILE.json",
            description = "Write the rank processes' configuration to FILE and print how to start each rank"
                    + " (`dfr rank`, by hand, ssh or srun) instead of running.")
    Path writeRankConfig;

    @Option(names = "--cap-idle-hosts", description = "Cap the CPU frequency of hosts whose ranks are all idle during recovery.")
    boolean capIdleHosts;

    @Option(names = "--sysfs-root", paramLabel = "DIR", description = "Root of the sysfs tree for frequency capping, the"
            + " power meters (RAPL, perf) and the load model's f/f_max. Default: /.")
    Path sysfsRoot;

    @Mixin
    PowerModelOptions powerModel;

    @Mixin
    SshOptions ssh;

    @Option(names = "--report", paramLabel = "FILE.json", description = "Write the run report (JSON) to FILE.")
    Path report;

    @Mixin
    FileCheckpointOptions fileCheckpoints;

    @Option(names = "--samples", paramLabel = "FILE.csv", description = "Write the power time series (CSV:"
            + " timestamp,epoch_millis,seconds,host,phase,watts,source,source_detail; see docs/experiments.md).")
    Path samples;

    @Option(names = "--rank-log-dir", paramLabel = "DIR",
            description = "Processes mode: every rank process also writes its own log to DIR/rank-R.log (the runtime at"
                    + " DEBUG, Hazelcast at INFO; the console prints what it always does). DIR is made if missing; rank"
                    + " logs of an earlier run in it are replaced.")
    Path rankLogDir;

    @Option(names = "--pool", description = "Processes mode: claim the rank JVMs from the pool of warm JVMs `dfr pool"
            + " start` keeps (see --pool-dir): the run starts in seconds instead of 10-20 s, and new JVMs warm up for"
            + " the next run after it. Ranks the pool cannot serve start fresh JVMs, with a line that says why.")
    boolean pool;

    @Mixin
    PoolDirectoryOption poolDirectory;

    @Option(names = "--reference", description = "Run the plain sequential implementation instead and print its digest.")
    boolean reference;

    @Option(names = "--check-reference", description = "After the run, compute the sequential reference (what"
            + " --reference prints) and compare the digests: exit 1 when they differ (a kernel that is not"
            + " deterministic, or that declares too few inputs). Costs one sequential run.")
    boolean checkReference;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (iterations < 1) {
            throw new ParameterException(spec.commandLine(), "--iterations must be >= 1, got " + iterations);
        }
        if (tolerance != null && !(tolerance > 0 && Double.isFinite(tolerance))) {
            throw new ParameterException(spec.commandLine(), "--tolerance " + tolerance + " is not allowed: give a number > 0");
        }
        if (ssh.givenWithoutHosts() != null) {
            throw new ParameterException(spec.commandLine(), ssh.givenWithoutHosts() + " is only used with --hosts"
                    + " (it says how ranks are started over ssh)");
        }
        if (writeRankConfig != null) {
            requireRankConfigCompatible();
        }
        if (ssh.given()) {
            requireSshCompatible();
            mode = Mode.PROCESSES;
            hostAddresses = ssh.hosts();
        }
        // a typo here used to run without capping, saying so only in a warning
        CliFiles.requireExistingDirectory(spec, "--sysfs-root", sysfsRoot,
                "the root of a sysfs tree: / for this machine's, or a fake tree");
        if (ranksPerHost < 1) {
            throw new ParameterException(spec.commandLine(), "--ranks-per-host " + ranksPerHost + " is not allowed: give 1 or more");
        }
        if (spares < 0) {
            throw new ParameterException(spec.commandLine(), "--spares " + spares + " is not allowed: give 0 or more");
        }
        int interval = checkpointInterval.interval(spec, iterations);
        RunConfig config;
        try {
            config = new RunConfig(kernel.choice(), kernel.jars(), cells.values(), grid().values(), iterations,
                    tolerance == null ? RunSpec.NO_TOLERANCE : tolerance, interval, mode, ranksPerHost, spares,
                    strategy, faults.rankKills(), faults.hostKills(), faults.duringRecovery(), capIdleHosts, sysfsRoot,
                    null, null)
                    .withMtbfSeconds(checkpointInterval.mtbfSeconds())
                    .withCommitLagIterations(checkpointInterval.commitLagIterations());
        } catch (IllegalArgumentException e) {
            // a message about --ranks-grid when none was given must say where the value came from
            String defaulted = ranksGrid == null && String.valueOf(e.getMessage()).contains("--ranks-grid " + grid())
                    ? " (--ranks-grid was not given; " + grid() + " is the default for " + cells.values().size()
                            + (cells.values().size() == 1 ? " axis)" : " axes)") : "";
            throw new ParameterException(spec.commandLine(), e.getMessage() + defaulted, e);
        }
        if (config.partitionCount() > MAX_RANKS) {
            throw new ParameterException(spec.commandLine(), "--ranks-grid " + grid() + " makes "
                    + config.partitionCount() + " ranks: at most " + MAX_RANKS
                    + " (each is a Hazelcast member with ports of its own)");
        }
        if ((long) config.partitionCount() + spares > MAX_RANKS) {
            throw new ParameterException(spec.commandLine(), "--spares " + spares + " is not allowed: 0.."
                    + (MAX_RANKS - config.partitionCount()) + " (at most " + MAX_RANKS + " ranks in all; a run of "
                    + config.partitionCount() + " partitions)");
        }
        try {
            EmbeddedLimits.ofThisJvm().require(config);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        if (reference) {
            // before the faults' own checks: with --reference no fault is meaningful, whichever it is
            faults.requireNone(spec, "--reference runs the sequential implementation without failures");
        }
        faults.requireMeaningful(spec, config.faultPlan(), config.runSpec().memberCount());
        checkpointCopies.validated(spec);
        if (reference) {
            requireOnlyReferenceOptions();
            return runReference(out, config);
        }
        PowerModel model = powerModel.model(spec.commandLine());
        CliFiles.requireWritableTarget(spec, "--report", report);
        CliFiles.requireWritableTarget(spec, "--samples", samples);
        ClusterSettings settings = clusterSettings(config);
        Replacement chosen = replacement();
        chosen.applyTo(settings);
        if (respawnWaitMillis != null) {
            if (chosen != Replacement.RESPAWN) {
                throw new ParameterException(spec.commandLine(), "--respawn-wait-millis is only used with --replacement"
                        + " respawn (given: " + chosen.optionValue() + ")");
            }
            if (respawnWaitMillis < 1000 || respawnWaitMillis >= settings.recoveryTimeoutMillis()) {
                throw new ParameterException(spec.commandLine(), "--respawn-wait-millis " + respawnWaitMillis
                        + " is not allowed: 1000.." + (settings.recoveryTimeoutMillis() - 1)
                        + " (below the recovery timeout, which bounds the whole agreement)");
            }
            settings.respawnWaitMillis(respawnWaitMillis);
        }
        settings.maxNoHeartbeatMillis(Math.toIntExact(heartbeatTimeoutMillis));
        checkpointCopies.applyTo(spec, settings);
        fileCheckpoints.applyTo(spec, config, settings, writeRankConfig == null,
                line -> spec.commandLine().getErr().println("dfr run: " + line));
        if (basePort != null) {
            if (basePort < 1 || basePort > 65_000) {
                throw new ParameterException(spec.commandLine(), "--base-port " + basePort + " is not allowed: 1..65000");
            }
            if (writeRankConfig == null && !ssh.given()) {
                requireFreePorts(settings, config.runSpec());
            }
            settings.basePort(basePort);
        }
        List<String> rankJvmOptions = rankLogOptions(config);
        RankJvmPool rankPool = rankPool(config);
        if (writeRankConfig != null) {
            return writeRankConfig(out, config, settings);
        }
        RunReport result;
        try (InterruptNotice interrupted = InterruptNotice.install(spec.commandLine().getErr(),
                () -> "dfr run: interrupted (SIGINT or SIGTERM) " + secondsSinceCommand() + " after the command, before"
                        + " the run finished: no digest" + (report == null ? "" : ", no report (" + report + ")")
                        + (samples == null ? "" : ", no samples (" + samples + ")"))) {
            try {
                result = ssh.given()
                    ? new SshLauncher(ssh.sshCommand(), ssh.remoteJava(), ssh.sharedDirectory(settings.clusterName()),
                            line -> spec.commandLine().getErr().println("dfr run: " + line)).run(config, settings)
                    : new Runner(settings).powerModel(model).samples(samples).startUpListener(startUpLines(out))
                            .rankJvmOptions(rankJvmOptions).rankPool(rankPool).run(config);
            } catch (RunFailedException e) {
                if (interrupted.shuttingDown() || e.kind() == RunFailedException.Kind.INTERRUPTED) {
                    // the launcher stopped because of the signal: the notice says so, once
                    interrupted.sayOnce();
                    return 130;
                }
                spec.commandLine().getErr().println("dfr run: the run failed: " + e.getMessage());
                DfrMain.printStackTraceIfAsked(e, spec.commandLine().getErr());
                return 1;
            }
        }
        printSummary(out, result);
        printNotInjected(out, config.faultPlan(), result);
        if (rankPool != null) {
            refill(out, rankPool);
        }
        if (report != null) {
            RunReports.write(result, report);
            out.println("report:          " + report);
        }
        if (samples != null) {
            out.println("samples:         " + samples);
        }
        if (checkReference) {
            out.flush();
            String expected = Campaign.referenceDigest(config, result.iterationsRun());
            if (!expected.equals(result.fieldSha256())) {
                out.println("reference:       DIFFERENT: the sequential reference gives " + expected);
                out.flush();
                spec.commandLine().getErr().println(referenceDiffers(result.recoveries().size()));
                return 1;
            }
            out.println("reference:       the same digest as the sequential reference");
        }
        out.flush();
        return 0;
    }

    /**
     * What a field that differs from the reference's says about the kernel: a run without a recovery points at the
     * kernel's arithmetic or its declarations, one with recoveries may point at state a recovery does not restore.
     */
    static String referenceDiffers(int recoveries) {
        String unsound = "the kernel is not deterministic (HashMap order, Math.random), writes cells it does not own or"
                + " reads an input it does not declare (whose halo never comes)";
        if (recoveries == 0) {
            return "dfr run: the field differs from the sequential reference's in a run without a recovery: " + unsound
                    + " (docs/writing-a-kernel.md)";
        }
        return "dfr run: the field differs from the sequential reference's after " + recoveries + " recover"
                + (recoveries == 1 ? "y" : "ies") + ": run the same command without failures; if that one matches, the"
                + " kernel keeps state outside its buffers (static fields, counters), which a recovery does not restore;"
                + " if it differs too, " + unsound + " (docs/writing-a-kernel.md)";
    }

    /** The ranks start here: every host's range of --base-port must be free on its address. */
    private void requireFreePorts(ClusterSettings settings, RunSpec run) {
        int count = HazelcastConfigs.portCount(run.memberCount());
        // hosts simulated on one address share its range: each address once
        for (String address : IntStream.range(0, run.hostCount()).mapToObj(settings::addressOfHost).distinct().toList()) {
            int taken = HazelcastConfigs.firstPortInUse(address, basePort, count);
            if (taken >= 0) {
                throw new ParameterException(spec.commandLine(), "--base-port " + basePort + ": port " + taken + " on "
                        + address + " is in use; the run needs " + basePort + ".." + (basePort + count - 1)
                        + " free on every host's address (leave out --base-port for a free range)");
            }
        }
    }

    /** The most ranks a run takes (spares included). */
    static final int MAX_RANKS = 1024;

    /**
     * Options that promise an output or an effect the sequential reference does not have (--report wrote no file).
     * The layout and recovery options (--ranks-grid, --mode, --strategy, ...) are accepted and not used: the digest
     * does not depend on them, so a run's own command line with --reference added prints the digest it must match.
     */
    private static final List<String> NOT_FOR_THE_REFERENCE = List.of("--report", "--samples", "--write-rank-config",
            "--checkpoint-dir", "--file-checkpoint-every", "--restart-from", "--cap-idle-hosts", "--hosts",
            "--check-reference");

    private void requireOnlyReferenceOptions() {
        GivenOptions.firstOf(spec, NOT_FOR_THE_REFERENCE).ifPresent(name -> {
            throw new ParameterException(spec.commandLine(), "--reference runs the sequential implementation alone"
                    + " and prints its digest: " + name + " does nothing with it (leave out "
                    + String.join(", ", NOT_FOR_THE_REFERENCE) + ")");
        });
    }

    /** The option the host addresses came from, for messages. */
    private String addressOption() {
        return ssh.given() ? "--hosts" : "--host-addresses";
    }

    /** Whether the user asked for embedded mode on the command line (not just by default). */
    private boolean embeddedAskedFor() {
        return mode == Mode.EMBEDDED && spec.commandLine().getParseResult().hasMatchedOption("--mode");
    }

    /** The options --hosts does not work with (yet), each named in one line. */
    private void requireSshCompatible() {
        String conflict = hostAddresses != null ? "--host-addresses (--hosts gives the addresses)"
                : writeRankConfig != null ? "--write-rank-config (it starts nothing)"
                : capIdleHosts ? "--cap-idle-hosts (capping over ssh is not supported yet)"
                : samples != null ? "--samples (power is sampled by a local launcher only)"
                : embeddedAskedFor() ? "--mode embedded (it starts one rank process per rank)"
                : null;
        if (conflict != null) {
            throw new ParameterException(spec.commandLine(), "--hosts cannot be combined with " + conflict);
        }
    }

    /** The pool {@code --pool} asks for, or null; refused where no local launcher starts rank JVMs. */
    private RankJvmPool rankPool(RunConfig config) {
        if (!pool) {
            if (poolDirectory.given()) {
                throw new ParameterException(spec.commandLine(), "--pool-dir is only used with --pool");
            }
            return null;
        }
        String without = config.mode() != Mode.PROCESSES ? "--mode embedded (its ranks share this JVM; add --mode"
                + " processes)"
                : ssh.given() ? "--hosts (the pool's JVMs are on this machine)"
                : writeRankConfig != null ? "--write-rank-config (it starts nothing)"
                : null;
        if (without != null) {
            throw new ParameterException(spec.commandLine(), "--pool cannot be used with " + without);
        }
        return poolDirectory.pool(spec.commandLine());
    }

    /**
     * Starts, in the background, as many JVMs as the run took from the pool: the next run finds it full again. The
     * pool's own options (heap, idle time) hold; its JVMs outlive this command.
     */
    private void refill(PrintWriter out, RankJvmPool rankPool) {
        int started = rankPool.refill(new ProcessLauncher(new ClusterSettings())::pooledJvmCommand);
        if (started > 0) {
            out.println("pool:            " + started + " new warm JVMs for the next run (" + rankPool.directory() + ")");
        }
    }

    /** The rank JVMs' options for {@code --rank-log-dir}, with its directory made and emptied of earlier rank logs. */
    private List<String> rankLogOptions(RunConfig config) {
        if (rankLogDir == null) {
            return List.of();
        }
        if (writeRankConfig != null) {
            throw new ParameterException(spec.commandLine(), "--rank-log-dir is not used with --write-rank-config: no"
                    + " launcher starts the ranks (give each rank -Ddfr.log=DEBUG in DFR_JAVA_OPTS instead)");
        }
        if (config.mode() != Mode.PROCESSES || ssh.given()) {
            throw new ParameterException(spec.commandLine(), "--rank-log-dir is only used with --mode processes on this"
                    + " machine (embedded ranks log in this JVM: -Ddfr.log=DEBUG in DFR_JAVA_OPTS; with --hosts each"
                    + " rank logs where it runs)");
        }
        if (Files.exists(rankLogDir) && !Files.isDirectory(rankLogDir)) {
            throw new ParameterException(spec.commandLine(), "--rank-log-dir " + rankLogDir + " is not a directory");
        }
        try {
            Files.createDirectories(rankLogDir);
            RankLogFiles.deleteIn(rankLogDir);
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--rank-log-dir " + rankLogDir + " cannot be used: " + e);
        }
        return RankLogFiles.jvmOptions(rankLogDir);
    }

    /**
     * The options that need the launcher, which --write-rank-config does not run (it only describes the ranks
     * that someone else starts): accepted, they would silently do nothing, or worse (the ranks of a run with
     * --cap-idle-hosts waited 10 s at every recovery for a launcher to cap their hosts).
     */
    private void requireRankConfigCompatible() {
        String conflict = capIdleHosts ? "--cap-idle-hosts (capping is done by a launcher, and no launcher runs)"
                : samples != null ? "--samples (power is sampled by a launcher, and no launcher runs)"
                : report != null ? "--report (each rank writes its own: dfr rank --result FILE)"
                : checkReference ? "--check-reference (no run here to check: dfr run ... --reference prints the digest)"
                : embeddedAskedFor() ? "--mode embedded (the ranks it describes are processes)"
                : null;
        if (conflict != null) {
            throw new ParameterException(spec.commandLine(), "--write-rank-config cannot be combined with " + conflict);
        }
    }

    /** The replacement asked for (or the default for --spares), checked against the mode and spares. */
    private Replacement replacement() {
        Replacement r;
        try {
            r = replacement == null ? Replacement.defaultFor(spares)
                    : Replacement.parse(replacement);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        String problem = r.problem(spares, mode, ssh.given());
        if (problem == null && r == Replacement.RESPAWN && writeRankConfig != null) {
            problem = "--replacement respawn cannot be combined with --write-rank-config: ranks started by hand have"
                    + " no launcher to start fresh ones";
        }
        if (problem != null) {
            throw new ParameterException(spec.commandLine(), problem);
        }
        return r;
    }

    /**
     * Prints when the rank processes formed their cluster and when the first iteration began, in
     * seconds since this command started (JVM start-up included): start-up is what a user waits for.
     */
    static RankProcessListener startUpLines(PrintWriter out) {
        return new RankProcessListener() {
            @Override
            public void started(int rank, ProcessHandle process) {
            }

            @Override
            public void clusterFormed(int members, long millis) {
                print("cluster formed:  " + members + " members in " + secondsSinceCommand());
            }

            @Override
            public void firstIteration(long millis) {
                print("first iteration: " + secondsSinceCommand() + " after the command");
            }

            private void print(String line) {
                synchronized (out) {
                    out.println(line);
                    out.flush();
                }
            }
        };
    }

    /**
     * Environment variable: when the command began, in milliseconds since the epoch (the {@code ./dfr} script sets
     * it before it checks the build and starts this JVM).
     */
    static final String COMMAND_START_VARIABLE = "DFR_COMMAND_START_MILLIS";

    /**
     * Seconds since the command began, e.g. {@code "2.41 s"}: {@value #COMMAND_START_VARIABLE}, else this JVM's
     * start. Not the process's start instant: the JDK derives it from the boot time in whole seconds, and it was a
     * second early on the development machine (every start-up figure before session 45 included that second).
     */
    static String secondsSinceCommand() {
        long millis = System.currentTimeMillis() - commandStartMillis(System.getenv(COMMAND_START_VARIABLE),
                ManagementFactory.getRuntimeMXBean().getStartTime());
        return String.format(Locale.ROOT, "%.2f s", millis / 1000.0);
    }

    /** {@code given} when it is a time between an hour before {@code jvmStart} and {@code jvmStart}, else jvmStart. */
    static long commandStartMillis(String given, long jvmStartMillis) {
        try {
            long start = Long.parseLong(given == null ? "" : given.strip());
            return start <= jvmStartMillis && jvmStartMillis - start < TimeUnit.HOURS.toMillis(1) ? start
                    : jvmStartMillis;
        } catch (NumberFormatException e) {
            return jvmStartMillis;
        }
    }

    /** Writes the rank processes' configuration and prints the command of every rank. */
    private int writeRankConfig(PrintWriter out, RunConfig config, ClusterSettings settings) {
        CliFiles.requireWritableTarget(spec, "--write-rank-config", writeRankConfig);
        RunConfig processes = config.withMode(Mode.PROCESSES);
        int port = settings.basePort() > 0 ? settings.basePort()
                : HazelcastConfigs.freeBasePort(HazelcastConfigs.portCount(processes.runSpec().memberCount()),
                        IntStream.range(0, processes.runSpec().hostCount())
                                .mapToObj(settings::addressOfHost).distinct().toList());
        // no launcher: the ranks do not watch a parent process (-1)
        RankProcessConfig.of(processes, settings, port,
                ProcessLauncher.collectTimeoutMillis(processes), -1).write(writeRankConfig);
        out.println("wrote " + writeRankConfig + " (cluster " + settings.clusterName() + ", base port " + port + ")");
        out.println("start every rank, rank 0 first, each on its host, with the same file and the dfr jar on its class"
                + " path" + (kernel.jars().isEmpty() ? "" : " (the kernel jars at the same paths on every host: "
                + String.join(", ", kernel.jars().stream().map(j -> j.toAbsolutePath().normalize().toString()).toList())
                + ")") + ":");
        for (int r = 0; r < processes.runSpec().memberCount(); r++) {
            out.printf(Locale.ROOT, "  host %d (%s): dfr rank --config %s --rank %d --result report.json%n",
                    processes.runSpec().hostOf(r), settings.addressOfHost(processes.runSpec().hostOf(r)),
                    writeRankConfig, r);
        }
        out.println("(under srun or mpirun leave out --rank: SLURM_PROCID, OMPI_COMM_WORLD_RANK or PMI_RANK is read)");
        out.flush();
        return 0;
    }

    private static String count(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    /** The cluster of this run: a fresh name and token, and the hosts' addresses when given. */
    private ClusterSettings clusterSettings(RunConfig config) {
        ClusterSettings settings = new ClusterSettings();
        if (hostAddresses == null) {
            return settings;
        }
        int hosts = config.runSpec().hostCount();
        if (hostAddresses.size() != hosts) {
            throw new ParameterException(spec.commandLine(), addressOption() + " gives " + count(hostAddresses.size(),
                    "address", "addresses") + " but the run has " + count(hosts, "host", "hosts") + " ("
                    + count(config.runSpec().memberCount(), "rank", "ranks") + ", " + config.ranksPerHost()
                    + " per host): give one per host");
        }
        for (String a : hostAddresses.hosts()) {
            InetAddress address;
            try {
                address = InetAddress.getByName(a);
            } catch (UnknownHostException e) {
                throw new ParameterException(spec.commandLine(), addressOption() + ": '" + a
                        + "' is not an address or a known host name");
            }
            // every rank of a run without --hosts or --write-rank-config starts on this machine and binds its address
            if (!ssh.given() && writeRankConfig == null && !isLocal(address)) {
                throw new ParameterException(spec.commandLine(), "--host-addresses: " + a + " is not an address of this"
                        + " machine, where every rank of this run starts (any of 127.0.0.0/8 is; ranks on other machines"
                        + " need --hosts or --write-rank-config)");
            }
        }
        return settings.hostAddresses(hostAddresses.hosts());
    }

    private static boolean isLocal(InetAddress address) {
        try {
            return address.isLoopbackAddress() || NetworkInterface.getByInetAddress(address) != null;
        } catch (SocketException e) {
            return false;
        }
    }

    /** The --ranks-grid given, or the default for as many axes as --cells has. */
    private Sizes grid() {
        if (ranksGrid != null) {
            return ranksGrid;
        }
        return Sizes.defaultRanksGrid(cells.axes());
    }

    private int runReference(PrintWriter out, RunConfig config) {
        ReferenceSolver seq = config.kernelSetup().reference();
        long start = System.nanoTime();
        double residual = Double.NaN;
        int done = 0;
        boolean converged = false;
        while (done < iterations && !converged) {
            residual = seq.iterate();
            done++;
            converged = config.runSpec().converged(residual);
        }
        double seconds = Math.max(System.nanoTime() - start, 1) / 1e9;
        // every option, defaults too, as the run line writes it: so the two lines of one command compare
        out.printf(Locale.ROOT, "reference:       %s, sequential, %s cells, %d iterations%s%n",
                KernelChoice.of(config.kernel().name(), config.resolvedKernelOptions()), cells,
                done, converged ? " (stopped by --tolerance)" : "");
        out.println("field sha256:    " + seq.digest());
        out.printf(Locale.ROOT, "final residual:  %.17g%n", residual);
        out.printf(Locale.ROOT, "iterations/s:    %.1f%n", done / seconds);
        out.printf(Locale.ROOT, "cell updates/s:  %.3e%n", (double) cells.product() * done / seconds);
        out.flush();
        return 0;
    }

    static void printSummary(PrintWriter out, RunReport r) {
        RunReport.CheckpointInterval ci = r.checkpointInterval();
        out.printf(Locale.ROOT, "run:             %s, %s, %s ranks, %s cells, %d iterations, checkpoint every %d%s,"
                        + " commit lag %d, %s, %s mode%n",
                // as plan and --reference write a kernel: jacobi2d9(boundary=periodic)
                KernelChoice.of(r.kernel(), r.kernelOptions() == null ? Map.of() : r.kernelOptions()), r.strategy(),
                KernelProblem.join(r.ranksGrid()),
                KernelProblem.join(r.cells()), r.iterations(), r.checkpointEvery(), ci == null ? "" : " (auto)",
                r.commitLagIterations(), CheckpointCopiesMixin.describe(r.checkpointBackups(), r.checkpointReplication()),
                r.mode());
        if (ci != null && ci.chosenInterval() != null) {
            out.printf(Locale.ROOT, "checkpoint auto: measured checkpoint %.3f ms (local copy %.3f ms;"
                            + " replication %.3f ms), iteration %.3f ms, MTBF %.4g s: Daly %d iterations chosen (Young %d),"
                            + " decided at iteration %d from rank %d%n",
                    ci.measuredCheckpointMillis(), ci.measuredCopyMillis(), ci.measuredReplicationMillis(),
                    ci.measuredIterationMillis(), ci.mtbfSeconds(), ci.chosenInterval(), ci.youngInterval(),
                    ci.decidedAtIteration(), ci.measuredByRank());
        } else if (ci != null) {
            out.printf(Locale.ROOT, "checkpoint auto: the run ended before the interval was chosen (it is chosen"
                    + " after %d iterations): no checkpoint after the first%n", CheckpointSchedule.MEASURED_ITERATIONS + 1);
        }
        if (r.restartedFromIteration() != null) {
            out.printf(Locale.ROOT, "restarted from:  file checkpoint of iteration %d; ran iterations %d..%d%n",
                    r.restartedFromIteration(), r.restartedFromIteration() + 1, r.iterationsRun());
        }
        for (int i = 0; i < r.recoveries().size(); i++) {
            RunReport.Recovery rec = r.recoveries().get(i);
            // t is the recovery's, one past what every survivor computed: the kill's iteration unless no partition
            // reads the lost one (docs/design.md), so it is not printed as "died at"
            int activeRanks = r.ranksGrid().stream().reduce(1, (a, b) -> a * b);
            if (rec.lostPartitions().isEmpty() && rec.recomputedPartitionIterations() == 0 && rec.deadRanks() != null
                    && !rec.deadRanks().isEmpty() && rec.deadRanks().stream().allMatch(rank -> rank >= activeRanks)) {
                // a spare's death: "t = 29; checkpoint 0; m = 28" beside "recomputed 0" read as a recovery of 28
                // iterations of a rank that died at 6 (t is where the ranks were when they learnt of it)
                out.printf(Locale.ROOT, "recovery %d:      ranks %s died owning no partition (spares): nothing was lost"
                        + " or recomputed; the ranks learnt of it at iteration %d%n", rec.epoch(), rec.deadRanks(),
                        rec.failureIteration());
            } else {
                out.printf(Locale.ROOT, "recovery %d:      ranks %s died; t = %d; lost partitions %s; checkpoint %d%s; "
                                + "m = %d%n", rec.epoch(), rec.deadRanks(), rec.failureIteration(), rec.lostPartitions(),
                        rec.checkpointIteration(), fallBackNote(rec), rec.lostIterations());
            }
            // a recovery a failure during it cut short did not do its cone: "recomputed 9" beside the next one's 14 summed
            // to more work than was done (a resilience researcher's walk-through)
            boolean cutShort = rec.wallMillis() == null && i < r.recoveries().size() - 1;
            out.printf(Locale.ROOT, "                 %s%s: %s %d partition-iteration%s; participating ranks %s; "
                            + "idle ranks %s; adoptions %s%n", rec.effectiveStrategy(),
                    rec.coversEverything() && "dfr".equals(rec.strategy()) ? " (the cone covers everything: global rollback)" : "",
                    cutShort ? "cut short by a failure during it (recovery " + (rec.epoch() + 1) + " starts over); its plan"
                            : "recomputed", rec.recomputedPartitionIterations(),
                    rec.recomputedPartitionIterations() == 1 ? "" : "s", rec.participatingRanks(), rec.idleRanks(), rec.adoptions());
            out.printf(Locale.ROOT, "                 detection %s ms%s, agreement %s ms, replacement (checkpoint load) %s ms,"
                            + " recovery at the ranks %s ms, recovery wall (detection to resume) %s ms, kill to resume"
                            + " %s ms%n",
                    orDash(rec.detectionMillis()), rec.detectedBy() == null ? "" : " (" + rec.detectedBy() + ")",
                    orDash(rec.agreementMillis()), orDash(rec.replacementMillis()),
                    orDash(rec.recomputeMillis()), orDash(rec.wallMillis()),
                    orDash(rec.detectionMillis() == null || rec.wallMillis() == null ? null
                            : rec.detectionMillis() + rec.wallMillis()));
        }
        // a planned death that no recovery names (an idle spare's, or one after the end) is said too, not only in the report
        Set<Integer> recovered = new TreeSet<>();
        r.recoveries().forEach(rec -> {
            if (rec.deadRanks() != null) {
                recovered.addAll(rec.deadRanks());
            }
        });
        for (RunReport.Failure f : r.failures()) {
            List<Integer> unrecovered = f.ranks().stream().filter(rank -> !recovered.contains(rank)).toList();
            if (!unrecovered.isEmpty()) {
                out.printf(Locale.ROOT, "died:            ranks %s at iteration %d: no recovery names them (an idle"
                        + " spare owns nothing; a rank past its end has handed over its result)%n", unrecovered,
                        f.iteration());
            }
        }
        out.printf(Locale.ROOT, "stopped:         after iteration %d (%s)%n", r.iterationsRun(),
                r.stoppedBy() == RunReport.StopReason.TOLERANCE ? "residual below --tolerance " + r.tolerance()
                        : "--iterations reached");
        out.println("field sha256:    " + r.fieldSha256());
        out.printf(Locale.ROOT, "final residual:  %.17g%n", r.finalResidual());
        out.printf(Locale.ROOT, "wall time:       %d ms%n", r.wallMillis());
        out.printf(Locale.ROOT, "iterations/s:    %.1f%n", r.iterationsPerSecond());
        out.printf(Locale.ROOT, "cell updates/s:  %.3e%n", r.cellUpdatesPerSecond());
        if (r.energy() != null) {
            Object source = r.energy().get("source");
            Object detail = r.energy().get("detail");
            // without a meter, say why here and not only in the report (dfr power status has the whole story)
            out.println("energy source:   " + source + ("none".equals(source) && detail != null
                    ? " (" + String.valueOf(detail).replaceAll(";\\s*$", "") + ")" : ""));
            if (r.energy().get("joules") instanceof Number joules) {
                // the figures the report holds, without making a user open it (docs/report.md: summed over hosts)
                // the finish (members stopping) was 26-46 % of a small run's energy, and dfr experiment leaves it out
                // of its solver figure: a reader comparing the two must see it (an energy researcher's walk-through)
                out.printf(Locale.ROOT, "energy:          %.1f J without start-up, of which %.1f J in recoveries and"
                                + " %.1f J in the finish (the members stopping); %s W per %s on average%n",
                        joules.doubleValue(), recoveryJoules(r.energy()), phaseJoules(r.energy(), Phase.FINISH),
                        r.energy().get("meanWatts") instanceof Number w ? String.format(Locale.ROOT, "%.1f", w.doubleValue())
                                : "-", "model".equals(source) ? "simulated host" : "meter account");
            }
        }
    }

    /**
     * Names the faults the run never reached: a {@code --tolerance} stop before their iteration, or a
     * {@code --fail-during-recovery} without a recovery. Nobody could know that before the run, so it is not
     * refused; it is said, lest a user read a failure-free run as a recovered one.
     */
    static void printNotInjected(PrintWriter out, FaultPlan plan, RunReport r) {
        List<FaultPlan.Kill> late = plan.killsAfter(r.iterationsRun());
        if (!late.isEmpty()) {
            out.printf(Locale.ROOT, "not injected:    %s: the run stopped after iteration %d%s%n",
                    String.join(", ", late.stream().map(k -> (k.point().isDeath() ? "rank " : "pause of rank ")
                            + k.rank() + " at iteration " + k.iteration()).toList()), r.iterationsRun(),
                    r.stoppedBy() == RunReport.StopReason.TOLERANCE ? " (residual below --tolerance)" : "");
        }
        Set<Integer> died = new TreeSet<>();
        r.failures().forEach(f -> died.addAll(f.ranks()));
        int active = r.ranksGrid().stream().reduce(1, (a, b) -> a * b);
        for (FaultPlan.Kill k : plan.kills()) {
            if (k.point().isDeath() && k.iteration() <= r.iterationsRun() && !died.contains(k.rank())) {
                // a safety net: every planned death at a reached iteration happens (an idle spare's through the
                // control board); should one not, the run must not pass for one that recovered it
                out.printf(Locale.ROOT, "not injected:    rank %d at iteration %d: it did not die there (please"
                        + " report this)%n", k.rank(), k.iteration());
            }
        }
        if (!r.recoveries().isEmpty()) {
            for (int rank : new TreeSet<>(plan.failDuringRecovery())) {
                if (!died.contains(rank)) {
                    // an idle spare waits for a directive that gives it work; the others' recovery steps pass it by;
                    // and a rank dies after a recomputed level, which a recovery with m = 0 has none of
                    boolean tookPart = r.recoveries().stream().anyMatch(rec -> rec.participatingRanks().contains(rank));
                    out.printf(Locale.ROOT, "not injected:    --fail-during-recovery %d: %s%n", rank,
                            rank >= active && rank < active + r.spares() && !tookPart
                                    ? "a spare that adopted no partition, so it took no part in a recovery"
                                    : tookPart ? "the recoveries it took part in recomputed no level (m = 0), and it"
                                            + " dies after a recomputed level"
                                    : "it took no part in a recovery");
                }
            }
        }
        if (!plan.failDuringRecovery().isEmpty() && r.recoveries().isEmpty()) {
            out.printf(Locale.ROOT, "not injected:    --fail-during-recovery %s: no recovery happened%n",
                    String.join(", ", new TreeSet<>(plan.failDuringRecovery()).stream().map(String::valueOf).toList()));
        }
    }

    /** The phases of a recovery, death to resume, as the energy section labels them. */
    private static final List<Phase> RECOVERY_PHASES = List.of(Phase.DETECTION, Phase.AGREEMENT,
            Phase.RECOVERY_ACTIVE, Phase.RECOVERY_IDLE, Phase.CAPPED);

    private static double recoveryJoules(Map<String, Object> energy) {
        double sum = 0;
        for (Phase phase : RECOVERY_PHASES) {
            sum += phaseJoules(energy, phase);
        }
        return sum;
    }

    /** The report's joules of {@code phase}, summed over hosts; 0 when it has none. */
    private static double phaseJoules(Map<String, Object> energy, Phase phase) {
        if (energy.get("phases") instanceof Map<?, ?> phases && phases.get(phase.label()) instanceof Map<?, ?> p
                && p.get("joules") instanceof Number j) {
            return j.doubleValue();
        }
        return 0;
    }

    /**
     * Where a recovery read its checkpoint, when it is not the in-memory copies: every copy of a lost partition died,
     * and the recovery fell back to an older state.
     */
    private static String fallBackNote(RunReport.Recovery rec) {
        if (!rec.fellBack()) {
            return "";
        }
        return "file-level".equals(rec.restoredFrom())
                ? " (from the file level: every in-memory copy of a lost partition died)"
                : " (where the run started: every in-memory copy of a lost partition died, and no file level was complete)";
    }

    private static String orDash(Long value) {
        return value == null ? "-" : value.toString();
    }
}
