package org.dfr.simulator;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.dfr.simulator.report.Charts;
import org.dfr.simulator.report.CsvFiles;
import org.dfr.simulator.sweep.CheckpointOptimum;
import org.dfr.simulator.sweep.Decomposition;
import org.dfr.simulator.sweep.FailureOutlook;
import org.dfr.simulator.sweep.HeapEstimate;
import org.dfr.simulator.sweep.PointSummary;
import org.dfr.simulator.sweep.QuadraticFit;
import org.dfr.simulator.sweep.Sweep;
import org.dfr.simulator.sweep.SweepPoint;
import org.dfr.simulator.sweep.SweepSettings;

/**
 * What {@code dfr simulate} runs: the node sweep (the paper's Fig. 6 a/b/c per decomposition) and the
 * checkpoint-interval sweep, written as CSV and PNG files into {@link SimulateOptions#out()}.
 *
 * <p>Files: {@code points.csv} (every point and strategy: mean and sd over seeds, failures seen),
 * {@code fits.csv} (DFR's energy saving fitted by {@code a + b P + c P^2}, per dimension),
 * {@code recomputed-Nd.png}, {@code energy-saving-Nd.png}, {@code runtime-Nd.png} per dimension
 * ({@code paper-range-*-1d.png} for 1D up to 1000 nodes when larger points exist), and for the interval
 * sweep {@code checkpoint-interval.csv}, {@code checkpoint-optimum.csv}, {@code checkpoint-interval.png}.
 */
public final class SimulatorApp {

    private SimulatorApp() {
    }

    /** What a call produced. */
    public record Report(List<PointSummary> points, List<QuadraticFit> fits, List<PointSummary> checkpointPoints,
                         List<CheckpointOptimum> optima, List<Path> files, long tasksSimulated,
                         double simulatorSeconds, double wallSeconds) {

        /** Copies the lists. */
        public Report {
            points = List.copyOf(points);
            fits = List.copyOf(fits);
            checkpointPoints = List.copyOf(checkpointPoints);
            optima = List.copyOf(optima);
            files = List.copyOf(files);
        }

        /** Simulated tasks per second of one core. */
        public double tasksPerCoreSecond() {
            return simulatorSeconds == 0 ? 0 : tasksSimulated / simulatorSeconds;
        }
    }

    private static List<SweepPoint> nodeSweepPoints(SimulateOptions options) {
        List<SweepPoint> points = new ArrayList<>();
        for (int d : options.resolvedDimensions()) {
            for (int n : options.resolvedNodes()) {
                points.add(new SweepPoint(Decomposition.balanced(d, n), options.checkpointEvery()));
            }
        }
        return points;
    }

    /**
     * The checkpoint-interval sweep, in the one dimension the node sweep has (--dimensions 2 gave a 1D sweep titled
     * so, and nothing said it: a resilience researcher's walk-through), in 1D when it has several.
     */
    private static int checkpointSweepDimensions(SimulateOptions options) {
        List<Integer> dimensions = options.resolvedDimensions();
        return dimensions.size() == 1 ? dimensions.get(0) : 1;
    }

    private static List<SweepPoint> checkpointSweepPoints(SimulateOptions options) {
        Decomposition layout = Decomposition.balanced(checkpointSweepDimensions(options),
                options.resolvedCheckpointSweepNodes());
        return options.resolvedCheckpointSweep().stream().map(k -> new SweepPoint(layout, k)).toList();
    }

    /**
     * The names of every file a simulation writes into its output directory (the node sweep's CSV and plots, with
     * or without the paper-range prefix, the checkpoint sweep's, and the kernel mode's two CSV files): a directory
     * holding only such files holds an earlier simulation's output, which a new one may replace.
     */
    private static final Pattern OWN_OUTPUT = Pattern.compile(
            "(points|fits|checkpoint-interval|checkpoint-optimum|kernel-seeds|kernel-summary)\\.csv"
                    + "|checkpoint-interval\\.png|(paper-range-)?(recomputed|energy-saving|runtime)-[123]d\\.png");

