package org.dfr.cli;

import com.fasterxml.jackson.core.JacksonException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.apache.commons.math3.distribution.TDistribution;
import org.dfr.cli.options.CliFiles;
import org.dfr.cli.options.ConfigFileErrors;
import org.dfr.cli.options.KernelMixin;
import org.dfr.cli.options.KernelOptionArgument;
import org.dfr.cli.options.PowerModelOptions;
import org.dfr.cli.options.Sizes;
import org.dfr.cli.options.SweepByConverter;
import org.dfr.cli.options.SweepConverter;
import org.dfr.cli.options.SweepOrderConverter;
import org.dfr.harness.KernelJars;
import org.dfr.harness.experiment.Experiment;
import org.dfr.harness.experiment.ExperimentSpec;
import org.dfr.harness.experiment.ExperimentSweep;
import org.dfr.harness.experiment.RunRow;
import org.dfr.harness.experiment.Schedule;
import org.dfr.harness.experiment.Sweep;
import org.dfr.harness.experiment.SweepParameter;
import org.dfr.harness.experiment.Variant;
import org.dfr.runtime.kernel.KernelCatalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code dfr experiment}: a scenario times variants, repeated, summarised and plotted (docs/experiments.md). */
@Command(name = "experiment", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a scenario under several recovery variants (global, dfr, dfr+capping), repeated in a"
                + " seeded interleaved order, and write samples.csv, runs.csv, summary.csv, summary.json, PNG plots"
                + " and index.html to --out. Settings come from --preset, then --config (YAML or JSON), then flags.",
                "With --sweep, the whole experiment once per value of one setting, each into a directory of its own,"
                        + " and sweep.csv, sweep-runs.csv, sweep.json, sweep plots and index.html across them.",
                "See docs/experiments.md."})
