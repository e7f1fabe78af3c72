package org.dfr.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.dfr.analysis.CommitLag;
import org.dfr.analysis.PartitionDependencies;
import org.dfr.cli.options.CliFiles;
import org.dfr.cli.options.GivenOptions;
import org.dfr.cli.options.KernelMixin;
import org.dfr.cli.options.Ranges;
import org.dfr.cli.options.Sizes;
import org.dfr.cli.options.SizesConverter;
import org.dfr.harness.KernelJars;
import org.dfr.power.AtomicFiles;
import org.dfr.simulator.FailureDistribution;
import org.dfr.simulator.FailureModel;
import org.dfr.simulator.FailureSchedule;
import org.dfr.simulator.ProgressReporter;
import org.dfr.simulator.SimulateOptions;
import org.dfr.simulator.Simulation;
import org.dfr.simulator.SimulationSpec;
import org.dfr.simulator.SimulatorApp;
import org.dfr.simulator.Strategy;
import org.dfr.simulator.sweep.FailureOutlook;
import org.dfr.simulator.report.CsvFiles;
import org.dfr.simulator.sweep.HeapEstimate;
import org.dfr.simulator.sweep.KernelSeedRow;
import org.dfr.simulator.sweep.KernelStrategySummary;
import org.dfr.simulator.sweep.Sweep;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code dfr simulate}: the large-scale simulator of global, data-flow and message-log rollback
 * (docs/simulator.md). Every option left out keeps the preset's value.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Simulates global, data-flow (DFR) and message-log rollback far past real scale and writes CSV"
                + " and PNG figures: recomputed iterations, DFR's energy saving (with its quadratic fit) and"
                + " runtime against the node count, and a checkpoint-interval sweep against Young/Daly. See"
                + " docs/simulator.md."},
        footer = {"", "Examples:",
                "  dfr simulate --preset paper-fig6 --out fig6",
                "  dfr simulate --preset quick --out /tmp/sim",
                "  dfr simulate --preset custom --nodes 100,1000,10000 --dimensions 2 --seeds 5 --mtbf-hours 50 --out sim",
                "  dfr simulate --kernel graph-jacobi --cells 100000 --ranks-grid 1000 --mtbf-hours 10 --seeds 5",
                "", "Exit codes: 0 done, 1 writing the output failed after the simulation ran, 2 bad arguments (an"
                        + " --out that cannot be created or written among them)."})
public final class SimulateCommand implements Callable<Integer> {

    /** What a simulation of one kernel's dependencies ({@code --cells}) reads; the rest is the sweep's. */
    static final List<String> KERNEL_MODE_OPTIONS = List.of("--kernel", "--kernel-option", "--kernel-jar", "--cells",
            "--ranks-grid", "--seeds", "--first-seed", "--iterations", "--checkpoint-every", "--commit-lag-iterations",
            "--mtbf-hours", "--max-failures", "--out");
    /** With {@code --cells}: every strategy on every seed, and the summary per strategy ({@code --out}). */
    static final String KERNEL_SEEDS_CSV = "kernel-seeds.csv";
    static final String KERNEL_SUMMARY_CSV = "kernel-summary.csv";

    @Spec
    CommandSpec spec;

    @Mixin
    KernelMixin kernel;

    @Option(names = "--cells", paramLabel = "NX[xNY[xNZ]]", converter = SizesConverter.class,
            description = "Simulate one installed kernel's own dependencies instead of a sweep: its cells (with"
                    + " --kernel and --ranks-grid; a table per strategy, and two CSV files with --out).")
    Sizes cells;

    @Option(names = "--ranks-grid", paramLabel = "PX[xPY[xPZ]]", converter = SizesConverter.class,
            description = "With --cells: the kernel's partitions per axis (one node each).")
    Sizes ranksGrid;

