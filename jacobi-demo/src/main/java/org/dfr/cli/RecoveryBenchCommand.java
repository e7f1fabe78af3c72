package org.dfr.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.dfr.analysis.ConeAnalyzer;
import org.dfr.analysis.RecoveryPlan;
import org.dfr.cli.bench.BenchJson;
import org.dfr.cli.bench.Medians;
import org.dfr.cli.bench.RecoveryBenchReport;
import org.dfr.cli.bench.RecoveryBenchStep;
import org.dfr.cli.bench.RecoveryBenchTable;
import org.dfr.cli.bench.RecoveryRun;
import org.dfr.cli.bench.RecoveryReplacementReport;
import org.dfr.cli.bench.RecoveryStrategySummary;
import org.dfr.cli.options.CheckpointCopiesMixin;
import org.dfr.cli.options.CliFiles;
import org.dfr.cli.options.KernelMixin;
import org.dfr.cli.options.KillConverter;
import org.dfr.cli.options.Sizes;
import org.dfr.cli.options.SizesConverter;
import org.dfr.harness.Campaign;
import org.dfr.harness.KernelJars;
import org.dfr.harness.Mode;
import org.dfr.harness.Replacement;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.harness.Runner;
import org.dfr.recovery.FaultPlan;
import org.dfr.recovery.Strategy;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.RunFailedException;
import org.dfr.runtime.kernel.KernelProblem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code dfr bench-recovery}: kills the same rank at the same iteration under global rollback and
 * under data-flow rollback, several times each (alternating, so that drift of a shared machine
 * hits both alike), and compares detection, recovery time and recomputed work, the latter also
 * against the cone analysis.
 */
@Command(name = "bench-recovery", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Kills the same rank at the same iteration under global and dfr rollback and prints, per"
                + " strategy, the median detection latency, time to resume and recomputed work, the recovery wall"
                + " time ratio dfr/global, and whether dfr recomputed exactly what the cone analysis plans.",
                "Without options: rank processes killed with SIGKILL, 2x4 ranks, 2048x2048 cells, 20 iterations,"
                + " kill 1@5, a checkpoint at iteration 0 (K = 20), 3 runs per strategy."},
        footer = {"", "Examples:",
                "  dfr bench-recovery",
                "  dfr bench-recovery --mode embedded --cells 512x512 --repetitions 5 --json rec.json",
                "", "Exit codes: 0 measured (targets missed are reported, not errors), 1 a run failed, 2 bad arguments."})
public final class RecoveryBenchCommand implements Callable<Integer> {

    /**
     * The issue's target for the median SIGKILL detection latency in processes mode (death to the first
     * survivor knowing; issue 13: 20 ms, through the data plane's death watch).
     */
    public static final long DETECTION_TARGET_MILLIS = 20;

    @Spec
    CommandSpec spec;

    @Mixin
    KernelMixin kernel;

    @Mixin
    CheckpointCopiesMixin checkpointCopies;

    @Option(names = "--ranks-grid", paramLabel = "PX[xPY[xPZ]]", converter = SizesConverter.class,
            description = "Partitions per axis; as many axes as --cells. Default: 2x4 for 2 axes, 8 for 1, 2x2x2 for 3.")
    Sizes ranksGrid;