    /** Whether {@code fileName} is one a simulation writes ({@link #OWN_OUTPUT}). */
    public static boolean isOwnOutput(String fileName) {
        return OWN_OUTPUT.matcher(fileName).matches();
    }

    /**
     * The heap the sweeps of {@code options} need, estimated ({@link HeapEstimate}): the larger of the node sweep's
     * and the checkpoint sweep's, which run one after the other.
     */
    public static long heapNeeded(SimulateOptions options) {
        int threads = options.threads() > 0 ? options.threads() : Runtime.getRuntime().availableProcessors();
        return Math.max(HeapEstimate.bytes(nodeSweepPoints(options), options.seeds(), threads),
                HeapEstimate.bytes(checkpointSweepPoints(options), options.seeds(), threads));
    }

    /** Before hours go by unexplained: where the runs are expected to end at the failure cap. */
    private static void warnOfRunsAtTheFailureCap(SimulateOptions options, TimingModel timing, FailureModel failures,
                                                    PrintStream out) {
        Set<Integer> nodeCounts = new TreeSet<>(options.resolvedNodes());
        if (!options.resolvedCheckpointSweep().isEmpty()) {
            nodeCounts.add(options.resolvedCheckpointSweepNodes());
        }
        for (int nodes : nodeCounts) {
            FailureOutlook outlook = FailureOutlook.of(nodes, options.iterations(), timing, failures);
            if (outlook.exceeds(failures.maxFailures())) {
                out.println("  " + outlook.warning(failures.maxFailures()));
            }
        }
    }

    /**
     * Runs the sweeps of {@code options}, printing progress and the tasks/s figure to {@code out}.
     *
     * @throws UncheckedIOException if the output directory or a file cannot be written
     */
    public static Report run(SimulateOptions options, PrintStream out) {
        Path dir = options.out();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create output directory " + dir + ": " + e.getMessage(), e);
        }
        TimingModel timing = options.timingModel();
        FailureModel failures = options.failureModel();
        List<String> strategies = options.strategies().stream().map(Strategy::cliName).toList();
        SweepSettings settings = new SweepSettings(options.iterations(), options.seeds(), options.firstSeed(),
                options.strategies(), timing, failures, options.powerModel(), options.threads(),
                options.commitLagIterations());
        out.printf(Locale.ROOT, "simulate %s: nodes %s, %sD, %d seeds, %d iterations, K=%d%s, MTBF %.4g h/node, tasks %.4g s,"
                        + " halo %.4g s, checkpoint %.4g s, strategies %s -> %s%n", options.preset(), options.resolvedNodes(),
                options.resolvedDimensions(), options.seeds(), options.iterations(), options.checkpointEvery(),
                options.commitLagIterations() == 0 ? "" : " (commit lag " + options.commitLagIterations() + ")",
                options.mtbfHours(), timing.taskSeconds(), timing.haloSeconds(), timing.checkpointSeconds(), strategies, dir);
        List<Path> files = new ArrayList<>();
        warnOfRunsAtTheFailureCap(options, timing, failures, out);