    @Option(names = "--preset", paramLabel = "paper-fig6|quick|custom", defaultValue = "paper-fig6",
            description = "The sweep to start from. Default: ${DEFAULT-VALUE}.")
    String preset;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (CSV, PNG). Default: simulate-out;"
            + " with --cells none (then " + KERNEL_SEEDS_CSV + " and " + KERNEL_SUMMARY_CSV + " when given).")
    Path out;

    @Option(names = "--nodes", converter = Ranges.AtLeastOne.class, split = ",", paramLabel = "N[,N...]", description = "Node counts of the sweep.")
    List<Integer> nodes;

    @Option(names = "--dimensions", converter = Ranges.Dimensions.class, split = ",", paramLabel = "D[,D...]", description = "Decompositions: 1, 2 and/or 3.")
    List<Integer> dimensions;

    @Option(names = "--seeds", converter = Ranges.AtLeastOne.class, paramLabel = "S", description = "Seeds (failure histories) per point.")
    Integer seeds;

    @Option(names = "--first-seed", paramLabel = "SEED", description = "The first seed.")
    Long firstSeed;

    @Option(names = "--iterations", converter = Ranges.AtLeastOne.class, paramLabel = "N", description = "Iterations of every simulated run.")
    Integer iterations;

    @Option(names = "--checkpoint-every", converter = Ranges.AtLeastOne.class, paramLabel = "K", description = "Checkpoint interval, iterations.")
    Integer checkpointEvery;

    @Option(names = "--commit-lag-iterations", converter = Ranges.NonNegativeInteger.class, paramLabel = "L",
            description = "A checkpoint counts only L iterations after it is taken (0..K-1), as dfr run"
                    + " --commit-lag-iterations L commits it: a failure in those L iterations rolls back to the checkpoint"
                    + " before. Default: 0, the paper's model (dfr run's default is 1); the checkpoint sweep uses at most K-1.")
    Integer commitLagIterations;

    @Option(names = "--checkpoint-sweep", converter = Ranges.AtLeastOne.class, split = ",", paramLabel = "K[,K...]",
            description = "Intervals of the checkpoint-interval sweep.")
    List<Integer> checkpointSweep;

    @Option(names = "--checkpoint-sweep-nodes", converter = Ranges.AtLeastOne.class, paramLabel = "N", description = "Nodes of the checkpoint-interval sweep (in the --dimensions given when it is one, else 1D).")
    Integer checkpointSweepNodes;

    @Option(names = "--skip-checkpoint-sweep", description = "Leave out the checkpoint-interval sweep.")
    boolean skipCheckpointSweep;

    @Option(names = {"--mtbf-hours", "--node-mtbf-hours"}, converter = Ranges.Positive.class, paramLabel = "H", description = "MTBF of one node, hours.")
    Double mtbfHours;

    @Option(names = "--task-seconds", converter = Ranges.Positive.class, paramLabel = "S", description = "Compute time of one task, seconds.")
    Double taskSeconds;

    @Option(names = "--task-jitter", converter = Ranges.Fraction.class, paramLabel = "J", description = "Relative spread of task times, [0, 1).")
    Double taskJitter;

    @Option(names = "--partition-bytes", converter = Ranges.NonNegative.class, paramLabel = "B", description = "Bytes of a partition (halo and checkpoint size).")
    Double partitionBytes;

    @Option(names = "--link-bits-per-second", converter = Ranges.Positive.class, paramLabel = "BPS", description = "Link bandwidth, bit/s.")
    Double linkBitsPerSecond;

    @Option(names = "--latency-seconds", converter = Ranges.NonNegative.class, paramLabel = "S", description = "Latency per message, seconds.")
    Double latencySeconds;

    @Option(names = "--detection-seconds", converter = Ranges.NonNegative.class, paramLabel = "S", description = "Failure detection time, seconds.")
    Double detectionSeconds;

    @Option(names = "--replacement-seconds", converter = Ranges.NonNegative.class, paramLabel = "S", description = "Replacement time, seconds.")
    Double replacementSeconds;

    @Option(names = "--failures-during-recovery", description = "Let failures strike during recoveries.")
    boolean failuresDuringRecovery;

    @Option(names = "--strategies", split = ",", paramLabel = "global|dfr|message-log",
            description = "Strategies to compare (same failures for each).")
    List<String> strategies;

    @Option(names = {"--busy-watts", "--busy-power-watts"}, converter = Ranges.NonNegative.class, paramLabel = "W", description = "Power of a computing node, W.")
    Double busyWatts;

    @Option(names = {"--idle-watts", "--idle-power-watts"}, converter = Ranges.NonNegative.class, paramLabel = "W", description = "Power of a waiting (uncapped) node, W.")
    Double idleWatts;

    @Option(names = {"--capped-idle-watts", "--capped-idle-power-watts"}, converter = Ranges.NonNegative.class, paramLabel = "W", description = "Power of an idle, capped node, W.")
    Double cappedIdleWatts;

    @Option(names = "--task-joules", converter = Ranges.NonNegative.class, paramLabel = "J", description = "Fixed energy per task, J (0: busy power x task time).")
    Double taskJoules;

    @Option(names = "--max-failures", converter = Ranges.AtLeastOne.class, paramLabel = "N",
            description = "A run stops, counted as incomplete, after N failures (default 10000000): the bound on runs"
                    + " whose failures come faster than they progress.")
    Integer maxFailures;

    @Option(names = "--threads", converter = Ranges.Threads.class, paramLabel = "T",
            description = "Worker threads, 0.." + Ranges.Threads.MAX + " (0: every core).")
    Integer threads;

    @Override
    public Integer call() {
        checkCombinations();
        if (cells != null || ranksGrid != null) {
            return simulateKernel();
        }
        SimulateOptions options;
        try {
            SimulateOptions.Builder b = SimulateOptions.defaults().toBuilder().preset(preset);
            set(nodes, b::nodes);
            set(dimensions, b::dimensions);
            set(seeds, b::seeds);
            set(firstSeed, b::firstSeed);
            set(iterations, b::iterations);
            set(checkpointEvery, b::checkpointEvery);
            set(commitLagIterations, b::commitLagIterations);
            set(checkpointSweep, b::checkpointSweep);
            set(checkpointSweepNodes, b::checkpointSweepNodes);
            if (skipCheckpointSweep) {
                b.skipCheckpointSweep(true);
            }
            set(mtbfHours, b::mtbfHours);
            set(taskSeconds, b::taskSeconds);
            set(taskJitter, b::taskJitter);
            set(partitionBytes, b::partitionBytes);
            set(linkBitsPerSecond, b::linkBitsPerSecond);
            set(latencySeconds, b::latencySeconds);
            set(detectionSeconds, b::detectionSeconds);
            set(maxFailures, v -> b.maxFailures(v));
            set(replacementSeconds, b::replacementSeconds);
            if (failuresDuringRecovery) {
                b.failuresDuringRecovery(true);
            }
            if (strategies != null) {
                b.strategies(strategies.stream().map(Strategy::parse).toList());
            }
            set(busyWatts, b::busyWatts);
            set(idleWatts, b::idleWatts);
            set(cappedIdleWatts, b::cappedIdleWatts);
            set(taskJoules, b::taskJoules);
            set(threads, b::threads);
            set(out, b::out);
            options = b.build();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        requireHeap(options, Runtime.getRuntime().maxMemory());
        CliFiles.requireWritableDirectory(spec, "--out", options.out());
        requireOnlyOwnOutput(options.out());
        PrintStream stream = new PrintStream(new WriterOutputStream(spec), true, StandardCharsets.UTF_8);
        try {
            SimulatorApp.run(options, stream);
        } catch (UncheckedIOException e) {
            spec.commandLine().getErr().println("dfr simulate: cannot write the output: " + e.getMessage());
            return 1;
        } finally {
            stream.flush();
        }
        return 0;
    }

    /** Refuses, before anything is written, a sweep whose runs need more heap than this JVM may use. */
    void requireHeap(SimulateOptions options, long maxHeapBytes) {
        long needed = SimulatorApp.heapNeeded(options);
        if (needed > maxHeapBytes) {
            int threads = options.threads() > 0 ? options.threads() : Runtime.getRuntime().availableProcessors();
            throw new ParameterException(spec.commandLine(), String.format(Locale.ROOT, "the sweep needs about %.1f GB"
                            + " of heap (its largest node count, %d, at %d to %d bytes a node from 1D to 3D, %d runs at a"
                            + " time with --threads %d) and this JVM may use %.1f GB: give fewer --nodes, fewer --threads,"
                            + " or more heap (DFR_JAVA_OPTS=\"-Xmx...\")", needed / 1e9,
                    Math.max(options.resolvedNodes().stream().mapToInt(Integer::intValue).max().orElse(0),
                            options.resolvedCheckpointSweep().isEmpty() ? 0 : options.resolvedCheckpointSweepNodes()),
                    HeapEstimate.bytesPerPartition(1), HeapEstimate.bytesPerPartition(3), threads, threads,
                    maxHeapBytes / 1e9));
        }
    }

    /**
     * The kernel's own declared dependencies (any kernel of the SPI, a graph as well as a stencil), every
     * strategy on the same failures per seed, with the sweep's failure, timing and power settings.
     */
    private int simulateKernel() {
        if (cells == null || ranksGrid == null) {
            throw new ParameterException(spec.commandLine(), "simulating a kernel needs both --cells and --ranks-grid");
        }
        for (OptionSpec given : spec.commandLine().getParseResult().matchedOptions()) {
            // by any of its names: --mtbf-hours is also --node-mtbf-hours, the name other commands give the concept
            if (Arrays.stream(given.names()).noneMatch(KERNEL_MODE_OPTIONS::contains)) {
                throw new ParameterException(spec.commandLine(), given.longestName() + " is for the sweep: with --cells the"
                        + " simulation takes the kernel's own partitions, the paper's timing and power, and only "
                        + String.join(", ", KERNEL_MODE_OPTIONS));
            }
        }
        PartitionDependencies dependencies;
        SimulateOptions o;
        try {
            dependencies = KernelJars.catalog(kernel.jars()).create(kernel.choice(),
                    cells.values().stream().mapToInt(Integer::intValue).toArray(),
                    ranksGrid.values().stream().mapToInt(Integer::intValue).toArray()).dependencies();
            // the preset only supplies the defaults of the settings used below
            SimulateOptions.Builder b = SimulateOptions.defaults().toBuilder();
            set(seeds, b::seeds);
            set(firstSeed, b::firstSeed);
            set(iterations, b::iterations);
            set(checkpointEvery, b::checkpointEvery);
            set(commitLagIterations, b::commitLagIterations);
            set(mtbfHours, b::mtbfHours);
            set(maxFailures, v -> b.maxFailures(v));
            o = b.build();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        SimulationSpec base = SimulationSpec.paper(dependencies)
                .withIterations(o.iterations(), o.checkpointEvery())
                .withCommitLagIterations(o.commitLagIterations())
                .withFailures(new FailureModel(o.mtbfHours() * 3600,
                        FailureDistribution.EXPONENTIAL, 0.7, 0, 0, 0, false, 1, o.maxFailures()));
        long heap = HeapEstimate.bytes(dependencies);
        long free = Runtime.getRuntime().maxMemory() - (Runtime.getRuntime().totalMemory()
                - Runtime.getRuntime().freeMemory());
        if (heap > free) {
            // refused in one line rather than an OutOfMemoryError after minutes of simulation
            throw new ParameterException(spec.commandLine(), String.format(Locale.ROOT, "simulating the %d partitions"
                            + " of --cells %s on --ranks-grid %s needs about %.1f GB of heap (72 bytes a partition, 16 a"
                            + " dependency) and this JVM has %.1f GB left: give a smaller --ranks-grid, or more heap"
                            + " (DFR_JAVA_OPTS=\"-Xmx...\")", dependencies.partitionCount(), cells, ranksGrid, heap / 1e9,
                    free / 1e9));
        }
        FailureOutlook outlook = FailureOutlook.of(dependencies.partitionCount(), o.iterations(), base.timing(),
                base.failures());
        if (outlook.exceeds(base.failures().maxFailures())) {
            spec.commandLine().getErr().println("dfr simulate: " + outlook.warning(base.failures().maxFailures(),
                    "a smaller --ranks-grid", ""));
            spec.commandLine().getErr().flush();
        }
        CliFiles.requireWritableDirectory(spec, "--out", this.out);
        requireOnlyOwnOutput(this.out);
        List<KernelSeedRow> rows = new ArrayList<>();
        PrintWriter out = spec.commandLine().getOut();
        long tasks = 0;
        long nanos = 0;
        for (int s = 0; s < o.seeds(); s++) {
            long seedStart = System.nanoTime();
            int seed = s + 1;
            var results = Simulation.compare(base.withSeed(o.firstSeed() + s), FailureSchedule.random(),
                    strategy -> ProgressReporter.every(Sweep.STILL_RUNNING_EVERY, System::nanoTime,
                            (done, of, failures, elapsed) -> {
                                spec.commandLine().getErr().printf(Locale.ROOT, "dfr simulate: seed %d of %d, %s:"
                                                + " iteration %d of %d, %d failures, %.0f s%n", seed, o.seeds(),
                                        strategy.cliName(), done, of, failures, elapsed / 1e9);
                                spec.commandLine().getErr().flush();
                            }));
            double seedSeconds = (System.nanoTime() - seedStart) / 1e9;
            if (seedSeconds >= 1) {
                // progress on a long simulation (a million partitions printed nothing for minutes)
                spec.commandLine().getErr().printf(Locale.ROOT, "dfr simulate: seed %d of %d done in %.1f s%n", s + 1,
                        o.seeds(), seedSeconds);
                spec.commandLine().getErr().flush();
            }
            for (var e : results.entrySet()) {
                tasks += e.getValue().tasksSimulated();
                nanos += e.getValue().wallNanos();
                rows.add(new KernelSeedRow(kernel.choice().toString(), cells.toString(), ranksGrid.toString(),
                        dependencies.partitionCount(), o.firstSeed() + s, e.getKey().cliName(),
                        e.getValue().completed(), e.getValue().failures(),
                        e.getValue().recomputedIterationsPerPartition(), e.getValue().makespanSeconds() / 3600,
                        e.getValue().energy().totalJoules() / 1e6));
            }
        }
        // the count in parentheses only where the grid has several axes: "on 2x4 partitions (8)", "on 1000 partitions"
        String count = ranksGrid.axes() > 1 ? " (" + dependencies.partitionCount() + ")" : "";
        out.printf(Locale.ROOT, "kernel %s, %s cells on %s partitions%s, %d iterations, checkpoint every %d%s,"
                        + " node MTBF %.4g h, %d seed%s: means per seed%n", kernel.choice(), cells, ranksGrid, count,
                o.iterations(), o.checkpointEvery(),
                o.commitLagIterations() == 0 ? "" : " (commit lag " + o.commitLagIterations() + ")", o.mtbfHours(),
                o.seeds(), o.seeds() == 1 ? "" : "s");
        out.printf(Locale.ROOT, "  %-12s %22s %10s %14s %14s%n", "strategy", "recomputed iter/node",
                "failures", "runtime [h]", "energy [MJ]");
        // the table is the summary's means: the files, when written, say the same
        List<KernelStrategySummary> summaries = summaries(rows);
        summaries.forEach(sum -> out.printf(Locale.ROOT, "  %-12s %22.4f %10.2f %14.4f %14.4f%n", sum.strategy(),
                sum.recomputedPerNodeMean(), sum.failuresMean(), sum.runtimeHoursMean(), sum.energyMegajoulesMean()));
        out.printf(Locale.ROOT, "simulated %d tasks: %.3g tasks/s%n", tasks, nanos == 0 ? 0 : tasks * 1e9 / nanos);
        if (this.out != null) {
            writeKernelFiles(this.out, rows, summaries);
            out.printf(Locale.ROOT, "wrote %s (a row per seed and strategy) and %s (mean, sd, 95 %% CI per strategy)%n",
                    this.out.resolve(KERNEL_SEEDS_CSV), this.out.resolve(KERNEL_SUMMARY_CSV));
        }
        out.flush();
        return 0;
    }

    /** Per strategy, in the strategies' order, the summary of its rows. */
    private static List<KernelStrategySummary> summaries(List<KernelSeedRow> rows) {
        List<KernelStrategySummary> summaries = new ArrayList<>();
        for (Strategy strategy : Strategy.values()) {
            List<KernelSeedRow> its = rows.stream().filter(r -> r.strategy().equals(strategy.cliName())).toList();
            if (!its.isEmpty()) {
                summaries.add(KernelStrategySummary.of(strategy.cliName(), its));
            }
        }
        return summaries;
    }

    /** Each file whole or not at all ({@link AtomicFiles}). */
    private static void writeKernelFiles(Path dir, List<KernelSeedRow> rows, List<KernelStrategySummary> summaries) {
        try {
            AtomicFiles.write(dir.resolve(KERNEL_SEEDS_CSV), tmp -> CsvFiles.write(tmp, KernelSeedRow.class, rows));
            AtomicFiles.write(dir.resolve(KERNEL_SUMMARY_CSV),
                    tmp -> CsvFiles.write(tmp, KernelStrategySummary.class, summaries));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the simulation's files in " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * The checks that need two options (each option's own range is checked by its converter), with the
     * defaults standing in for what is not given, so that the message names options, not record fields.
     */
    private void checkCombinations() {
        if ("custom".equals(preset) && nodes == null && cells == null && ranksGrid == null) {
            throw new ParameterException(spec.commandLine(), "--preset custom needs --nodes N[,N...]: the node counts to sweep");
        }
        if (skipCheckpointSweep && (checkpointSweep != null || checkpointSweepNodes != null)) {
            throw new ParameterException(spec.commandLine(), "--skip-checkpoint-sweep leaves out the sweep that "
                    + (checkpointSweep != null ? "--checkpoint-sweep" : "--checkpoint-sweep-nodes") + " describes:"
                    + " give one or the other");
        }
        // the sweep simulates the paper's stencils; a kernel is simulated with --cells and --ranks-grid
        if (cells == null && ranksGrid == null) {
            GivenOptions.firstOf(spec, List.of("--kernel", "--kernel-option", "--kernel-jar")).ifPresent(option -> {
                throw new ParameterException(spec.commandLine(), option + " is only used with --cells and"
                        + " --ranks-grid (a kernel's own dependencies); the sweep simulates the paper's stencils"
                        + " (--dimensions)");
            });
        }
        SimulateOptions d = SimulateOptions.defaults();
        int k = checkpointEvery != null ? checkpointEvery : d.checkpointEvery();
        int lag = commitLagIterations != null ? commitLagIterations : d.commitLagIterations();
        if (!CommitLag.isAllowed(lag, k)) {
            throw new ParameterException(spec.commandLine(), "--commit-lag-iterations " + lag
                    + " is not allowed with --checkpoint-every " + k + ": give " + CommitLag.allowed(k));
        }
        double busy = busyWatts != null ? busyWatts : d.busyWatts();
        double idle = idleWatts != null ? idleWatts : d.idleWatts();
        double capped = cappedIdleWatts != null ? cappedIdleWatts : d.cappedIdleWatts();
        if (idle > busy) {
            throw new ParameterException(spec.commandLine(), "--idle-watts " + idle + given(idleWatts)
                    + " is not allowed above --busy-watts " + busy + given(busyWatts)
                    + ": a waiting node draws at most a computing one");
        }
        if (capped > idle) {
            throw new ParameterException(spec.commandLine(), "--capped-idle-watts " + capped + given(cappedIdleWatts)
                    + " is not allowed above --idle-watts " + idle + given(idleWatts)
                    + ": capping an idle node lowers its power");
        }
    }

    /** " (the default)" for an option the user left out, so that a message does not blame it on them. */
    private static String given(Object option) {
        return option == null ? " (the default)" : "";
    }

    private static <T> void set(T value, Consumer<T> setter) {
        if (value != null) {
            setter.accept(value);
        }
    }

    /** The command line's output writer as a stream (the simulator prints to a PrintStream). */
    private static final class WriterOutputStream extends OutputStream {
        private final CommandSpec spec;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        WriterOutputStream(CommandSpec spec) {
            this.spec = spec;
        }

        @Override
        public void write(int b) {
            line.write(b);
            if (b == '\n') {
                flush();
            }
        }

        @Override
        public void flush() {
            spec.commandLine().getOut().print(line.toString(StandardCharsets.UTF_8));
            spec.commandLine().getOut().flush();
            line.reset();
        }
    }

    /**
     * {@code --out} must be new, empty, or hold an earlier simulation's output alone (which this one replaces): its
     * files mixed into an experiment's directory, say, would be taken for that experiment's. Does nothing for null.
     */
    private void requireOnlyOwnOutput(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> entries = Files.list(dir)) {
            Optional<Path> foreign = entries.filter(e -> !Files.isRegularFile(e)
                    || !SimulatorApp.isOwnOutput(e.getFileName().toString())).sorted().findFirst();
            if (foreign.isPresent()) {
                throw new ParameterException(spec.commandLine(), "--out " + dir + " holds "
                        + foreign.get().getFileName() + ", which dfr simulate does not write: give a new or empty"
                        + " directory, or one with an earlier simulation's output alone (it is replaced)");
            }
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--out " + dir + " cannot be read (" + e + ")");
        }
    }
}