    @Option(names = "--cells", paramLabel = "NX[xNY[xNZ]]", converter = SizesConverter.class,
            description = "Interior cells per axis. Default, by the kernel's axes: 2048x2048 (2), 4194304 (1),"
                    + " 160x160x160 (3).")
    Sizes cells;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "20",
            description = "Iterations of every run. Default: ${DEFAULT-VALUE}.")
    int iterations;

    @Option(names = "--checkpoint-every", paramLabel = "K", defaultValue = "20",
            description = "Checkpoint interval. Default: ${DEFAULT-VALUE}.")
    int checkpointEvery;

    @Option(names = "--commit-lag-iterations", paramLabel = "L",
            description = "Iterations between a checkpoint and its commit, 0..K-1, as in dfr run: a kill in those L"
                    + " iterations recovers from the checkpoint before. Default: 1 (0 with K = 1).")
    Integer commitLagIterations;

    /*
     * 1@5 with K = 20 loses m = 4 iterations: the largest m whose cone around partition 1 of a 2x4 grid
     * is not the whole grid (its farthest partition, 6, is at distance 4), 16 partition-iterations for
     * dfr against 32 for global. From m = 5 on, dfr degenerates to global rollback.
     */
    @Option(names = "--fail", paramLabel = "RANK@ITER", defaultValue = "1@5", converter = KillConverter.class,
            description = "The rank killed and the iteration it dies at (repeatable: several ranks at one iteration"
                    + " are one recovery, each iteration one more, measured one after another). Default:"
                    + " ${DEFAULT-VALUE}.")
    List<FaultPlan.Kill> kills;

    @Option(names = "--repetitions", paramLabel = "R", defaultValue = "3",
            description = "Runs per strategy; medians are reported. Default: ${DEFAULT-VALUE}.")
    int repetitions;

    @Option(names = "--mode", paramLabel = "embedded|processes", defaultValue = "processes",
            description = "Ranks in this JVM, or one JVM per rank killed with SIGKILL (falls back to embedded when"
                    + " processes cannot run). Default: ${DEFAULT-VALUE}.")
    Mode requested;

    @Option(names = {"--report", "--json"}, paramLabel = "FILE", description = "Also write the results as JSON to FILE.")
    Path json;

    @Option(names = "--replacement", paramLabel = "KIND[,KIND...]", split = ",", description = {
            "Compare these replacements (spare, adopt, respawn) under dfr instead of the two strategies:",
            "kill to resume, agreement (respawn: the fresh process's start-up in it) and checkpoint load,",
            "side by side. Respawn needs --mode processes."})
    List<String> replacements;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (repetitions < 1) {
            throw new ParameterException(spec.commandLine(), "--repetitions must be >= 1, got " + repetitions);
        }
        if (checkpointEvery < 1) {
            throw new ParameterException(spec.commandLine(), "--checkpoint-every " + checkpointEvery
                    + " is not allowed: at least 1");
        }
        checkpointCopies.validated(spec);
        checkEachRankOnce();
        List<Integer> failureIterations = kills.stream().map(FaultPlan.Kill::iteration).distinct().sorted().toList();
        CliFiles.requireWritableTarget(spec, "--report", json);
        RunConfig base;
        try {
            // the defaults follow the kernel's axes, as dfr run's grid does: a fixed 2048x2048 refused every 1-D and
            // 3-D kernel with a message about options never given
            Sizes grid = cells != null ? cells
                    : defaultCells(KernelJars.catalog(kernel.jars()).get(kernel.choice().name()).dimensions());
            Sizes partitions = ranksGrid != null ? ranksGrid : Sizes.defaultRanksGrid(grid.axes());
            base = RunConfig.of(kernel.choice(), kernel.jars(), grid.values(), partitions.values(), iterations,
                            checkpointEvery)
                    .withFaults(kills, List.of(), Set.of()).withMode(requested)
                    .withCommitLagIterations(commitLagIterations);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }

        if (replacements != null && !replacements.isEmpty()) {
            return compareReplacements(base, out, err);
        }
        Runner runner = new Runner(clusterSettings());
        // per recovery (a failure iteration), per strategy: its runs
        List<List<RecoveryRun>> globalSteps = new ArrayList<>();
        List<List<RecoveryRun>> dfrSteps = new ArrayList<>();
        List<List<RunReport.Recovery>> dfrRecoveries = new ArrayList<>();
        for (int i = 0; i < failureIterations.size(); i++) {
            globalSteps.add(new ArrayList<>());
            dfrSteps.add(new ArrayList<>());
            dfrRecoveries.add(new ArrayList<>());
        }
        List<RecoveryRun> global = globalSteps.get(0);
        List<RecoveryRun> dfr = dfrSteps.get(0);
        String modeNote = null;
        RunConfig config = base;
        try (Progress progress = Progress.start("bench-recovery", 2 * repetitions, err)) {
            for (int rep = 1; rep <= repetitions; rep++) {
                // alternate which strategy goes first, so that a drifting machine load favours neither
                Strategy[] order = rep % 2 == 1 ? new Strategy[] {Strategy.GLOBAL, Strategy.DFR}
                        : new Strategy[] {Strategy.DFR, Strategy.GLOBAL};
                for (Strategy strategy : order) {
                    progress.next(strategy.label() + ", repetition " + rep + " of " + repetitions);
                    RunReport report;
                    try {
                        report = runner.run(config.withStrategy(strategy));
                    } catch (RuntimeException e) {
                        if (config.mode() != Mode.PROCESSES || !global.isEmpty() || !dfr.isEmpty()) {
                            err.println("dfr bench-recovery: the " + strategy.label() + " run failed: " + e.getMessage());
                            return 1;
                        }
                        modeNote = "processes mode: unavailable (" + e.getMessage() + "); measured in embedded mode";
                        err.println("bench-recovery: " + modeNote);
                        config = config.withMode(Mode.EMBEDDED);
                        report = runner.run(config.withStrategy(strategy));
                    }
                    for (int i = 0; i < failureIterations.size(); i++) {
                        List<RunReport.Recovery> window = window(report, failureIterations, i);
                        countSplit(window);
                        RecoveryRun run = toRun(strategy, rep, report, window, killsAt(failureIterations.get(i)));
                        (strategy == Strategy.GLOBAL ? globalSteps : dfrSteps).get(i).add(run);
                        if (strategy == Strategy.DFR) {
                            dfrRecoveries.get(i).add(window.stream().filter(r -> !r.lostPartitions().isEmpty())
                                    .findFirst().orElse(window.get(0)));
                        }
                    }
                }
            }
            progress.done();
        }

        // after the timed runs, so that the sequential run's heat and garbage touch none of them
        String reference = Campaign.referenceDigest(base, base.iterations());
        RecoveryPlan plan = plan(base);
        boolean planIsGlobal = plan.isGlobalRollback();
        // DESIGN.md: a cone covering every partition makes dfr global rollback, and the runtime does that
        long planWork = plan.asRun().recomputedPartitionIterations();
        boolean equalsPlan = !dfr.isEmpty() && dfr.stream().allMatch(r -> r.recomputedWork() == planWork);
        RecoveryStrategySummary g = RecoveryStrategySummary.of(Strategy.GLOBAL.label(), global);
        RecoveryStrategySummary d = RecoveryStrategySummary.of(Strategy.DFR.label(), dfr);
        Double ratio = ratio(g, d);
        List<Long> detections = new ArrayList<>();
        globalSteps.forEach(l -> l.forEach(r -> detections.add(r.detectionMillis())));
        dfrSteps.forEach(l -> l.forEach(r -> detections.add(r.detectionMillis())));
        Set<String> digests = new HashSet<>();
        global.forEach(r -> digests.add(r.fieldSha256()));
        dfr.forEach(r -> digests.add(r.fieldSha256()));
        RecoveryBenchReport report = new RecoveryBenchReport(base.kernel().toString(), base.ranksGrid(), base.cells(),
                iterations, checkpointEvery, base.runSpec().commitLagFor(checkpointEvery), checkpointCopies.validated(spec), killsText(),
                committedBefore(base, failureIterations.get(0)),
                config.mode().name().toLowerCase(Locale.ROOT), modeNote, repetitions, g, d, planWork, planIsGlobal,
                equalsPlan, ratio, Medians.of(detections), DETECTION_TARGET_MILLIS, digests.size() == 1, reference,
                digests.equals(Set.of(reference)), laterRecoveries(base, failureIterations, globalSteps, dfrSteps,
                dfrRecoveries));
        RecoveryBenchTable.print(report, out);
        printSplit(out);
        if (json != null) {
            BenchJson.write(report, json);
            out.println("json: " + json);
        }
        out.flush();
        if (!report.matchesReference()) {
            err.println("dfr bench-recovery: a run ended with another field than the sequential reference's: the"
                    + " figures are of a wrong computation (dfr run --check-reference shows which run differs)");
            err.flush();
            return 1;
        }
        return 0;
    }

    /**
     * The same kill under dfr with each replacement, interleaved (the order rotates per repetition so
     * that a drifting machine favours none), and the medians side by side.
     */
    private int compareReplacements(RunConfig base, PrintWriter out, PrintWriter err) {
        List<Replacement> kinds = new ArrayList<>();
        for (String value : replacements) {
            Replacement r;
            try {
                r = Replacement.parse(value);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage(), e);
            }
            int spares = r == Replacement.SPARE ? 1 : 0;
            String problem = r.problem(spares, base.mode(), false);
            if (problem != null) {
                throw new ParameterException(spec.commandLine(), problem);
            }
            if (!kinds.contains(r)) {
                kinds.add(r);
            }
        }
        Map<Replacement, List<RecoveryRun>> runs = new EnumMap<>(Replacement.class);
        kinds.forEach(k -> runs.put(k, new ArrayList<>()));
        Map<Replacement, String> adopters = new EnumMap<>(Replacement.class);
        try (Progress progress = Progress.start("bench-recovery", kinds.size() * repetitions, err)) {
            for (int rep = 1; rep <= repetitions; rep++) {
                for (int i = 0; i < kinds.size(); i++) {
                    Replacement kind = kinds.get((i + rep - 1) % kinds.size());
                    progress.next(kind.optionValue() + ", repetition " + rep + " of " + repetitions);
                    RunConfig config = base.withStrategy(Strategy.DFR)
                            .withSpares(kind == Replacement.SPARE ? 1 : 0);
                    RunReport report;
                    try {
                        report = new Runner(kind.applyTo(clusterSettings())).run(config);
                    } catch (RuntimeException e) {
                        err.println("dfr bench-recovery: the " + kind.optionValue() + " run failed: " + e.getMessage());
                        return 1;
                    }
                    countSplit(report.recoveries());
                    runs.get(kind).add(toRun(Strategy.DFR, rep, report, report.recoveries(), killsText()));
                    // partition:rank of the first recovery: a spare, a survivor or the fresh process
                    adopters.put(kind, String.join(",", report.recoveries().get(0).adoptions()));
                }
            }
            progress.done();
        }
        out.printf(Locale.ROOT, "bench-recovery: %s kernel, %s cells, %s ranks, kill %s, K = %d, dfr, %s mode, %d repetition%s"
                        + " (medians)%n", base.kernel(), KernelProblem.join(base.cells()),
                KernelProblem.join(base.ranksGrid()), killsText(), checkpointEvery, base.mode().name().toLowerCase(Locale.ROOT), repetitions,
                repetitions == 1 ? "" : "s");
        out.printf(Locale.ROOT, "%-12s %16s %12s %12s %12s %10s  %s%n", "replacement", "kill to resume", "detection",
                "agreement", "recompute", "adopters", "digest");
        Set<String> digests = new HashSet<>();
        for (Replacement kind : kinds) {
            List<RecoveryRun> r = runs.get(kind);
            r.forEach(x -> digests.add(x.fieldSha256()));
            out.printf(Locale.ROOT, "%-12s %13s ms %9s ms %9s ms %9s ms %10s  %s%n", kind.optionValue(),
                    median(r, RecoveryRun::timeToResumeMillis), median(r, RecoveryRun::detectionMillis),
                    median(r, RecoveryRun::agreementMillis), median(r, RecoveryRun::recomputeMillis),
                    adopters.getOrDefault(kind, "-"), r.get(0).fieldSha256().substring(0, 12));
        }
        out.println(digests.size() == 1 ? "digests: equal for every replacement"
                : "digests: DIFFER between replacements (a recovery was not exact)");
        // after the timed runs, as with the strategies: the same checks, the same JSON
        String reference = Campaign.referenceDigest(base, base.iterations());
        boolean matchesReference = digests.equals(Set.of(reference));
        out.println("the sequential reference's digest: " + (matchesReference ? "yes" : "NO"));
        long planWork = plan(base).asRun().recomputedPartitionIterations();
        boolean equalsPlan = runs.values().stream().flatMap(List::stream).allMatch(r -> r.recomputedWork() == planWork);
        out.println("dfr work equals plan: " + (equalsPlan ? "yes" : "NO") + " (plan: " + planWork
                + " partition-iterations)");
        printSplit(out);
        if (json != null) {
            BenchJson.write(new RecoveryReplacementReport(base.kernel().toString(), base.ranksGrid(), base.cells(), iterations, checkpointEvery,
                    checkpointCopies.validated(spec), killsText(),
                    base.mode().name().toLowerCase(Locale.ROOT), repetitions,
                    kinds.stream().map(k -> RecoveryStrategySummary.of(k.optionValue(), runs.get(k))).toList(),
                    kinds.stream().map(k -> k.optionValue() + " " + adopters.getOrDefault(k, "-")).toList(),
                    planWork, equalsPlan, digests.size() == 1, reference, matchesReference), json);
            out.println("json: " + json);
        }
        out.flush();
        if (!matchesReference) {
            err.println("dfr bench-recovery: a run ended with another field than the sequential reference's: the"
                    + " figures are of a wrong computation (dfr run --check-reference shows which run differs)");
            err.flush();
            return 1;
        }
        return 0;
    }

    private static String median(List<RecoveryRun> runs, Function<RecoveryRun, Long> field) {
        Double m = Medians.of(runs.stream().map(field).filter(Objects::nonNull).toList());
        return m == null ? "-" : String.format(Locale.ROOT, "%.0f", m);
    }

    /**
     * One run's figures for one recovery: the times of the first of {@code recoveries} (those of one failure
     * iteration), the work summed over them (deaths at one iteration found at two moments are two recoveries).
     */
    private static RecoveryRun toRun(Strategy strategy, int repetition, RunReport report,
                                     List<RunReport.Recovery> recoveries, String kills) {
        if (recoveries == null || recoveries.isEmpty()) {
            throw new RunFailedException("the " + strategy.label() + " run recorded no recovery of " + kills
                    + ": did the kill happen?");
        }
        RunReport.Recovery first = recoveries.get(0);
        long work = recoveries.stream().mapToLong(RunReport.Recovery::recomputedPartitionIterations).sum();
        Long detection = first.detectionMillis();
        if (detection == null && report.failures() != null) {
            detection = report.failures().stream().filter(f -> f.iteration() == first.failureIteration())
                    .map(RunReport.Failure::detectionMillis).filter(Objects::nonNull).findFirst()
                    .orElse(report.failures().isEmpty() ? null : report.failures().get(0).detectionMillis());
        }
        Long resume = detection != null && first.wallMillis() != null ? detection + first.wallMillis() : null;
        return new RecoveryRun(strategy.label(), repetition, detection, first.agreementMillis(), first.recomputeMillis(),
                first.wallMillis(), resume, work, first.checkpointIteration(), first.failureIteration(),
                report.wallMillis(), report.fieldSha256());
    }

    /**
     * The recoveries of failure iteration number {@code i}: those from its iteration up to the next one's (the
     * first also takes any before it; every recovery with one failure iteration alone).
     */
    private static List<RunReport.Recovery> window(RunReport report, List<Integer> failureIterations, int i) {
        List<RunReport.Recovery> all = report.recoveries() == null ? List.of() : report.recoveries();
        if (failureIterations.size() == 1) {
            return all;
        }
        int from = i == 0 ? Integer.MIN_VALUE : failureIterations.get(i);
        int to = i + 1 < failureIterations.size() ? failureIterations.get(i + 1) : Integer.MAX_VALUE;
        return all.stream().filter(r -> r.failureIteration() >= from && r.failureIteration() < to).toList();
    }

    /**
     * The recoveries after the first, each against the cone of what its first dfr run lost (null with one failure
     * iteration).
     */
    private static List<RecoveryBenchStep> laterRecoveries(RunConfig config, List<Integer> failureIterations,
                                                           List<List<RecoveryRun>> globalSteps,
                                                           List<List<RecoveryRun>> dfrSteps,
                                                           List<List<RunReport.Recovery>> dfrRecoveries) {
        if (failureIterations.size() == 1) {
            return null;
        }
        ConeAnalyzer analyzer = new ConeAnalyzer(config.kernelSetup().dependencies());
        List<RecoveryBenchStep> steps = new ArrayList<>();
        for (int i = 1; i < failureIterations.size(); i++) {
            int t = failureIterations.get(i);
            int c = committedBefore(config, t);
            boolean equalsPlan = true;
            RecoveryPlan first = null;
            List<RecoveryRun> dfr = dfrSteps.get(i);
            for (int j = 0; j < dfr.size(); j++) {
                // a survivor that adopted an earlier victim's partition and dies here loses both: the cone is of what
                // the run lost, at the iteration and checkpoint the configuration says
                int[] lost = dfrRecoveries.get(i).get(j).lostPartitions().stream().mapToInt(Integer::intValue).toArray();
                RecoveryPlan plan = analyzer.plan(lost, c, t);
                first = first == null ? plan : first;
                equalsPlan &= dfr.get(j).recomputedWork() == plan.asRun().recomputedPartitionIterations();
            }
            RecoveryStrategySummary g = RecoveryStrategySummary.of(Strategy.GLOBAL.label(), globalSteps.get(i));
            RecoveryStrategySummary d = RecoveryStrategySummary.of(Strategy.DFR.label(), dfr);
            steps.add(new RecoveryBenchStep(config.kills().stream().filter(k -> k.iteration() == t)
                    .map(k -> k.rank() + "@" + k.iteration()).collect(Collectors.joining(",")), c, g, d,
                    first == null ? null : first.asRun().recomputedPartitionIterations(),
                    first != null && first.isGlobalRollback(), !dfr.isEmpty() && equalsPlan, ratio(g, d)));
        }
        return steps;
    }

    private static Double ratio(RecoveryStrategySummary g, RecoveryStrategySummary d) {
        return g.medianRecoveryWallMillis() == null || d.medianRecoveryWallMillis() == null
                || g.medianRecoveryWallMillis() == 0 ? null : d.medianRecoveryWallMillis() / g.medianRecoveryWallMillis();
    }

    /**
     * The checkpoint a failure at {@code t} recovers from: the last one committed, i.e. taken at c with
     * c + L <= t - 1 (a kill in the L iterations after a checkpoint found it not committed).
     */
    private static int committedBefore(RunConfig config, int t) {
        int k = config.checkpointEvery();
        return Math.max(0, (t - 1 - config.runSpec().commitLagFor(k)) / k * k);
    }

    /**
     * The cone analysis's plan for the configured kill, derived from the configuration alone
     * (not from what the runs report): rank r owns partition r, the failure is at the kill's
     * iteration t, and the last checkpoint before it is {@code c = floor((t-1)/K) * K}. When the cone
     * covers every partition, dfr does global rollback's work.
     */
    private static RecoveryPlan plan(RunConfig config) {
        // the first recovery: the kills at the earliest iteration (the plan said 0 where the run did 9 before the
        // commit lag was taken into account)
        int t = config.kills().stream().mapToInt(FaultPlan.Kill::iteration).min().orElseThrow();
        ConeAnalyzer analyzer = new ConeAnalyzer(config.kernelSetup().dependencies());
        return analyzer.plan(config.kills().stream().filter(k -> k.iteration() == t).mapToInt(FaultPlan.Kill::rank)
                .toArray(), committedBefore(config, t), t);
    }

    /** Each rank dies once: several --fail at one iteration are ranks dying together (a host, say). */
    private void checkEachRankOnce() {
        Set<Integer> ranks = new HashSet<>();
        for (FaultPlan.Kill k : kills) {
            if (!ranks.add(k.rank())) {
                throw new ParameterException(spec.commandLine(), "--fail " + killsText() + ": rank " + k.rank()
                        + " is killed twice; each rank dies once");
            }
        }
    }

    /** The kills at {@code iteration}, as given. */
    private String killsAt(int iteration) {
        return kills.stream().filter(k -> k.iteration() == iteration).map(k -> k.rank() + "@" + k.iteration())
                .collect(Collectors.joining(","));
    }

    /** Runs whose deaths were recovered in more than one recovery (found at different moments). */
    private int splitRuns;

    private void countSplit(List<RunReport.Recovery> recoveries) {
        if (recoveries != null && recoveries.stream().filter(r -> !r.lostPartitions().isEmpty()).count() > 1) {
            splitRuns++;
        }
    }

    private void printSplit(PrintWriter out) {
        if (splitRuns > 0) {
            out.printf(Locale.ROOT, "note: %d time%s the deaths at one iteration of %s were recovered in more than one"
                    + " recovery (one was found later): the times are of the first, the work is the sum, and the plan is"
                    + " of one%n", splitRuns, splitRuns == 1 ? "" : "s", killsText());
        }
    }

    /** The kills as given: {@code 1@5} or {@code 1@5,6@5}. */
    private String killsText() {
        return kills.stream().map(k -> k.rank() + "@" + k.iteration()).collect(Collectors.joining(","));
    }


    /** Fresh settings (a cluster name of their own) with the checkpoint backups asked for. */
    private ClusterSettings clusterSettings() {
        return checkpointCopies.applyTo(spec, new ClusterSettings());
    }

    /** The default grid for a kernel of {@code axes} axes: about 4 million cells, 2048x2048's count. */
    static Sizes defaultCells(int axes) {
        return switch (axes) {
            case 1 -> new Sizes(List.of(4_194_304));
            case 2 -> new Sizes(List.of(2048, 2048));
            default -> new Sizes(List.of(160, 160, 160));
        };
    }
}
