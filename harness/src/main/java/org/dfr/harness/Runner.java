package org.dfr.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.dfr.power.energy.PowerSampler;
import org.dfr.power.meter.PowerModel;
import org.dfr.power.timeline.TimelineCsv;
import org.dfr.power.timeline.TimelineSample;
import org.dfr.recovery.power.IdleHostCapping;
import org.dfr.recovery.IdleRankListener;
import org.dfr.recovery.ResilientRun;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.DiskCheckpoints;
import org.dfr.runtime.RunOutcome;
import org.dfr.runtime.kernel.KernelSetup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link RunConfig} of any kernel and returns its {@link RunReport}: embedded (every rank a member in
 * this JVM) or as one process per rank.
 */
public final class Runner {

    private static final Logger LOG = LoggerFactory.getLogger(Runner.class);

    private final ClusterSettings settings;
    private PowerModel powerModel;
    private RankProcessListener startUpListener = RankProcessListener.NONE;
    private Path samples;
    private Consumer<List<TimelineSample>> sampleSink;
    private List<String> rankJvmOptions = List.of();
    private RankJvmPool rankPool;

    public Runner() {
        this(new ClusterSettings());
    }

    public Runner(ClusterSettings settings) {
        this.settings = settings;
    }

    /**
     * Told when a processes-mode run's rank processes formed their cluster and when the first entered
     * the iteration loop ({@code dfr run} prints both); default: nobody.
     */
    public Runner startUpListener(RankProcessListener value) {
        this.startUpListener = Objects.requireNonNull(value);
        return this;
    }

    /**
     * Sets the constants of the load power model, used when the machine has no energy counter; every
     * sample it gives is labelled {@code model}. Without it such a machine reports source {@code none}.
     */
    public Runner powerModel(PowerModel model) {
        this.powerModel = model;
        return this;
    }

    /**
     * Writes the run's power time series to {@code file} as CSV ({@link org.dfr.power.timeline.TimelineCsv});
     * null (the default) for none.
     */
    public Runner samples(Path file) {
        this.samples = file;
        return this;
    }

    /** Receives the run's power time series when the run ends; null (the default) for none. */
    public Runner sampleSink(Consumer<List<TimelineSample>> sink) {
        this.sampleSink = sink;
        return this;
    }

    /**
     * More options for every rank JVM in processes mode ({@link ProcessLauncher#jvmOptions}): a log configuration of
     * the ranks' own, say. Ignored in embedded mode, which starts no JVM.
     */
    /** Processes mode: claim the rank JVMs from this pool where it can serve the run ({@link ProcessLauncher#rankPool}). */
    public Runner rankPool(RankJvmPool pool) {
        this.rankPool = pool;
        return this;
    }

    public Runner rankJvmOptions(List<String> options) {
        this.rankJvmOptions = List.copyOf(options);
        return this;
    }

    /** Writes or hands on the samples of a finished run. */
    static void deliver(RunEnergy.Result result, Path file,
                        Consumer<List<TimelineSample>> sink) {
        if (file != null) {
            try {
                TimelineCsv.write(file, result.samples());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the samples to " + file + ": " + e.getMessage(), e);
            }
        }
        if (sink != null) {
            sink.accept(result.samples());
        }
    }

    /**
     * Runs the configuration.
     *
     * @throws org.dfr.runtime.RunFailedException when the run cannot give a correct result
     */
    public RunReport run(RunConfig config) {
        DiskCheckpoints disk = settings.diskCheckpoints();
        if (disk.restartFrom() != null && disk.restartIteration() < 0) {
            disk = FileCheckpoints.resolve(config, disk.directory(), disk.every(), disk.restartFrom(),
                    System.err::println);
            settings.diskCheckpoints(disk);
        }
        RunReport report;
        if (config.mode() == Mode.PROCESSES) {
            report = new ProcessLauncher(settings).powerModel(powerModel).samples(samples).sampleSink(sampleSink)
                    .listener(startUpListener).jvmOptions(rankJvmOptions).rankPool(rankPool).run(config);
        } else {
            report = runEmbedded(config);
        }
        return disk.restarts() ? report.withRestartedFromIteration(disk.restartIteration()) : report;
    }