        List<SweepPoint> points = nodeSweepPoints(options);
        Sweep.Outcome nodeSweep = Sweep.run(points, settings, line -> out.println("  " + line));
        List<PointSummary> summaries = nodeSweep.summaries();
        files.add(write(dir.resolve("points.csv"), PointSummary.class, summaries));
        List<QuadraticFit> fits = new ArrayList<>();
        // a node count where a strategy's runs stopped at --max-failures is left out of the plots and fits: global's
        // recomputation at 10^5 nodes read 0 (it never finished an iteration), drawn as a line falling to 0
        Set<String> partial = new HashSet<>();
        summaries.stream().filter(p -> p.incompleteRuns() > 0).forEach(p -> partial.add(p.dimensions() + "/" + p.nodes()));
        for (int d : options.resolvedDimensions()) {
            List<PointSummary> mine = summaries.stream().filter(p -> p.dimensions() == d)
                    .filter(p -> !partial.contains(p.dimensions() + "/" + p.nodes())).toList();
            QuadraticFit fit = fitSavings(d + "D", mine);
            if (fit != null) {
                fits.add(fit);
            }
            files.addAll(plots(dir, d, "", mine, strategies, fit, options));
            List<PointSummary> paperRange = mine.stream().filter(p -> p.nodes() <= 1000).toList();
            if (d == 1 && paperRange.size() < mine.size() && paperRange.stream().map(PointSummary::nodes).distinct().count() >= 3) {
                QuadraticFit paperFit = fitSavings("1D up to 1000 nodes", paperRange);
                if (paperFit != null) {
                    fits.add(paperFit);
                }
                files.addAll(plots(dir, d, "paper-range-", paperRange, strategies, paperFit, options));
            }
        }
        List<String> incomplete = summaries.stream().filter(p -> p.incompleteRuns() > 0)
                .map(p -> p.strategy() + " at " + p.nodes() + " nodes (" + p.dimensions() + "D): " + p.incompleteRuns()
                        + " of " + p.seeds()).toList();
        if (!incomplete.isEmpty()) {
            // their means (and any saving against them) are of runs that stopped at the cap, not of whole runs
            out.println("  note: runs stopped at --max-failures " + failures.maxFailures() + " before their last"
                    + " iteration, so their figures are of partial runs (in points.csv; left out of the plots and fits):"
                    + " " + String.join("; ", incomplete));
        }
        List<String> failureFree = summaries.stream().filter(p -> p.failuresMean() == 0)
                .map(p -> p.nodes() + " nodes (" + p.dimensions() + "D)").distinct().toList();
        if (!failureFree.isEmpty()) {
            // rows of zeros read as "DFR recomputes nothing" (a resilience researcher's walk-through)
            out.println("  note: no failure happened in any seed at " + String.join(", ", failureFree) + " in "
                    + options.iterations() + " iterations: their rows are a failure-free run's (nothing recomputed by"
                    + " any strategy, savings of the message log's overhead only); give more --iterations or a shorter"
                    + " --mtbf-hours");
        }
        if (!fits.isEmpty()) {
            files.add(write(dir.resolve("fits.csv"), QuadraticFit.class, fits));
            for (QuadraticFit f : fits) {
                out.println("  energy saving (MJ) of " + f.label() + " vs global: " + f.formula());
            }
        } else if (options.strategies().contains(Strategy.DFR) && options.strategies().contains(Strategy.GLOBAL)) {
            out.println("  no fits.csv: fitting a + b P + c P^2 to DFR's saving needs 3 or more node counts per dimension"
                    + (partial.isEmpty() ? "" : " whose runs all completed"));
        }