public final class ExperimentCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--out", paramLabel = "DIR", required = true, description = "Output directory.")
    Path out;

    @Option(names = "--preset", paramLabel = "NAME", description = "A preset: paper-fig5.")
    String preset;

    @Option(names = "--config", paramLabel = "FILE", description = "Experiment file, YAML or JSON (copied into --out).")
    Path config;

    @Option(names = "--kernel", paramLabel = "NAME", description = "Kernel (default jacobi2d5).")
    String kernel;

    @Option(names = "--kernel-option", paramLabel = "KEY=VALUE", converter = KernelOptionArgument.Converter.class,
            description = "An option of the kernel (repeatable; `dfr kernels` lists each kernel's options).")
    List<KernelOptionArgument> kernelOptions;

    @Option(names = "--kernel-jar", paramLabel = "FILE",
            description = "A jar with more kernel providers (repeatable), for a kernel of your own.")
    List<Path> kernelJars;

    @Option(names = "--cells", paramLabel = "NX[xNY[xNZ]]", description = "Interior cells per axis (as many axes as the"
            + " kernel; default 256x256).")
    String cells;

    @Option(names = "--ranks-grid", paramLabel = "PX[xPY[xPZ]]", description = "Ranks per axis (default 2x4).")
    String ranksGrid;

    @Option(names = "--iterations", paramLabel = "N", description = "Iterations per run (default 10).")
    Integer iterations;

    @Option(names = "--checkpoint-every", paramLabel = "K", description = "Checkpoint interval (default 10).")
    Integer checkpointEvery;

    @Option(names = "--fail", paramLabel = "RANK@ITER", description = "A rank dies at the start of ITER (repeatable).")
    List<String> fail;

    @Option(names = "--mode", paramLabel = "embedded|processes",
            description = "Ranks in this JVM, or one JVM per rank, as in dfr run. Default: embedded.")
    String mode;

    @Option(names = "--ranks-per-host", paramLabel = "H",
            description = "Ranks of one simulated host (capped together), as in dfr run. Default: 2.")
    Integer ranksPerHost;

    @Option(names = "--variants", paramLabel = "V,V", split = ",",
            description = "Variants among global, dfr, dfr+capping (default all three).")
    List<String> variants;

    @Option(names = "--repetitions", paramLabel = "N", description = "Measured runs per variant (default 3;"
            + " paper-fig5: 5). Fewer than 5 make wide 95 %% intervals.")
    Integer repetitions;

    @Option(names = "--warmups", paramLabel = "W", description = "Warm-up runs before the measured ones"
            + " (default 1).")
    Integer warmups;

    @Option(names = "--seed", paramLabel = "S", description = "Seed of the order of the runs (default 1).")
    Long seed;

    @Mixin
    PowerModelOptions powerModel;

    @Option(names = "--sysfs-root", paramLabel = "DIR", description = "Sysfs tree for capping and the model.")
    Path sysfsRoot;

    @Option(names = "--fake-sysfs", negatable = true,
            description = "Create a fake cpufreq tree per host under --out and use it (the paper-fig5 preset does).")
    Boolean fakeSysfs;

    @Option(names = "--sweep", paramLabel = "PARAMETER=V1,V2", converter = SweepConverter.class,
            description = "Run the experiment once per value of one setting: fail (RANK@ITER, several joined by +),"
                    + " fail-iteration (every failure moved there), checkpoint-every, iterations, ranks-per-host, cells,"
                    + " ranks-grid, model-alpha, model-idle-clock-share or sample-period-millis; e.g."
                    + " fail-iteration=2,4,6.")
    Sweep sweep;

    @Option(names = "--sweep-by", paramLabel = "PARAMETER=V1,V2", converter = SweepByConverter.class,
            description = "With --sweep: a second setting (one of --sweep's), varied at every value of the first: the"
                    + " points are the grid of both, a curve per its value in the plots; e.g. ranks-per-host=2,4.")
    Sweep.By sweepBy;

    @Option(names = "--sweep-order", paramLabel = "interleaved|sequential", converter = SweepOrderConverter.class,
            description = "interleaved (default): round by round over the points, so that a drift of the machine"
                    + " spreads over them; sequential: each point whole, its files there as soon as it is done.")
    Sweep.Order sweepOrder;

    @Option(names = "--sample-period-millis", paramLabel = "P", description = "Power sampling period in ms (default 100).")
    Long samplePeriodMillis;

    /**
     * {@code --out} must be a directory that can be written and holds nothing yet: the results of two
     * experiments in one directory would mix (a runs.csv of one beside the settings of another).
     */
    private void requireFreshOutput() throws IOException {
        CliFiles.requireWritableDirectory(spec, "--out", out);
        try (Stream<Path> entries = Files.list(out)) {
            if (entries.findAny().isPresent()) {
                throw new ParameterException(spec.commandLine(), "--out " + out
                        + " is not empty: give a new or empty directory, so that results of different experiments do not mix");
            }
        }
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        ExperimentSpec resolved = resolve();
        requireFreshOutput();
        List<Schedule.Entry> schedule = Schedule.of(resolved.sweep() == null ? resolved
                : resolved.sweep().points(resolved).get(0));
        int points = resolved.sweep() == null ? 1 : resolved.sweep().size();
        int total = schedule.size() * points;
        // a swept setting's base value is no run's: "[512, 512] cells" while cells were swept misled (a walk-through)
        Set<SweepParameter> swept = sweptParameters(resolved.sweep());
        out.printf(Locale.ROOT, "experiment%s: %s %s cells on %s ranks, %s iterations, failures %s, %s; %d run%s"
                        + " (%d warm-up%s) -> %s%n", resolved.name() == null ? "" : " " + resolved.name(),
                resolved.kernel(), swept.contains(SweepParameter.CELLS) ? "(swept)" : resolved.cells(),
                swept.contains(SweepParameter.RANKS_GRID) ? "(swept)" : resolved.ranksGrid(),
                swept.contains(SweepParameter.ITERATIONS) ? "(swept)" : resolved.iterations(),
                swept.contains(SweepParameter.FAIL) || swept.contains(SweepParameter.FAIL_ITERATION) ? "(swept)"
                        : resolved.failures(), resolved.variants(), total,
                total == 1 ? "" : "s", resolved.warmups(), points == 1 ? "" : " per point", this.out);
        if (resolved.sweep() != null) {
            Sweep.By by = resolved.sweep().by();
            out.printf(Locale.ROOT, "sweep of %s over %d points: %s%s (each point a whole experiment; runs %s)%n",
                    resolved.sweep().parameter(), points, String.join(", ", resolved.sweep().values()),
                    by == null ? "" : ", by " + by.parameter() + ": " + String.join(", ", by.values()),
                    resolved.sweep().order() == Sweep.Order.SEQUENTIAL ? "point by point"
                            : "interleaved round by round over the points");
        }
        out.flush();
        boolean terminal = System.console() != null;
        ProgressBar bar = terminal ? new ProgressBarBuilder().setTaskName("experiment").setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII).setConsumer(new ConsoleProgressBarConsumer(System.err))
                .setUpdateIntervalMillis(500).build() : null;
        Progress progress = new Progress(out, bar, total);
        // Ctrl-C: the JVM's shutdown lifts the caps (their own hook); this says what is left, which only a logger line
        // about the caps said before
        Thread interrupted = new Thread(() -> {
            if (points == 1) {
                System.err.printf(Locale.ROOT, "dfr experiment: interrupted after %d of %d runs: no runs.csv or summary;"
                        + " the finished runs' samples are in %s%n", progress.runsDone.get(), total,
                        this.out.resolve("samples.csv.part"));
            } else {
                System.err.printf(Locale.ROOT, "dfr experiment: interrupted after %d of %d runs: no runs.csv or summary"
                        + " of an unfinished point; its finished runs' samples are in its samples.csv.part under %s%s%n",
                        progress.runsDone.get(), total, this.out, resolved.sweep().order() == Sweep.Order.SEQUENTIAL
                                ? "; sweep.csv holds the points finished before" : "");
            }
            System.err.flush();
        }, "dfr-experiment-interrupted");
        Runtime.getRuntime().addShutdownHook(interrupted);
        boolean failed;
        try {
            if (resolved.sweep() == null) {
                Experiment.Result result = new Experiment(resolved, this.out).specFile(config).listener(progress.runs(""))
                        .run();
                printSummary(out, result);
                failed = !result.failures().isEmpty();
            } else {
                ExperimentSweep.Result result = new ExperimentSweep(resolved, this.out).specFile(config)
                        .listener(new ExperimentSweep.Listener() {
                            @Override
                            public void pointStarting(int index, int count, String label, Path dir) {
                                if (bar == null) {
                                    out.printf(Locale.ROOT, "point %d/%d: %s -> %s%n", index + 1, count, label,
                                            dir.getFileName());
                                    out.flush();
                                }
                            }

                            @Override
                            public Experiment.Listener runs(int index) {
                                return progress.runs(resolved.sweep().pointLabel(index) + " ");
                            }
                        }).run();
                printSweepSummary(out, resolved, result);
                failed = result.anyFailed();
            }
        } finally {
            if (bar != null) {
                bar.close();
            }
            try {
                Runtime.getRuntime().removeShutdownHook(interrupted);
            } catch (IllegalStateException e) {
                // shutting down already: the hook says what is left
            }
        }
        if (resolved.warmups() == 0) {
            out.println("note: --warmups 0: the first run also warmed this JVM up (class loading, JIT) and its figures"
                    + " are biased; give --warmups 1 or more");
        }
        int n = resolved.repetitions();
        if (n < 2) {
            out.println("note: 1 repetition per variant: no sd and no interval; give --repetitions 5 or more for"
                    + " intervals worth comparing");
        } else if (n < 5) {
            // Student's t for n - 1 degrees of freedom: 12.7 (n = 2), 4.3 (3), 3.2 (4), then 2.8 and falling slowly
            out.printf(Locale.ROOT, "note: %d repetitions per variant: their 95 %% intervals are %.1f sd wide around the"
                    + " mean; give --repetitions 5 or more for intervals worth comparing%n", n,
                    2 * new TDistribution(n - 1).inverseCumulativeProbability(0.975) / Math.sqrt(n));
        }
        out.flush();
        return failed ? 1 : 0;
    }

    /** The settings {@code sweep} varies (its parameter and its second one); none without a sweep. */
    private static Set<SweepParameter> sweptParameters(Sweep sweep) {
        Set<SweepParameter> swept = EnumSet.noneOf(SweepParameter.class);
        if (sweep != null) {
            swept.add(sweep.parameter());
            if (sweep.by() != null) {
                swept.add(sweep.by().parameter());
            }
        }
        return swept;
    }

    /** The experiment of --preset, then --config, then the flags, checked whole (every point of a sweep too). */
    private ExperimentSpec resolve() throws IOException {
        CliFiles.requireExistingDirectory(spec, "--sysfs-root", sysfsRoot,
                "the root of a sysfs tree, or --fake-sysfs for fake ones");
        if (sysfsRoot != null && Boolean.TRUE.equals(fakeSysfs)) {
            throw new ParameterException(spec.commandLine(), "--sysfs-root " + sysfsRoot
                    + " and --fake-sysfs exclude each other: give the tree to use, or let the experiment make fake ones");
        }
        try {
            ExperimentSpec flags = ExperimentSpec.builder().kernel(kernel).cells(sizes("--cells", cells))
                    .ranksGrid(sizes("--ranks-grid", ranksGrid)).iterations(iterations).checkpointEvery(checkpointEvery)
                    .failures(fail).mode(mode).ranksPerHost(ranksPerHost)
                    .variants(variants == null ? null : variants.stream().map(Variant::parse).toList())
                    .repetitions(repetitions).warmups(warmups).seed(seed)
                    .idlePowerWatts(powerModel.idlePowerWatts()).busyPowerWatts(powerModel.busyPowerWatts())
                    .modelAlpha(powerModel.modelAlpha()).modelIdleClockShare(powerModel.modelIdleClockShare())
                    .sysfsRoot(sysfsRoot == null ? null : sysfsRoot.toString())
                    .fakeSysfs(sysfsRoot != null && fakeSysfs == null ? Boolean.FALSE : fakeSysfs)
                    .samplePeriodMillis(samplePeriodMillis)
                    .kernelOptions(kernelOptions == null ? null : KernelOptionArgument.toMap(spec, kernelOptions))
                    .kernelJars(kernelJars == null ? null
                            : kernelJars.stream().map(j -> j.toAbsolutePath().normalize().toString()).toList())
                    .sweep(sweep)
                    .build();
            ExperimentSpec base = preset == null ? ExperimentSpec.defaults()
                    : ExperimentSpec.preset(preset).orElse(ExperimentSpec.defaults());
            ExperimentSpec fromConfig = null;
            if (config != null) {
                if (!Files.isRegularFile(config) || !Files.isReadable(config)) {
                    throw new IllegalArgumentException("--config " + config + ": no such readable file");
                }
                fromConfig = ExperimentSpec.read(config);
                base = fromConfig.orElse(base);
            }
            if (flags.kernelJars() != null && !flags.kernelJars().isEmpty() && kernel == null
                    && (fromConfig == null || fromConfig.kernel() == null)) {
                // as in run: a jar without a kernel named ran the built-in one (a walk-through, session 43)
                throw new IllegalArgumentException(KernelMixin.jarWithoutKernel(kernelJars, "--kernel (or kernel: in"
                        + " --config)", base.kernel() == null ? KernelCatalog.DEFAULT_KERNEL : base.kernel()));
            }
            ExperimentSpec resolved = shapedToKernel(flags.orElse(base),
                    flags.cells() != null || fromConfig != null && fromConfig.cells() != null,
                    flags.ranksGrid() != null || fromConfig != null && fromConfig.ranksGrid() != null);
            if (sweepBy != null) {
                if (resolved.sweep() == null) {
                    throw new IllegalArgumentException("--sweep-by " + sweepBy + " is the second setting of a sweep:"
                            + " give --sweep PARAMETER=V1,V2,... (or sweep: in --config)");
                }
                resolved = resolved.toBuilder().sweep(resolved.sweep().withBy(sweepBy)).build();
            }
            if (sweepOrder != null) {
                if (resolved.sweep() == null) {
                    throw new IllegalArgumentException("--sweep-order " + sweepOrder + " orders the points of a sweep:"
                            + " give --sweep PARAMETER=V1,V2,... (or sweep: in --config)");
                }
                resolved = resolved.toBuilder().sweep(resolved.sweep().withOrder(sweepOrder)).build();
            }
            resolved.validate();
            return resolved;
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        } catch (JacksonException e) {
            // Jackson's own message adds its source location and "through reference chain ..." on more lines
            throw new ParameterException(spec.commandLine(), ConfigFileErrors.describe("--config", config, e), e);
        }
    }

    /**
     * The default (or preset) cells and ranks grid shaped to a kernel of other axes, as {@code dfr run} and
     * {@code dfr campaign} shape theirs: about as many cells on as many axes as the kernel has, and the 8 ranks of
     * {@link Sizes#defaultRanksGrid}. What the flags or the config file give is kept (and refused if it does not fit).
     */
    static ExperimentSpec shapedToKernel(ExperimentSpec resolved, boolean cellsGiven, boolean gridGiven) {
        if (cellsGiven && gridGiven) {
            return resolved;
        }
        int axes;
        try {
            axes = KernelJars.catalog(resolved.kernelJars() == null ? List.of()
                    : resolved.kernelJars().stream().map(Path::of).toList()).get(resolved.kernel()).dimensions();
        } catch (IllegalArgumentException e) {
            return resolved; // an unknown kernel or a bad jar: the spec's own check names it
        }
        List<Integer> cells = resolved.cells();
        if (!cellsGiven && cells.size() != axes) {
            long count = new Sizes(cells).product();
            int side = (int) Math.max(1, Math.round(Math.pow(count, 1.0 / axes)));
            cells = Collections.nCopies(axes, side);
        }
        List<Integer> grid = resolved.ranksGrid();
        if (!gridGiven && grid.size() != cells.size()) {
            grid = Sizes.defaultRanksGrid(cells.size()).values();
        }
        return resolved.toBuilder().cells(cells).ranksGrid(grid).build();
    }

    /** Progress over every run of the command (of every point of a sweep): a bar on a terminal, else a line each. */
    private static final class Progress {
        private final PrintWriter out;
        private final ProgressBar bar;
        private final int total;
        private final long start = System.nanoTime();
        private final AtomicInteger runsDone = new AtomicInteger();

        Progress(PrintWriter out, ProgressBar bar, int total) {
            this.out = out;
            this.bar = bar;
            this.total = total;
        }

        /** @return the listener of one experiment's runs, its lines starting with {@code prefix} */
        Experiment.Listener runs(String prefix) {
            return new Experiment.Listener() {
                @Override
                public void starting(Schedule.Entry e, int count) {
                    if (bar != null) {
                        bar.setExtraMessage(prefix + e.variant() + (e.warmup() ? " warm-up" : " rep " + e.repetition()));
                    } else if (runsDone.get() == 0) {
                        // the first run starts a cluster and warms the JVM up: seconds that showed nothing
                        out.printf(Locale.ROOT, "[1/%d] %s%s %s starting (the first run forms the cluster and warms"
                                + " up)%n", total, prefix, e.variant(), e.warmup() ? "warm-up" : "rep " + e.repetition());
                        out.flush();
                    }
                }

                @Override
                public void finished(Schedule.Entry e, RunRow row) {
                    done(e, Double.isFinite(row.solverJoules())
                            ? String.format(Locale.ROOT, "%s: solver %.1f J, recovery %.1f J, wall %d ms",
                                    row.source(), row.solverJoules(), row.recoveryJoules(), row.wallMillis())
                            : String.format(Locale.ROOT, "no energy measured (meter %s), wall %d ms", row.source(),
                                    row.wallMillis()));
                }

                @Override
                public void failed(Schedule.Entry e, Exception error) {
                    done(e, "FAILED: " + error.getMessage());
                }

                private void done(Schedule.Entry e, String what) {
                    int done = runsDone.incrementAndGet();
                    if (bar != null) {
                        bar.step();
                        return;
                    }
                    double elapsed = (System.nanoTime() - start) / 1e9;
                    double eta = elapsed / done * (total - done);
                    out.printf(Locale.ROOT, "[%d/%d] %s%-12s %-8s %s (elapsed %.0f s, ETA %.0f s)%n", done, total,
                            prefix, e.variant(), e.warmup() ? "warm-up" : "rep " + e.repetition(), what, elapsed, eta);
                    out.flush();
                }
            };
        }
    }

    /** Across the points: each variant's means, then the notes and where the output is. */
    private static void printSweepSummary(PrintWriter out, ExperimentSpec resolved, ExperimentSweep.Result result) {
        Sweep sweep = result.sweep();
        out.println("meter: " + result.meterTitle());
        int width = Math.max(sweep.parameter().label().length(), sweep.values().stream().mapToInt(String::length)
                .max().orElse(0));
        int byWidth = sweep.by() == null ? 0 : Math.max(sweep.by().parameter().label().length(),
                sweep.by().values().stream().mapToInt(String::length).max().orElse(0));
        String byFormat = byWidth == 0 ? "%s" : "%-" + byWidth + "s ";
        out.printf(Locale.ROOT, "%-" + width + "s " + byFormat + "%-12s %22s %22s %12s %12s %10s %7s%n",
                sweep.parameter(), sweep.by() == null ? "" : sweep.by().parameter(), "variant",
                "solver J (95% CI)", "recovery J (95% CI)", "idle host W", "recovery ms", "recomputed", "failed");
        for (ExperimentSweep.Point p : result.points()) {
            for (Variant v : resolved.variants()) {
                out.printf(Locale.ROOT, "%-" + width + "s " + byFormat + "%-12s %22s %22s %12s %12s %10s %7d%n",
                        p.value(), p.byValue() == null ? "" : p.byValue(), v.label(),
                        sweepInterval(p, v, "solver_joules"), sweepInterval(p, v, "recovery_joules"),
                        sweepMean(p, v, "idle_host_watts"), sweepMean(p, v, "recovery_wall_ms"),
                        sweepMean(p, v, "recomputed_partition_iterations"), p.result().failures().size());
            }
        }
        for (ExperimentSweep.Point p : result.points()) {
            for (String f : p.result().failures()) {
                out.println("failed at " + sweep.pointLabel(p.value(), p.byValue()) + ": " + f);
            }
            for (String note : p.result().notes()) {
                out.println("note at " + sweep.pointLabel(p.value(), p.byValue()) + ": " + note);
            }
        }
        for (String note : result.notes()) {
            out.println("note: " + note);
        }
        out.println("output: " + result.out().toAbsolutePath() + " (index.html; sweep.csv has every metric's"
                + " interval, each point's directory its own experiment)");
        out.flush();
    }

    /** The mean and its 95 % interval, as the one-experiment table prints them; the mean alone when there is none. */
    private static String sweepInterval(ExperimentSweep.Point p, Variant v, String metric) {
        double[] interval = p.interval(v, metric);
        return Double.isNaN(interval[0]) ? sweepMean(p, v, metric)
                : sweepMean(p, v, metric) + " (" + fmt(interval[0]) + ".." + fmt(interval[1]) + ")";
    }

    private static String sweepMean(ExperimentSweep.Point p, Variant v, String metric) {
        double mean = p.mean(v, metric);
        return Double.isFinite(mean) ? String.format(Locale.ROOT, "%.1f", mean) : "n/a";
    }

    @SuppressWarnings("unchecked")
    private static void printSummary(PrintWriter out, Experiment.Result result) {
        if (result.rows().isEmpty()) {
            // no table of n/a: the failures and what was written
            result.failures().forEach(f -> out.println("failed: " + f));
            result.notes().forEach(note -> out.println("note: " + note));
            out.println("output: " + result.out().toAbsolutePath() + " (summary.json, runs.csv, samples.csv)");
            out.flush();
            return;
        }
        Map<String, Object> summary = result.summary();
        Map<String, Object> meter = (Map<String, Object>) summary.get("meter");
        out.println("meter: " + meter.get("title"));
        Map<String, Object> variants = (Map<String, Object>) summary.get("variants");
        out.printf(Locale.ROOT, "%-12s %22s %22s %12s %12s %12s %12s %10s%n", "variant", "solver J (95% CI)",
                "recovery J (95% CI)", "idle host W", "while idle", "particip. W", "recovery ms", "recomputed");
        for (Map.Entry<String, Object> v : variants.entrySet()) {
            Map<String, Object> m = (Map<String, Object>) ((Map<String, Object>) v.getValue()).get("metrics");
            out.printf(Locale.ROOT, "%-12s %22s %22s %12s %12s %12s %12s %10s%n", v.getKey(), ci(m.get("solver_joules")),
                    ci(m.get("recovery_joules")), mean(m.get("idle_host_watts")), mean(m.get("idle_phase_watts")),
                    mean(m.get("participating_host_watts")),
                    mean(m.get("recovery_wall_ms")), mean(m.get("recomputed_partition_iterations")));
        }
        for (Map<String, Object> s : (List<Map<String, Object>>) summary.get("savingsVsGlobal")) {
            // a power, as the paper's Fig. 5 compares: the energy of whole runs is the table's solver J
            out.printf(Locale.ROOT, "%s, idle %s, mean power over its recovery: %s W vs %s W under global: %s W less"
                            + " (%s %%%s)%n", s.get("variant"), s.get("host"), fmt(s.get("variantWatts")),
                    fmt(s.get("globalWatts")), fmt(s.get("savingWatts")), fmt(s.get("savingPercent")),
                    pairedInterval(s));
        }
        Map<String, Object> c = (Map<String, Object>) summary.get("cappingVsDfr");
        // only when both were run: with one of them the line was all "n/a"
        if (variants.containsKey(Variant.DFR.label()) && variants.containsKey(Variant.DFR_CAPPING.label())) {
            out.printf(Locale.ROOT, "idle hosts while idle: dfr %s W, dfr+capping %s W: capping draws %s W less (%s %%%s)%s%n",
                    fmt(c.get("dfrWatts")), fmt(c.get("dfrCappingWatts")), fmt(c.get("savingWatts")),
                    fmt(c.get("savingPercent")), pairedInterval(c), "model".equals(meter.get("source"))
                            ? " (the load model's figure, set by its constants: a meter would measure it)" : "");
        }
        for (String f : result.failures()) {
            out.println("failed: " + f);
        }
        for (String note : result.notes()) {
            out.println("note: " + note);
        }
        out.println("output: " + result.out().toAbsolutePath() + " (index.html)");
        out.flush();
    }

    /** {@code ; 95% CI a..b over N pairs} of a saving's paired statistics, or nothing below two pairs. */
    private static String pairedInterval(Map<String, Object> saving) {
        List<Object> ci = (List<Object>) saving.get("savingPercentCi95");
        if (ci == null || !(ci.get(0) instanceof Number)) {
            return "";
        }
        return "; 95% CI " + fmt(ci.get(0)) + ".." + fmt(ci.get(1)) + " % over " + saving.get("pairs")
                + " repetitions";
    }

    private static String ci(Object stats) {
        Map<String, Object> s = (Map<String, Object>) stats;
        List<Object> ci = (List<Object>) s.get("ci95");
        if (!(ci.get(0) instanceof Number)) {
            // below two repetitions: the mean alone, as docs/experiments.md says, not "(n/a..n/a)"
            return fmt(s.get("mean"));
        }
        return fmt(s.get("mean")) + " (" + fmt(ci.get(0)) + ".." + fmt(ci.get(1)) + ")";
    }

    private static String mean(Object stats) {
        return fmt(((Map<String, Object>) stats).get("mean"));
    }

    private static String fmt(Object v) {
        return v instanceof Number n ? String.format(Locale.ROOT, "%.1f", n.doubleValue()) : "n/a";
    }

    private List<Integer> sizes(String option, String text) {
        if (text == null) {
            return null;
        }
        try {
            // "512x" was 512 here, and the line that followed quoted --cells 512 (a walk-through)
            return Sizes.parse(text).values();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), option + " " + e.getMessage(), e);
        }
    }
}
