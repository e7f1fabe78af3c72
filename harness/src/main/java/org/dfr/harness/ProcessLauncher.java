package org.dfr.harness;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.LongConsumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.dfr.power.meter.PowerModel;
import org.dfr.power.timeline.TimelineSample;
import org.dfr.recovery.FaultPlan;
import org.dfr.recovery.IdleRankListener;
import org.dfr.recovery.power.IdleHostCapping;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.HazelcastConfigs;
import org.dfr.runtime.RunFailedException;
import org.dfr.runtime.RunSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link RunConfig} with one JVM per rank ({@link RankProcessMain}) on loopback, so that
 * planned failures are real SIGKILLs of real processes.
 *
 * <p>All rank JVMs start at the same moment; rank 0 founds the cluster, and the others start their
 * members once rank 0's is up (it creates a file they wait for, {@link RankProcessMain#FOUNDER_UP_FILE}):
 * their JVM start-up, configuration and kernel set-up overlap rank 0's, where starting rank 0 first
 * and the others once it was up put a whole JVM start-up in series. (A member that tries to join
 * before rank 0 listens gives up at once: its only way in is rank 0, see {@link HazelcastConfigs}.)
 * The ranks map a class data archive ({@link RankJvmArchive}) made by the first run of a build. With a
 * {@link #rankPool pool}, a rank is a warm JVM claimed from it instead of a fresh one ({@link RankJvm} hides which
 * from the rest of this class). Every line a rank prints goes to this JVM's stderr as {@code [rank r] ...}.
 * The lowest active rank at the end ({@code RankNode#collectorRank}) writes the report to a file in
 * a temporary directory, which is read back and deleted.
 *
 * <p>No rank process outlives {@link #run}: whatever happens (success, a rank failing, the time
 * limit, an interrupt) every process still alive is killed and waited for before it returns; a
 * shutdown hook kills them on Ctrl-C; and each rank halts by itself when its launcher's process is
 * gone (a SIGKILLed launcher). Exit code 137 of a rank the fault plan kills is expected; any other
 * non-zero exit fails the run at once with the rank's last log lines in the message.
 *
 * <p>Heap per rank: a rank keeps its block about 16 times (2 live buffers, 2 duplicate buffers for a
 * recomputation, 2 local checkpoints while a new one is committed, its share of the replicated
 * checkpoint map: at most 3 copies (primary and {@code --checkpoint-backups 2}) of up to 2 checkpoints), and a checkpoint write
 * adds short-lived copies (the serialised block, and the backups other ranks send at the same moment). Sized for 16 blocks, a 2x4 run of 4096x4096 filled 348 of its
 * 368 MB with the initial checkpoint, collected the full heap again and again, and a rank once died
 * of OutOfMemoryError; so {@code -Xmx} is
 * {@value #BYTES_PER_BLOCK_CELL} bytes per cell of the largest block (with its halo ring), twice
 * that when a failure without a spare makes a survivor adopt a second block, plus
 * {@value #HEAP_OVERHEAD_MIB} MiB for Hazelcast, and at least {@value #MIN_HEAP_MIB} MiB. At the run's end the
 * root also holds every partition's final state (one block per rank), as it did when it read them from a
 * replicated map (this sizing has no term for them: a limit for grids far larger than 4096x4096 on 2x4). They come
 * over the data plane in 1 MiB slices, so they no longer grow a connection's read buffer (direct memory, kept
 * until the rank leaves) to a block; halos (a block's face) still grow it to their size.
 */
public final class ProcessLauncher {

    private static final Logger LOG = LoggerFactory.getLogger(ProcessLauncher.class);

    /** Heap bytes per cell of a rank's block: 20 doubles, 16 kept and 4 transient (see the class comment). */
    public static final int BYTES_PER_BLOCK_CELL = 20 * Double.BYTES;
    public static final int HEAP_OVERHEAD_MIB = 128;
    public static final int MIN_HEAP_MIB = 256;
    /** The time limit of a run is at least this, whatever its size. */
    public static final long MIN_RUN_TIMEOUT_MILLIS = 180_000;
    /**
     * A pessimistic speed for the time limit of large runs: a run slower than this is considered
     * hung (the kernel does well over 10^8 cell updates per second per core).
     */
    public static final long SLOWEST_CELL_UPDATES_PER_SECOND = 2_000_000;
    /** Once a rank finished cleanly, the others get this long to leave before they are killed. */
    public static final long EXIT_GRACE_MILLIS = 30_000;

    /**
     * How often the rank processes are started when they do not form their cluster (a rank cannot
     * join, or does not see every member within the join timeout) before any of them computed: on a
     * loaded machine a member is now and then dropped while the others join, and a fresh start on
     * fresh ports costs less than the whole run. Each attempt is logged; the run's deadline holds.
     */
    public static final int FORMATION_ATTEMPTS = 2;
    /** How long a killed rank may take to disappear. */
    public static final long REAP_TIMEOUT_MILLIS = 10_000;
    /** Log lines of a failed rank quoted in the error. */
    public static final int ERROR_TAIL_LINES = 25;
    /** Exit code of a process killed by SIGKILL (128 + 9). */
    public static final int SIGKILL_EXIT_CODE = 137;

    /** The JDK internals Hazelcast asks access to (its start-up warning lists them); faster I/O and metrics. */
    static final List<String> HAZELCAST_MODULE_ACCESS = List.of("--add-modules", "java.se",
            "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens", "java.management/sun.management=ALL-UNNAMED",
            "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED");

    /**
     * Compile later, so that the JIT does not compile Hazelcast's start-up code that runs a few
     * thousand times and never again: measured on 8 rank processes of a 256x256 run, each rank used
     * 1.9 s of CPU from JVM start to its first iteration instead of 2.4 s (about 4 s less CPU on 2
     * cores shared by 8 JVMs). The kernel's loops still reach C2 within the first sweeps (their
     * back-edge counters count cells) and iterations/s of 2048x2048 did not drop. Overridden by a
     * later {@code -XX:CompileThresholdScaling} in {@value #RANK_JVM_OPTIONS_PROPERTY}.
     */
    static final List<String> START_UP_JIT = List.of("-XX:CompileThresholdScaling=5");

    /** The JDK's incubating vector module, which kernels may use (the built-in jacobi2d5 does). */
    static final String VECTOR_MODULE = "jdk.incubator.vector";

    /**
     * Gives the ranks the vector module when this JVM has it, so that every rank runs the same kernel
     * code as the launcher (its {@code dfr.*} settings are passed on); a kernel's fields must be bit
     * for bit the same either way.
     */
    static final List<String> VECTOR_MODULE_ACCESS =
            ModuleLayer.boot().findModule(VECTOR_MODULE).isPresent()
                    ? List.of("--add-modules", VECTOR_MODULE)
                    : List.of();

    /**
     * Gives the ranks transparent huge pages for their heap when this JVM uses them ({@code ./dfr}
     * turns them on where the kernel offers them): streaming 100 MB arrays through 4 KiB pages costs
     * TLB misses, and with huge pages 2 embedded ranks went from 1.41e9 to 1.84e9 cell updates/s
     * on 4096x4096.
     */
    static final List<String> HUGE_PAGES = launcherUsesHugePages()
            ? List.of("-XX:+UseTransparentHugePages") : List.of();

    private static boolean launcherUsesHugePages() {
        try {
            return "true".equals(ManagementFactory
                    .getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .getVMOption("UseTransparentHugePages").getValue());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * System property: more options for every rank's JVM, separated by spaces, placed last (to try a
     * JVM flag on the ranks without a rebuild, e.g. {@code -Ddfr.rankJvmOptions=-XX:+UseSerialGC}).
     */
    public static final String RANK_JVM_OPTIONS_PROPERTY = "dfr.rankJvmOptions";

    /**
     * System property every rank JVM is given: its rank id, for a log configuration that writes a file per rank
     * (the id is an argument of the main class too, which a log configuration cannot read).
     */
    public static final String RANK_PROPERTY = "dfr.rank";

    /**
     * System property: the tmpfs in which each run makes its directory for checkpoint copies between the rank
     * processes ({@link ClusterSettings#sharedMemoryDirectory}); {@value #DEFAULT_SHARED_MEMORY_ROOT} by default,
     * {@code none} for every copy over the data plane (loopback TCP).
     */
    public static final String SHARED_MEMORY_ROOT_PROPERTY = "dfr.sharedMemoryRoot";
    /** Where the shared-memory directories go when {@value #SHARED_MEMORY_ROOT_PROPERTY} is not set. */
    public static final String DEFAULT_SHARED_MEMORY_ROOT = "/dev/shm";

    private final ClusterSettings settings;
    private Path sharedMemoryRoot = defaultSharedMemoryRoot();
    private RankProcessListener listener = RankProcessListener.NONE;
    private long runTimeoutMillis = -1;
    private List<String> jvmOptions = List.of();
    private PrintStream log = System.err;
    private PowerModel powerModel;
    private Path samples;
    private Consumer<List<TimelineSample>> sampleSink;
    private RankJvmPool pool;

    /** A launcher whose ranks form their cluster with {@code settings} (a free port range if its base port is -1). */
    public ProcessLauncher(ClusterSettings settings) {
        this.settings = Objects.requireNonNull(settings);
    }

    /**
     * Constants of the load power model for machines without an energy counter (see
     * {@link Runner#powerModel}); null (the default) for none.
     */
    public ProcessLauncher powerModel(PowerModel model) {
        this.powerModel = model;
        return this;
    }

    /** Told about every rank process started (default: nobody). */
    /** Writes the run's power time series there as CSV (see {@link Runner#samples}); null for none. */
    public ProcessLauncher samples(Path file) {
        this.samples = file;
        return this;
    }

    /** Receives the run's power time series (see {@link Runner#sampleSink}); null for none. */
    public ProcessLauncher sampleSink(Consumer<List<TimelineSample>> sink) {
        this.sampleSink = sink;
        return this;
    }

    /**
     * The tmpfs in which the run makes its directory for checkpoint copies between the rank processes, deleted
     * after the run; null for none (every copy over the data plane). Default: {@value #SHARED_MEMORY_ROOT_PROPERTY},
     * else {@value #DEFAULT_SHARED_MEMORY_ROOT}; a root that is not a writable directory means none.
     */
    public ProcessLauncher sharedMemoryRoot(Path root) {
        this.sharedMemoryRoot = root;
        return this;
    }

    private static Path defaultSharedMemoryRoot() {
        String value = System.getProperty(SHARED_MEMORY_ROOT_PROPERTY, DEFAULT_SHARED_MEMORY_ROOT);
        return value.isBlank() || value.equals("none") ? null : Path.of(value);
    }

    /** A fresh directory for the run's shared-memory copies, or null when there is no usable root. */
    private Path createSharedMemoryDirectory() {
        if (sharedMemoryRoot == null || !Files.isDirectory(sharedMemoryRoot) || !Files.isWritable(sharedMemoryRoot)) {
            return null;
        }
        sweepOrphanedSharedMemory(sharedMemoryRoot);
        try {
            // the launcher's pid in the name: a later launcher deletes it if this one was SIGKILLed
            return Files.createTempDirectory(sharedMemoryRoot, SHARED_MEMORY_PREFIX + ProcessHandle.current().pid() + "-");
        } catch (IOException e) {
            LOG.warn("no shared memory for the checkpoint copies (they go over loopback TCP): cannot create a"
                    + " directory in {}: {}", sharedMemoryRoot, e.getMessage());
            return null;
        }
    }

    /** Names of the runs' shared-memory directories: this, the launcher's pid, a dash and a random part. */
    static final String SHARED_MEMORY_PREFIX = "dfr-copies-";

    /**
     * Deletes the shared-memory directories in {@code root} whose launcher is gone (killed with SIGKILL, so its
     * {@code finally} never ran): what they hold is in memory, not on a disk, and nobody else would free it.
     */
    static void sweepOrphanedSharedMemory(Path root) {
        try (Stream<Path> dirs = Files.list(root)) {
            for (Path d : dirs.toList()) {
                String name = d.getFileName().toString();
                if (!name.startsWith(SHARED_MEMORY_PREFIX)) {
                    continue;
                }
                String[] parts = name.substring(SHARED_MEMORY_PREFIX.length()).split("-", 2);
                try {
                    if (parts.length != 2 || ProcessHandle.of(Long.parseLong(parts[0])).map(ProcessHandle::isAlive)
                            .orElse(false)) {
                        continue; // not named by a launcher, or its launcher still runs
                    }
                } catch (NumberFormatException e) {
                    continue; // not one of ours
                }
                LOG.info("deleting {}: its launcher is gone", d);
                deleteRecursively(d);
            }
        } catch (IOException e) {
            LOG.debug("cannot list {}: {}", root, e.toString());
        }
    }

    /**
     * Claims the rank JVMs from {@code pool} where it has them and they would be started as the run's would
     * ({@link RankJvmPool#incompatibility}: otherwise, and for ranks the pool has no JVM left for, fresh JVMs, and a
     * line on the log says why); null (the default) for none.
     */
    public ProcessLauncher rankPool(RankJvmPool value) {
        this.pool = value;
        return this;
    }

    /**
     * The command of a rank JVM for a pool ({@link RankJvmPool#start}): a rank's, with a heap of {@code heapMib} and
     * the class path of this JVM (no kernel jars), the class data archive when there is one already.
     */
    public List<String> pooledJvmCommand(long heapMib) {
        String classPath = classPath(List.of());
        List<String> cmd = new ArrayList<>(jvmCommand(heapMib, classPath));
        // its warm-up is before the run: compiling what it runs early is what makes the claimed rank quick
        cmd.removeAll(START_UP_JIT);
        // a rank above 0 only uses the archive: rank 0 of a run may be the one to make it
        cmd.addAll(cmd.size() - 1, RankJvmArchive.forClassPath(classPath).optionsFor(1));
        return cmd;
    }

    public ProcessLauncher listener(RankProcessListener value) {
        this.listener = Objects.requireNonNull(value);
        return this;
    }

    /**
     * The time limit of a whole run, start-up included; {@code -1} (the default) derives it from the
     * run's size: {@link #MIN_RUN_TIMEOUT_MILLIS} plus the time the cell updates take at
     * {@link #SLOWEST_CELL_UPDATES_PER_SECOND}.
     */
    public ProcessLauncher runTimeoutMillis(long millis) {
        if (millis <= 0 && millis != -1) {
            throw new IllegalArgumentException("runTimeoutMillis must be > 0 or -1 (derived), got " + millis);
        }
        this.runTimeoutMillis = millis;
        return this;
    }

    /** Extra options for every rank's JVM, placed after the launcher's own (so they can override them). */
    public ProcessLauncher jvmOptions(List<String> options) {
        this.jvmOptions = List.copyOf(options);
        return this;
    }

    /** Where the ranks' output goes (default: this JVM's stderr). */
    public ProcessLauncher log(PrintStream value) {
        this.log = Objects.requireNonNull(value);
        return this;
    }

    /**
     * Runs the configuration with one process per rank and returns the report of mode "processes".
     *
     * @throws RunFailedException when a rank fails, the run exceeds its time limit, or no report is
     *     written; every rank process has exited when this is thrown
     */
    public RunReport run(RunConfig requested) {
        LOG.debug("launcher: run begins {} ms after this JVM started", ManagementFactory.getRuntimeMXBean().getUptime());
        RunConfig config = requested.withMode(Mode.PROCESSES);
        RunSpec spec = config.runSpec();
        long timeoutMillis = runTimeoutMillis > 0 ? runTimeoutMillis : derivedTimeoutMillis(config);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        Path dir = createTempDirectory();
        Path shared = createSharedMemoryDirectory();
        // the ranks of a host live in different JVMs: this one decides for every host (CappingLines)
        IdleHostCapping capping = config.capIdleHosts()
                ? new IdleHostCapping(spec, Runner.sysfsRoot(config), Runner.allHosts(config),
                        config.journal())
                : null;
        try {
            Path configFile = dir.resolve("run.json");
            Path resultFile = dir.resolve("report.json");
            long heapMib = heapMib(config);
            String classPath = classPath(config.kernelJars());
            List<String> jvm = jvmCommand(heapMib, classPath);
            RankJvmArchive archive = RankJvmArchive.forClassPath(classPath);
            RankJvmPool usablePool = usablePool(jvm, heapMib);
            // the power of the machine the ranks share, sampled here as an embedded run samples its own
            RunEnergy power = RunEnergy.open(config, powerModel);
            // the ranks' idle and busy lines place the recovery phases whether or not hosts are capped
            CappingRelay relay = new CappingRelay(power.listener(capping == null ? IdleRankListener.NONE : capping),
                    capping != null);
            power.run(() -> {
                for (int attempt = 1; ; attempt++) {
                    int basePort = settings.basePort() > 0 ? settings.basePort()
                            : HazelcastConfigs.freeBasePort(HazelcastConfigs.portCount(spec.memberCount()),
                                    addressesOf(spec));
                    RankProcessConfig.of(config, settings, basePort, collectTimeoutMillis(config),
                            ProcessHandle.current().pid()).withSharedMemoryDirectory(shared).write(configFile);
                    Path founderUp = dir.resolve("founder-up-" + attempt);
                    Supervision supervision = new Supervision(config, deadline, timeoutMillis, dir, shared, relay,
                            power::loopEntered, usablePool);
                    try {
                        supervision.run(rank -> {
                            List<String> arguments = new ArrayList<>(rankArguments(configFile, rank, resultFile,
                                    founderUp));
                            if (config.runSpec().isRespawned(rank)) {
                                arguments.add(RankProcessMain.RESPAWNED);
                            }
                            return new RankCommand(command(jvm, archive.optionsFor(rank), rank), arguments);
                        });
                        return null;
                    } catch (RunFailedException e) {
                        if (e.kind() != RunFailedException.Kind.CLUSTER_NOT_FORMED || attempt >= FORMATION_ATTEMPTS
                                || supervision.anyRankComputed() || System.nanoTime() >= deadline) {
                            throw e;
                        }
                        LOG.warn("the rank processes did not form their cluster ({}); starting them again on fresh"
                                + " ports (attempt {} of {})", firstAndLastLine(e.getMessage()),
                                attempt + 1, FORMATION_ATTEMPTS);
                        listener.formationRetried(attempt + 1, e.getMessage());
                    } finally {
                        archive.adopt(supervision.exitedCleanly(0));
                    }
                }
            });
            if (!Files.exists(resultFile)) {
                throw new RunFailedException("the run ended but no rank wrote the report (every rank died, or the"
                        + " collector could not finish)");
            }
            RunReport report = RunReports.read(resultFile);
            report = report.withProvenance(report.provenance().withLauncherCommandLine());
            if (capping != null) {
                capping.liftRemaining(); // before the summary: its lifts are counted
            }
            Map<String, Object> cappingSummary = capping == null ? null : capping.summary();
            RunEnergy.Result result = power.finish(report, cappingSummary);
            Map<String, Object> energy = new LinkedHashMap<>(result.energy());
            if (cappingSummary != null) {
                energy.put("frequencyCapping", cappingSummary);
            }
            Runner.deliver(result, samples, sampleSink);
            return report.withEnergy(energy);
        } finally {
            if (capping != null) {
                capping.close();
            }
            deleteRecursively(dir);
            if (shared != null) {
                // the files of ranks killed with SIGKILL: nobody else deletes them
                deleteRecursively(shared);
            }
        }
    }

    /**
     * A failure's first line and, when it has more, its last one ("rank 0 exited with code 5 ...; its last lines:"
     * alone ended in a colon): for a one-line warning.
     */
    static String firstAndLastLine(String message) {
        List<String> lines = String.valueOf(message).lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        if (lines.isEmpty()) {
            return "";
        }
        return lines.size() == 1 ? lines.get(0) : lines.get(0) + " " + lines.get(lines.size() - 1);
    }

    /** The distinct addresses the run's hosts bind (loopback alone by default). */
    private List<String> addressesOf(RunSpec spec) {
        Set<String> out = new LinkedHashSet<>();
        for (int h = 0; h < spec.hostCount(); h++) {
            out.add(settings.addressOfHost(h));
        }
        return List.copyOf(out);
    }

    /** The pool the run claims its rank JVMs from, or null: none set, or it cannot serve this run (said on the log). */
    private RankJvmPool usablePool(List<String> jvm, long heapMib) {
        if (pool == null) {
            return null;
        }
        Optional<String> why = pool.incompatibility(jvm, heapMib);
        if (why.isPresent()) {
            log.println("dfr: the rank JVM pool in " + pool.directory() + " cannot serve this run (fresh JVMs): "
                    + why.get());
            return null;
        }
        return pool;
    }

    /** {@code -Xmx} of each rank process, in MiB (see the class comment). */
    public static long heapMib(RunConfig config) {
        FaultPlan plan = config.faultPlan();
        int deaths = plan.ranks().size();
        int blocks = deaths > config.spares() ? 2 : 1;
        long bytes = BYTES_PER_BLOCK_CELL * config.largestBlockCells() * blocks;
        return Math.max(MIN_HEAP_MIB, (bytes >> 20) + 1 + HEAP_OVERHEAD_MIB);
    }

    static long derivedTimeoutMillis(RunConfig config) {
        long updates = config.cellCount() * config.iterations();
        // a recovery recomputes at most the iterations since the last checkpoint, everywhere
        int recoveries = config.faultPlan().kills().size() + config.faultPlan().failDuringRecovery().size();
        long recomputed = config.cellCount() * config.checkpointEvery() * recoveries;
        return MIN_RUN_TIMEOUT_MILLIS + (updates + recomputed) / SLOWEST_CELL_UPDATES_PER_SECOND * 1000;
    }

    /** How long a rank waits for the collector: reading every final state over loopback, generously. */
    public static long collectTimeoutMillis(RunConfig config) {
        long bytes = config.cellCount() * Double.BYTES;
        return 120_000 + bytes / 10_000; // 100 MB/s
    }

    private List<String> jvmCommand(long heapMib, String classPath) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String extra = System.getProperty(RANK_JVM_OPTIONS_PROPERTY, "").trim();
        List<String> extraOptions = extra.isEmpty() ? List.of() : List.of(extra.split("\\s+"));
        cmd.add("-Xmx" + heapMib + "m");
        cmd.addAll(defaultCollector(jvmOptions, extraOptions));
        cmd.addAll(HUGE_PAGES);
        cmd.add("-XX:+ExitOnOutOfMemoryError");
        cmd.addAll(START_UP_JIT);
        cmd.add("-Djava.net.preferIPv4Stack=true");
        cmd.add("-Dhazelcast.logging.type=slf4j");
        cmd.addAll(HAZELCAST_MODULE_ACCESS);
        cmd.addAll(VECTOR_MODULE_ACCESS);
        // the launcher's logging choices (-Ddfr.log=..., a logback file) apply to its ranks too
        System.getProperties().stringPropertyNames().stream()
                .filter(k -> k.startsWith("dfr.") || k.equals("logback.configurationFile"))
                .sorted()
                .forEach(k -> cmd.add("-D" + k + "=" + System.getProperty(k)));
        cmd.addAll(jvmOptions);
        cmd.addAll(extraOptions);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(RankProcessMain.class.getName());
        return cmd;
    }

    /**
     * The ranks' garbage collector: the parallel one, unless the given options choose one
     * ({@code -XX:+UseG1GC}, {@code -XX:+UseSerialGC}, ...): a JVM given two refuses to start.
     */
    static List<String> defaultCollector(List<String> jvmOptions, List<String> extraOptions) {
        boolean chosen = Stream.concat(jvmOptions.stream(), extraOptions.stream())
                .anyMatch(o -> o.matches("-XX:\\+Use\\w*GC"));
        return chosen ? List.of() : List.of("-XX:+UseParallelGC");
    }

    /**
     * This JVM's class path and the run's kernel jars: a rank finds the kernel as the launcher did. The
     * jars come first, then the directories, each in their order: a non-empty directory before a jar
     * stops the JVM from writing a class data archive at all ({@link RankJvmArchive}), while one after
     * the jars only keeps its own classes out of it (a test's or an IDE's {@code target/classes}).
     */
    static String classPath(List<Path> kernelJars) {
        List<String> entries = new ArrayList<>(List.of(System.getProperty("java.class.path").split(File.pathSeparator)));
        for (Path jar : kernelJars) {
            entries.add(jar.toAbsolutePath().normalize().toString());
        }
        Map<Boolean, List<String>> byDirectory = entries.stream().filter(e -> !e.isEmpty())
                .collect(Collectors.partitioningBy(e -> Files.isDirectory(Path.of(e))));
        return Stream.concat(byDirectory.get(false).stream(), byDirectory.get(true).stream())
                .collect(Collectors.joining(File.pathSeparator));
    }

    /** A rank's JVM command up to its main class, without arguments. */
    private static List<String> command(List<String> jvm, List<String> rankJvmOptions, int rank) {
        List<String> cmd = new ArrayList<>(jvm);
        // JVM options go before the main class, which is the last element of the JVM command
        cmd.addAll(cmd.size() - 1, rankJvmOptions);
        cmd.add(cmd.size() - 1, "-D" + RANK_PROPERTY + "=" + rank);
        return cmd;
    }

    private static List<String> rankArguments(Path configFile, int rank, Path resultFile, Path founderUp) {
        return List.of("--config", configFile.toString(), "--rank", Integer.toString(rank),
                "--result", resultFile.toString(), RankProcessMain.FOUNDER_UP_FILE, founderUp.toString());
    }

    /**
     * How a rank is started: {@code jvm} (up to the main class) and {@code arguments} for a fresh JVM, the arguments
     * alone for a pooled one.
     */
    record RankCommand(List<String> jvm, List<String> arguments) {
        List<String> full() {
            List<String> cmd = new ArrayList<>(jvm);
            cmd.addAll(arguments);
            return cmd;
        }
    }

    /** One run's rank processes, from the first start to the last exit. */
    private final class Supervision {

        private final RunConfig config;
        private final long deadlineNanos;
        private final long timeoutMillis;
        private final List<RankProcess> ranks = new CopyOnWriteArrayList<>();
        private final Set<String> failuresSaid = ConcurrentHashMap.newKeySet();
        private final BlockingQueue<RankProcess> exited = new LinkedBlockingQueue<>();
        private final Map<Integer, Integer> exitCodes = new TreeMap<>();
        private final Path dir;
        /** The run's shared-memory directory, or null. */
        private final Path shared;
        private final CappingRelay capping;
        private final LongConsumer loopEntered;
        /** Where the rank JVMs are claimed from first, or null. */
        private final RankJvmPool pool;
        /** Set when the launcher's JVM shuts down (SIGINT, SIGTERM): it kills the ranks itself, see {@link #onShutdown}. */
        private volatile boolean stopping;

        /** @param loopEntered told when the first rank began its first iteration (this JVM's nanoTime) */
        Supervision(RunConfig config, long deadlineNanos, long timeoutMillis, Path dir, Path shared,
                    CappingRelay capping, LongConsumer loopEntered, RankJvmPool pool) {
            this.config = config;
            this.deadlineNanos = deadlineNanos;
            this.timeoutMillis = timeoutMillis;
            this.dir = dir;
            this.shared = shared;
            this.capping = capping;
            this.loopEntered = loopEntered;
            this.pool = pool;
        }

        void run(IntFunction<RankCommand> commandOf) {
            Thread reaper = new Thread(this::onShutdown, "dfr-reap-ranks");
            Runtime.getRuntime().addShutdownHook(reaper);
            try {
                int members = config.runSpec().memberCount();
                long launchedAt = System.nanoTime();
                LOG.debug("launcher: starting the ranks {} ms after this JVM started",
                        ManagementFactory.getRuntimeMXBean().getUptime());
                for (int r = 0; r < members; r++) {
                    start(r, commandOf);
                }
                reportFormation(members, launchedAt);
                awaitExits(members, commandOf);
            } finally {
                killAll();
                awaitAllExited();
                try {
                    Runtime.getRuntime().removeShutdownHook(reaper);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is running or about to: it kills what is left
                }
            }
        }

        private RankProcess start(int rank, IntFunction<RankCommand> commandOf) {
            RankCommand command = commandOf.apply(rank);
            Optional<RankJvm> pooled = pool == null ? Optional.empty()
                    : pool.claim(new PoolClaim(rank, command.arguments(),
                            dir.resolve("exit-" + rank + "-" + ranks.size()).toString(),
                            RankProcessMain.stackTracesAsked(System.getenv())));
            if (pool != null && pooled.isEmpty()) {
                log.println("dfr: the rank JVM pool in " + pool.directory() + " has no JVM left: rank " + rank
                        + " starts a fresh one");
            }
            RankProcess p = pooled.isPresent()
                    ? RankProcess.of(rank, pooled.get(), log, ERROR_TAIL_LINES, capping, failuresSaid)
                    : RankProcess.start(rank, command.full(), log, ERROR_TAIL_LINES, capping, failuresSaid);
            ranks.add(p);
            p.onExit().thenRun(() -> exited.add(p));
            listener.started(rank, p.handle());
            return p;
        }

        /** Whether any rank entered the iteration loop (then a failure is the run's, not start-up's). */
        boolean anyRankComputed() {
            return ranks.stream().anyMatch(p -> p.loopStarted().isDone());
        }

        /** Whether {@code rank}'s (first) process exited with {@link RankProcessMain#EXIT_OK}. */
        boolean exitedCleanly(int rank) {
            synchronized (exitCodes) {
                return Integer.valueOf(RankProcessMain.EXIT_OK).equals(exitCodes.get(rank));
            }
        }

        private void reportFormation(int members, long launchedAt) {
            CompletableFuture<?>[] all = ranks.stream().map(RankProcess::formed)
                    .toArray(CompletableFuture[]::new);
            CompletableFuture<Void> formed = CompletableFuture.allOf(all);
            CompletableFuture<Void> formationReported = formed.thenRun(() -> {
                long last = ranks.stream().mapToLong(p -> p.formed().join()).max().orElse(launchedAt);
                long millis = TimeUnit.NANOSECONDS.toMillis(last - launchedAt);
                LOG.info("{} rank processes formed their cluster {} ms after the first was started", members, millis);
                listener.clusterFormed(members, millis);
            });
            CompletableFuture<?>[] loops = ranks.stream().map(RankProcess::loopStarted)
                    .toArray(CompletableFuture[]::new);
            // the first rank to begin iterating (checkpoint 0 taken) anchors the loop; spares and respawned ranks do not
            // say it then
            CompletableFuture.anyOf(ranks.stream().map(RankProcess::iterating).toArray(CompletableFuture[]::new))
                    .thenAccept(at -> {
                        loopEntered.accept((Long) at);
                        listener.iterating(TimeUnit.NANOSECONDS.toMillis((Long) at - launchedAt));
                    });
            // reported after the formation's line: the first rank may enter its loop before the last says it formed,
            // and two dependents of one future run in no promised order (the loop's line came first)
            formationReported.thenCombine(CompletableFuture.anyOf(loops), (v, at) -> at).thenAccept(at -> {
                long millis = TimeUnit.NANOSECONDS.toMillis((Long) at - launchedAt);
                LOG.info("the first rank entered the iteration loop {} ms after the first was started", millis);
                listener.firstIteration(millis);
            });
        }

        /**
         * Waits for every rank to exit; fails at the first exit that is neither 0 nor an expected SIGKILL.
         * With respawned replacements, a rank SIGKILLed before the run ended is replaced at once by a
         * fresh process ({@link RunSpec#respawnedRank}), which joins and adopts its partitions.
         */
        private void awaitExits(int initialMembers, IntFunction<RankCommand> commandOf) {
            Set<Integer> plannedDeaths = config.faultPlan().ranks();
            boolean respawn = settings.respawnWaitMillis() > 0;
            int members = initialMembers;
            long graceDeadline = Long.MAX_VALUE;
            while (exitCodes.size() < members) {
                long until = Math.min(deadlineNanos, graceDeadline);
                long waitNanos = until - System.nanoTime();
                if (waitNanos <= 0) {
                    if (graceDeadline <= deadlineNanos) {
                        LOG.warn("ranks {} did not leave within {} ms after the run ended; killing them",
                                stillRunning(), EXIT_GRACE_MILLIS);
                        return;
                    }
                    throw timedOut();
                }
                RankProcess p;
                try {
                    p = exited.poll(waitNanos, TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new RunFailedException("interrupted while the rank processes were running", e);
                }
                if (stopping) {
                    // Ctrl-C: eight "SIGKILLed though the fault plan does not kill it" lines and "no rank wrote the
                    // report" told of a failure that was the interruption
                    throw new RunFailedException(RunFailedException.Kind.INTERRUPTED,
                            "interrupted (SIGINT or SIGTERM): the rank processes were stopped");
                }
                if (p == null) {
                    continue;
                }
                int code = p.exitValue();
                synchronized (exitCodes) {
                    exitCodes.put(p.rank(), code);
                }
                listener.exited(p.rank(), code);
                if (code == RankProcessMain.EXIT_OK) {
                    graceDeadline = Math.min(graceDeadline,
                            System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EXIT_GRACE_MILLIS));
                } else if (code == SIGKILL_EXIT_CODE) {
                    capping.rankGone(p.rank());
                    if (!plannedDeaths.contains(p.rank())) {
                        LOG.warn("rank {} was SIGKILLed though the fault plan does not kill it; the run recovers", p.rank());
                    }
                    if (respawn && graceDeadline == Long.MAX_VALUE) {
                        int fresh = config.runSpec().respawnedRank(p.rank());
                        LOG.info("rank {} died; starting rank {} in its place", p.rank(), fresh);
                        start(fresh, commandOf);
                        members++;
                    }
                } else {
                    throw failure(p);
                }
            }
        }

        private RunFailedException failure(RankProcess p) {
            int code = p.exitValue();
            StringBuilder msg = new StringBuilder("rank ").append(p.rank()).append(" exited with code ").append(code)
                    .append(" (").append(describe(code)).append("); its last lines:");
            List<String> lines = StackTraceLines.condensed(p.lastLines());
            if (lines.isEmpty()) {
                msg.append(" (none)");
            }
            for (String line : lines) {
                msg.append(System.lineSeparator()).append("  ").append(line);
            }
            RunFailedException.Kind kind = switch (code) {
                case RankProcessMain.EXIT_CHECKPOINT_LOST -> RunFailedException.Kind.CHECKPOINT_LOST;
                case RankProcessMain.EXIT_CLUSTER_NOT_FORMED -> RunFailedException.Kind.CLUSTER_NOT_FORMED;
                default -> RunFailedException.Kind.OTHER;
            };
            Set<Integer> killed = new TreeSet<>();
            synchronized (exitCodes) {
                exitCodes.forEach((rank, exit) -> {
                    if (exit == SIGKILL_EXIT_CODE) {
                        killed.add(rank);
                    }
                });
            }
            // the exits are reaped one by one: a killed rank whose exit is not taken yet counts too
            for (RankProcess r : ranks) {
                if (!r.isAlive() && r.exitValue() == SIGKILL_EXIT_CODE) {
                    killed.add(r.rank());
                }
            }
            return new RunFailedException(kind, msg.toString()).withDeadRanks(killed);
        }

        private RunFailedException timedOut() {
            return new RunFailedException(RunFailedException.Kind.TIMEOUT,
                    "the run did not finish within " + timeoutMillis + " ms (ranks still running: "
                    + stillRunning() + ", exits so far: " + exitCodes + "); every rank process was killed");
        }

        private List<Integer> stillRunning() {
            return ranks.stream().filter(RankProcess::isAlive).map(RankProcess::rank).toList();
        }

        /** Ctrl-C or SIGTERM of this JVM: the finally blocks will not run, so do their work here. */
        private void onShutdown() {
            // before the kills: the exits they cause are the launcher's stopping, not deaths for awaitExits to report
            stopping = true;
            killAll();
            for (RankProcess p : ranks) {
                try {
                    p.awaitExit(1_000);
                } catch (InterruptedException e) {
                    return;
                }
            }
            deleteRecursively(dir);
            if (shared != null) {
                deleteRecursively(shared);
            }
        }

        private void killAll() {
            ranks.forEach(RankProcess::kill);
        }

        private void awaitAllExited() {
            for (RankProcess p : ranks) {
                try {
                    if (!p.awaitExit(REAP_TIMEOUT_MILLIS)) {
                        LOG.error("rank {} (pid {}) did not exit {} ms after SIGKILL", p.rank(), p.handle().pid(),
                                REAP_TIMEOUT_MILLIS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private static String describe(int code) {
        return switch (code) {
            case RankProcessMain.EXIT_RUN_FAILED -> "the run failed";
            case RankProcessMain.EXIT_USAGE -> "bad arguments";
            case RankProcessMain.EXIT_ORPHANED -> "it lost its launcher";
            case RankProcessMain.EXIT_OUT_OF_MEMORY -> "out of memory: its heap was too small; give the rank JVMs more"
                    + " with -D" + RANK_JVM_OPTIONS_PROPERTY + "=-Xmx<size> (DFR_JAVA_OPTS for ./dfr)";
            case RankProcessMain.EXIT_CHECKPOINT_LOST -> "the run failed: a needed checkpoint has no copy left";
            case RankProcessMain.EXIT_CLUSTER_NOT_FORMED -> "the cluster did not form";
            default -> code > 128 ? "killed by signal " + (code - 128) : "unexpected error";
        };
    }

    private static Path createTempDirectory() {
        try {
            return Files.createTempDirectory("dfr-processes-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory for the run: " + e.getMessage(), e);
        }
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            LOG.warn("cannot delete the run's temporary directory {}: {}", dir, e.getMessage());
        }
    }
}