        List<PointSummary> intervalPoints = List.of();
        List<CheckpointOptimum> optima = new ArrayList<>();
        long tasks = nodeSweep.tasksSimulated();
        double seconds = nodeSweep.simulatorSeconds();
        double wall = nodeSweep.wallSeconds();
        List<Integer> ks = options.resolvedCheckpointSweep();
        if (!ks.isEmpty()) {
            List<SweepPoint> sweep = checkpointSweepPoints(options);
            Decomposition layout = sweep.get(0).layout();
            Sweep.Outcome intervals = Sweep.run(sweep, settings, line -> out.println("  " + line));
            intervalPoints = intervals.summaries();
            // an optimum at either end of the sweep may lie beyond it: say so rather than let it pass for the optimum
            int lowest = ks.stream().mapToInt(Integer::intValue).min().orElseThrow();
            int highest = ks.stream().mapToInt(Integer::intValue).max().orElseThrow();
            for (String s : strategies) {
                CheckpointOptimum o = CheckpointOptimum.of(s, intervalPoints, timing, failures);
                optima.add(o);
                // K = 1 is the smallest interval there is: an optimum there is not cut off by the sweep
                boolean atEdge = ks.size() > 1 && ((o.simulatedBestK() == lowest && lowest > 1)
                        || o.simulatedBestK() == highest);
                out.printf(Locale.ROOT, "  checkpoint interval, %dD, %d nodes, %s: simulated optimum K=%d (%.4g h)%s; Young/Daly %.4g s = %.3g iterations%n",
                        layout.dimensions(), layout.nodes(), s, o.simulatedBestK(),
                        o.simulatedBestRuntimeHours(),
                        atEdge ? " at the edge of the sweep " + lowest + ".." + highest + " (widen --checkpoint-sweep)" : "",
                        o.youngDalySeconds(), o.youngDalyIterations());
            }
            files.add(write(dir.resolve("checkpoint-interval.csv"), PointSummary.class, intervalPoints));
            files.add(write(dir.resolve("checkpoint-optimum.csv"), CheckpointOptimum.class, optima));
            Path png = dir.resolve("checkpoint-interval.png");
            Charts.checkpointInterval(png, String.format(Locale.ROOT, "Runtime vs checkpoint interval, %dD, %d nodes,"
                    + " MTBF %.4g h/node", layout.dimensions(), layout.nodes(), options.mtbfHours()),
                    intervalPoints, strategies, optima);
            files.add(png);
            tasks += intervals.tasksSimulated();
            seconds += intervals.simulatorSeconds();
            wall += intervals.wallSeconds();
        }
        if (tasks == 0) {
            // a rate of 0 tasks/s read as a broken simulator: no run finished, every one stopped at its failure cap
            out.printf(Locale.ROOT, "simulated no run to its end (each stopped at --max-failures) in %.1f s of simulator"
                    + " time; wall %.1f s%n", seconds, wall);
        } else {
            out.printf(Locale.ROOT, "simulated %d tasks in %.1f s of simulator time: %.3g tasks/s per core; wall %.1f s:"
                    + " %.3g tasks/s%n", tasks, seconds, tasks / Math.max(seconds, 1e-9), wall,
                    tasks / Math.max(wall, 1e-9));
        }
        out.println("wrote " + files.size() + (files.size() == 1 ? " file" : " files") + " to " + dir);
        return new Report(summaries, fits, intervalPoints, optima, files, tasks, seconds, wall);
    }

    private static QuadraticFit fitSavings(String label, List<PointSummary> points) {
        List<PointSummary> dfr = points.stream().filter(p -> p.strategy().equals(Strategy.DFR.cliName())).toList();
        if (dfr.stream().map(PointSummary::nodes).distinct().count() < 3) {
            return null;
        }
        return QuadraticFit.of("dfr " + label, dfr.stream().map(p -> (double) p.nodes()).toList(),
                dfr.stream().map(PointSummary::savingVsGlobalMegajoulesMean).toList());
    }

    private static List<Path> plots(Path dir, int d, String prefix, List<PointSummary> points, List<String> strategies,
                                    QuadraticFit fit, SimulateOptions options) {
        if (points.isEmpty()) {
            return List.of();
        }
        int lo = points.stream().mapToInt(PointSummary::nodes).min().orElse(1);
        int hi = points.stream().mapToInt(PointSummary::nodes).max().orElse(1);
        boolean logX = hi > 20L * lo;
        String stencil = switch (d) {
            case 1 -> "1D 3-point";
            case 2 -> "2D 5-point";
            default -> "3D 7-point";
        };
        String setting = String.format(Locale.ROOT, "%s, %d iterations, K=%d, MTBF %.4g h, %d seeds", stencil,
                options.iterations(), options.checkpointEvery(), options.mtbfHours(), options.seeds());
        List<Path> files = new ArrayList<>();
        Path recomputed = dir.resolve(prefix + "recomputed-" + d + "d.png");
        Charts.recomputed(recomputed, "Recomputed iterations per node, " + setting, points, strategies, logX);
        files.add(recomputed);
        if (strategies.contains(Strategy.DFR.cliName())) {
            Path energy = dir.resolve(prefix + "energy-saving-" + d + "d.png");
            Charts.energySaving(energy, "DFR energy saving vs global, " + setting, points, fit, logX);
            files.add(energy);
        }
        Path runtime = dir.resolve(prefix + "runtime-" + d + "d.png");
        Charts.runtime(runtime, "Runtime, " + setting, points, strategies, logX);
        files.add(runtime);
        return files;
    }

    private static <T> Path write(Path file, Class<T> type, List<T> rows) {
        CsvFiles.write(file, type, rows);
        return file;
    }
}