    /**
     * Embedded mode holds every rank's state, checkpoints and their copies in this one heap; the processes
     * mode's per-rank estimate ({@link ProcessLauncher#BYTES_PER_BLOCK_CELL}) applied to the whole grid says
     * whether it fits. A run past it may still fit (the estimate is generous), so this warns rather than refuses:
     * one line now is better than an OutOfMemoryError half a minute into the run.
     */
    private static void warnIfHeapLooksSmall(RunConfig config) {
        long neededMib = ProcessLauncher.BYTES_PER_BLOCK_CELL * config.cellCount() / (1 << 20)
                + ProcessLauncher.HEAP_OVERHEAD_MIB;
        long maxMib = Runtime.getRuntime().maxMemory() / (1 << 20);
        if (neededMib > maxMib) {
            LOG.warn("embedded mode with {} cells may need about {} MiB of heap and this JVM may use {} MiB: if it runs"
                    + " out, give it more (DFR_JAVA_OPTS=\"-Xmx{}g\" ./dfr ...) or use --mode processes (a heap per rank)",
                    config.cellCount(), neededMib, maxMib, (neededMib >> 10) + 1);
        }
    }

    /**
     * Writes every {@code every}-th in-memory checkpoint to {@code directory} too (null: no file level),
     * and starts from the newest complete checkpoint of {@code restartFrom} (null: from the initial state).
     *
     * @throws IllegalArgumentException in one line when the settings or the restart directory are not usable
     */
    public Runner fileCheckpoints(RunConfig config, Path directory, int every, Path restartFrom) {
        settings.diskCheckpoints(FileCheckpoints.resolve(config, directory, every, restartFrom, System.err::println));
        return this;
    }

    private RunReport runEmbedded(RunConfig config) {
        EmbeddedLimits.ofThisJvm().require(config);
        warnIfHeapLooksSmall(config);
        KernelSetup setup = config.kernelSetup();
        // compile the kernel before the members start, not in the timed loop
        KernelWarmUp.forRun(setup.kernel().cellsOf(0), config.iterations()).run(setup.kernel(), 0);
        IdleHostCapping capping = config.capIdleHosts()
                ? new IdleHostCapping(config.runSpec(), sysfsRoot(config), allHosts(config), config.journal())
                : null;
        try {
            RunEnergy power = RunEnergy.open(config, powerModel);
            ResilientRun run = new ResilientRun(setup.kernel(), config.runSpec())
                    .strategy(config.strategy())
                    .faults(config.faultPlan())
                    .idleListener(power.listener(capping == null ? IdleRankListener.NONE : capping))
                    .settings(settings);
            RunOutcome outcome = power.run(() -> run.runEmbedded(power::loopEntered));
            if (capping != null) {
                capping.liftRemaining(); // before the summary: its lifts are counted
            }
            Map<String, Object> cappingSummary = capping == null ? null : capping.summary();
            RunReport report = RunReports.of(config, settings, setup, outcome, Map.of());
            RunEnergy.Result result = power.finish(report, cappingSummary);
            Map<String, Object> energy = new LinkedHashMap<>(result.energy());
            if (cappingSummary != null) {
                energy.put("frequencyCapping", cappingSummary);
            }
            deliver(result, samples, sampleSink);
            return report.withEnergy(energy);
        } finally {
            if (capping != null) {
                capping.close();
            }
        }
    }

    static Path sysfsRoot(RunConfig config) {
        return config.sysfsRoot() == null ? Path.of("/") : config.sysfsRoot();
    }

    static long samplePeriod(RunConfig config) {
        return config.samplePeriodMillis() == null ? PowerSampler.DEFAULT_PERIOD_MILLIS : config.samplePeriodMillis();
    }

    static Set<Integer> allHosts(RunConfig config) {
        Set<Integer> hosts = new TreeSet<>();
        for (int h = 0; h < config.runSpec().hostCount(); h++) {
            hosts.add(h);
        }
        return hosts;
    }

    static Map<String, Object> noEnergy() {
        Map<String, Object> energy = new LinkedHashMap<>();
        energy.put("source", "none");
        energy.put("reason", "power sampling was not requested");
        return energy;
    }
}
