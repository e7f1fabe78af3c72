package org.dfr.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.dfr.analysis.CheckpointIntervalAdvice;
import org.dfr.analysis.CommitLag;
import org.dfr.analysis.ConeAnalyzer;
import org.dfr.analysis.EnergyModel;
import org.dfr.analysis.ExpectedCostAnalyzer;
import org.dfr.analysis.ExpectedRecoveryCost;
import org.dfr.analysis.PartitionDependencies;
import org.dfr.analysis.RecoveryPlan;
import org.dfr.cli.options.GivenOptions;
import org.dfr.cli.options.KernelMixin;
import org.dfr.cli.options.Ranges;
import org.dfr.cli.options.Sizes;
import org.dfr.cli.options.SizesConverter;
import org.dfr.cli.plan.ExpectedReport;
import org.dfr.cli.plan.ExpectedTextRenderer;
import org.dfr.cli.plan.GridArgument;
import org.dfr.cli.plan.LayoutKind;
import org.dfr.cli.plan.PlanReport;
import org.dfr.cli.plan.PlanTextRenderer;
import org.dfr.harness.KernelJars;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code dfr plan}: the recovery cone of a failure on a ready-made layout, or its expected cost over a
 * checkpoint interval with the energy DFR saves. Usage errors exit with code 2.
 */
@Command(name = "plan", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Plans data-flow rollback (DFR) after losing partitions and compares it with global rollback.",
                "With --expected, averages the cost over a checkpoint interval (failure iteration uniform over"
                + " it) and estimates the energy-savings rate."},
        footer = {"", "Examples:",
                "  dfr plan --layout 2d5 --ranks-grid 2x4 --lost 1 --checkpoint-iteration 0 --failure-iteration 4",
                "  dfr plan --layout 2d5 --ranks-grid 1000x1000 --lost 500500 --checkpoint-iteration 0 --failure-iteration 101 --json",
                "  dfr plan --layout 2d5 --ranks-grid 2x4 --lost 1 --expected --checkpoint-interval 10",
                "  dfr plan --kernel heat3d7 --cells 32x32x32 --ranks-grid 2x2x2 --lost 3 --checkpoint-iteration 0 --failure-iteration 4",
                "  dfr plan --kernel graph-jacobi --cells 10000 --ranks-grid 8 --lost 1 --checkpoint-iteration 0 --failure-iteration 4"})
public final class PlanCommand implements Callable<Integer> {

    /** Most levels times partitions a plan lists (at most about 1 GB of JSON, which Jackson can still write). */
    static final long MAX_LEVEL_ENTRIES = 120_000_000L;

    /** Ranks per node in the paper's runs (8 ranks on 4 nodes): the default node count is partitions / 2. */
    static final int DEFAULT_PARTITIONS_PER_NODE = 2;
    /** 5 years, a common per-node MTBF assumption in exascale resilience studies. */
    static final double DEFAULT_NODE_MTBF_SECONDS = 5 * 365 * 24 * 3600.0;
    static final double DEFAULT_ITERATION_SECONDS = 1.0;
    static final double DEFAULT_BUSY_POWER_WATTS = 100.0;
    /** 12 % below busy: the saving the paper measured on idling, frequency-capped nodes. */
    static final double DEFAULT_IDLE_POWER_WATTS = 88.0;

    @Spec
    CommandSpec spec;

    /** The energy model's and the interval advice's options, which only {@code --expected} reads. */
    private static final List<String> EXPECTED_ONLY = List.of("--nodes", "--node-mtbf-seconds", "--checkpoint-seconds",
            "--iteration-seconds", "--busy-power-watts", "--idle-power-watts");

    @Option(names = "--layout", paramLabel = "1d|2d5|2d9|3d7|global",
            converter = LayoutConverter.class,
            description = "Dependency layout: 1D 3-point, 2D 5-point, 2D 9-point, 3D 7-point stencil, or global."
                    + " Or give --kernel instead.")
    LayoutKind layout;

    @Mixin
    KernelMixin kernel;

    @Option(names = "--cells", paramLabel = "NX[xNY[xNZ]]", converter = SizesConverter.class,
            description = "With --kernel: the cells the kernel's partitions split (its dependencies may depend on them).")
    Sizes cells;

    @Option(names = "--periodic", description = "Neighbours wrap around the grid edges (torus).")
    boolean periodic;

    @Option(names = "--ranks-grid", paramLabel = "PXxPY[xPZ]", converter = GridConverter.class,
            description = "Partition grid, as in dfr run; a 1D grid may be written N or Nx1."
                    + " Partition id = (pz*PY + py)*PX + px. Default, as dfr run's: 8 partitions shaped like the"
                    + " layout or --cells (8, 2x4, 2x2x2).")
    GridArgument grid;

    /** Whether {@link #grid} is the default, so that a message quoting it can say so. */
    private boolean gridDefaulted;

    /**
     * {@code --grid}, the option's name before it was named as in every other command: still accepted, not shown (a
     * second name on the same option made picocli's synopsis show the shorter one, while its errors said the other).
     */
    @Option(names = "--grid", hidden = true, paramLabel = "PXxPY[xPZ]", converter = GridConverter.class)
    void oldGridName(GridArgument value) {
        grid = value;
    }

    @Option(names = "--lost", split = ",", paramLabel = "P[,P...]",
            description = "Lost partition ids. With --expected, optional: omitted = mean over every single-partition failure.")
    int[] lost;

    @Option(names = "--checkpoint-iteration", paramLabel = "C", description = "Iteration held by the last checkpoint (>= 0).")
    Integer checkpointIteration;

    @Option(names = "--failure-iteration", paramLabel = "T",
            description = "Iteration at whose start the failure happens (> C); m = T-1-C iterations are lost.")
    Integer failureIteration;

    @Option(names = "--json", description = "Print one JSON object instead of text.")
    boolean json;

    @Option(names = "--expected", description = "Print expected values over a checkpoint interval instead of one plan.")
    boolean expected;

    @Option(names = {"--checkpoint-interval", "--checkpoint-every"}, paramLabel = "K", description = "Iterations between checkpoints (with --expected).")
    Integer checkpointInterval;

    @Option(names = "--commit-lag-iterations", paramLabel = "L", defaultValue = "0",
            description = "With --expected: checkpoints count L iterations after they are taken (0..K-1), so a failure"
                    + " in those L iterations rolls back to the checkpoint before. Default: ${DEFAULT-VALUE}, the paper's"
                    + " model; dfr run commits with L = 1 unless told otherwise.")
    int commitLagIterations;

    @Option(names = "--nodes", paramLabel = "N", converter = Ranges.AtLeastOne.class,
            description = "Nodes whose failures trigger recovery (default: partitions / " + DEFAULT_PARTITIONS_PER_NODE + ", at least 1).")
    Integer nodes;

    @Option(names = "--node-mtbf-seconds", paramLabel = "S", converter = Ranges.Positive.class,
            description = "Mean time between failures of one node (default: 5 years = ${DEFAULT-VALUE} s).")
    double nodeMtbfSeconds = DEFAULT_NODE_MTBF_SECONDS;

    @Option(names = "--checkpoint-seconds", paramLabel = "C", converter = Ranges.Positive.class,
            description = "With --expected: the cost of one checkpoint; prints Young's and Daly's interval for the"
                    + " system MTBF and, without --checkpoint-interval, plans at Daly's.")
    Double checkpointSeconds;

    @Option(names = "--iteration-seconds", paramLabel = "S", converter = Ranges.Positive.class, description = "Duration of one iteration (default: ${DEFAULT-VALUE}).")
    double iterationSeconds = DEFAULT_ITERATION_SECONDS;

    @Option(names = "--busy-power-watts", paramLabel = "W", converter = Ranges.NonNegative.class, description = "Power of a computing partition (default: ${DEFAULT-VALUE}).")
    double busyPowerWatts = DEFAULT_BUSY_POWER_WATTS;

    @Option(names = "--idle-power-watts", paramLabel = "W", converter = Ranges.NonNegative.class, description = "Power of an idle partition (default: ${DEFAULT-VALUE}).")
    double idlePowerWatts = DEFAULT_IDLE_POWER_WATTS;

    @Override
    public Integer call() {
        PartitionDependencies dependencies = declare();
        requireHeap(dependencies, Runtime.getRuntime().maxMemory()
                - (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()));
        ConeAnalyzer analyzer = new ConeAnalyzer(dependencies);
        PrintWriter out = spec.commandLine().getOut();
        if (expected) {
            runExpected(analyzer, out);
        } else {
            if (spec.commandLine().getParseResult().hasMatchedOption("--commit-lag-iterations")) {
                throw usage("--commit-lag-iterations is only used with --expected (one plan takes its checkpoint"
                        + " from --checkpoint-iteration C)");
            }
            // the energy model and the interval advice are expected values: one plan would drop them silently
            GivenOptions.firstOf(spec, EXPECTED_ONLY).ifPresent(option -> {
                throw usage(option + " is only used with --expected (the expected costs and energy over a"
                        + " checkpoint interval); one plan prints the cone of one failure");
            });
            runPlan(analyzer, out);
        }
        out.flush();
        return 0;
    }

    /** --periodic for a layout; null for a kernel, which takes its boundary as a kernel option (not echoed). */
    private Boolean periodicOfLayout() {
        return layout != null ? periodic : null;
    }

    private PartitionDependencies declare() {
        boolean kernelGiven = spec.commandLine().getParseResult().hasMatchedOption("--kernel") || cells != null;
        if (layout != null && kernelGiven) {
            throw usage(spec.commandLine().getParseResult().hasMatchedOption("--kernel")
                    ? "give either --layout or --kernel (with --cells), not both"
                    : "--cells is for --kernel: a --layout plans partitions, not cells");
        }
        if (layout == null && !kernelGiven) {
            throw usage("missing --layout or --kernel: plan a ready-made layout, or the dependencies a kernel declares");
        }
        if (layout != null && GivenOptions.firstOf(spec, List.of("--kernel-option", "--kernel-jar")).isPresent()) {
            throw usage("--kernel-option and --kernel-jar are for --kernel; a --layout takes --periodic for its boundary");
        }
        try {
            if (layout == null && cells == null) {
                throw new IllegalArgumentException("--kernel needs --cells: a kernel's dependencies may depend on its block sizes");
            }
            if (grid == null) {
                grid = GridArgument.parse(Sizes.defaultRanksGrid(layout != null ? layout.axes() : cells.axes()).toString());
                gridDefaulted = true;
            }
            if (layout != null) {
                return layout.declare(grid, periodic);
            }
            if (periodic) {
                throw new IllegalArgumentException("--periodic is for --layout; a kernel takes its boundary as a"
                        + " --kernel-option (see dfr kernels)");
            }
            int[] written = grid.writtenSizes();
            if (written.length != cells.axes()) {
                throw new IllegalArgumentException("--ranks-grid " + grid.text() + " has " + written.length
                        + (written.length == 1 ? " axis" : " axes") + " but --cells " + cells + " has " + cells.axes()
                        + ": give both with the same number of axes");
            }
            return KernelJars.catalog(kernel.jars()).create(kernel.choice(), cells.values().stream()
                    .mapToInt(Integer::intValue).toArray(), Arrays.copyOf(written, cells.axes())).dependencies();
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage(), e);
        }
    }

    private String layoutName() {
        return layout != null ? layout.token() : kernel.choice().toString();
    }

    private void runPlan(ConeAnalyzer analyzer, PrintWriter out) {
        if (checkpointInterval != null) {
            throw usage("--checkpoint-interval is only used with --expected");
        }
        if (lost == null) {
            throw usage("missing --lost: give the lost partition ids, e.g. --lost 1 or --lost 1,5");
        }
        if (checkpointIteration == null || failureIteration == null) {
            throw usage("missing " + (checkpointIteration == null ? "--checkpoint-iteration C" : "--failure-iteration T")
                    + " (needed unless --expected)");
        }
        requireLostInRange(analyzer.partitionCount());
        if (checkpointIteration < 0) {
            throw usage("--checkpoint-iteration must be >= 0 but was " + checkpointIteration);
        }
        if (failureIteration <= checkpointIteration) {
            throw usage("--failure-iteration must be greater than --checkpoint-iteration " + checkpointIteration
                    + " but was " + failureIteration);
        }
        long levels = (long) failureIteration - 1 - checkpointIteration;
        long levelCells = levels * analyzer.partitionCount();
        if (levelCells > MAX_LEVEL_ENTRIES) {
            // the plan lists every level's partitions: beyond this it takes gigabytes and minutes, then cannot print
            throw usage("--failure-iteration " + failureIteration + " minus --checkpoint-iteration " + checkpointIteration
                    + " makes " + levels + " levels of up to " + analyzer.partitionCount()
                    + " partitions: at most " + MAX_LEVEL_ENTRIES + " entries are planned (levels times partitions);"
                    + " use --expected for the costs over an interval");
        }
        // what a run does: a cone that covers everything is global rollback (its levels and work are global's)
        RecoveryPlan plan = analyzer.plan(lost, checkpointIteration, failureIteration).asRun();
        if (json) {
            out.println(toJson(PlanReport.of(layoutName(), periodicOfLayout(), grid, plan)));
        } else {
            PlanTextRenderer.render(description(), grid.grid(), plan, out);
            if (!analyzer.readByOthers(lost)) {
                out.println();
                out.println("note: no other partition reads " + (lost.length == 1 ? "partition " + lost[0]
                        : "partitions " + Arrays.toString(lost)) + ", so no survivor waits for its data: in a run the"
                        + " survivors may compute iteration " + failureIteration + " before they stop, and the report's"
                        + " failureIteration is then " + (failureIteration + 1) + " (docs/design.md, \"Iterations and"
                        + " the cone\")");
            }
        }
    }

    /** Refuses, in one line, a declaration whose analysis would not fit in {@code freeBytes} (an OutOfMemoryError). */
    void requireHeap(PartitionDependencies dependencies, long freeBytes) {
        long bytes = ConeAnalyzer.estimatedBytes(dependencies);
        if (bytes > freeBytes) {
            throw usage(String.format(Locale.ROOT, "%d partitions need about %.2f GB of heap to analyse, and this JVM"
                            + " has %.2f GB left: a smaller --ranks-grid, or more heap (DFR_JAVA_OPTS=\"-Xmx...\")",
                    dependencies.partitionCount(), bytes / 1e9, freeBytes / 1e9));
        }
    }

    private void runExpected(ConeAnalyzer analyzer, PrintWriter out) {
        if (checkpointIteration != null || failureIteration != null) {
            throw usage("--checkpoint-iteration and --failure-iteration are not used with --expected;"
                    + " give --checkpoint-interval K instead");
        }
        EnergyModel model = energyModel(analyzer.partitionCount());
        CheckpointIntervalAdvice advice = null;
        if (checkpointSeconds != null) {
            try {
                advice = new CheckpointIntervalAdvice(checkpointSeconds, 1.0 / model.systemFailureRatePerSecond(),
                        iterationSeconds);
            } catch (IllegalArgumentException e) {
                throw usage("--checkpoint-seconds " + checkpointSeconds + ": " + e.getMessage(), e);
            }
            if (checkpointInterval == null) {
                checkpointInterval = advice.dalyIterations();
            }
        }
        if (checkpointInterval == null) {
            throw usage("--expected needs --checkpoint-interval K (or --checkpoint-seconds C for Daly's interval)");
        }
        if (checkpointInterval < 1) {
            throw usage("--checkpoint-interval must be at least 1 but was " + checkpointInterval);
        }
        if (lost != null) {
            requireLostInRange(analyzer.partitionCount());
        }
        ExpectedCostAnalyzer expectedAnalyzer = new ExpectedCostAnalyzer(analyzer);
        if (!CommitLag.isAllowed(commitLagIterations, checkpointInterval)) {
            throw usage("--commit-lag-iterations " + commitLagIterations + " is not allowed with --checkpoint-interval "
                    + checkpointInterval + ": give " + CommitLag.allowed(checkpointInterval));
        }
        ExpectedRecoveryCost cost = lost == null
                ? expectedAnalyzer.overSingleFailures(checkpointInterval, commitLagIterations)
                : expectedAnalyzer.forLostPartitions(lost, checkpointInterval, commitLagIterations);
        if (json) {
            out.println(toJson(ExpectedReport.of(layoutName(), periodicOfLayout(), grid, lost, cost, model, advice)));
        } else {
            ExpectedTextRenderer.render(description(), lost, cost, model, out);
            if (advice != null) {
                out.println(String.format(Locale.ROOT,
                        "checkpoint interval advice: checkpoint %.4g s, system MTBF %.4g s: Young sqrt(2CM) = %.4g s"
                                + " = %d iterations, Daly = %.4g s = %d iterations (planned above: K = %d)",
                        advice.checkpointSeconds(), advice.systemMtbfSeconds(), advice.youngSeconds(),
                        advice.youngIterations(), advice.dalySeconds(), advice.dalyIterations(), checkpointInterval));
            }
        }
    }

    private EnergyModel energyModel(int partitionCount) {
        if (idlePowerWatts > busyPowerWatts) {
            throw usage("--idle-power-watts " + idlePowerWatts + " is not allowed above --busy-power-watts " + busyPowerWatts);
        }
        int nodeCount = nodes != null ? nodes : Math.max(1, partitionCount / DEFAULT_PARTITIONS_PER_NODE);
        try {
            return new EnergyModel(nodeCount, nodeMtbfSeconds, iterationSeconds, busyPowerWatts, idlePowerWatts);
        } catch (IllegalArgumentException e) {
            throw usage("bad energy model input: " + e.getMessage(), e);
        }
    }

    private void requireLostInRange(int partitionCount) {
        if (lost.length == 0) {
            throw usage("--lost needs at least one partition id");
        }
        for (int p : lost) {
            if (p < 0 || p >= partitionCount) {
                throw usage("--lost partition " + p + " is out of range: grid " + grid.text() + " has partitions 0.."
                        + (partitionCount - 1));
            }
        }
    }

    private String description() {
        if (layout == null) {
            return "kernel " + kernel.choice() + " on " + cells + " cells, grid " + grid.text();
        }
        return layout.displayName() + (periodic ? " periodic" : "") + " on grid " + grid.text();
    }

    private String toJson(Object report) {
        try {
            return new ObjectMapper().writeValueAsString(report);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise " + report.getClass().getSimpleName(), e);
        }
    }

    private ParameterException usage(String message) {
        return usage(message, null);
    }

    private ParameterException usage(String message, IllegalArgumentException cause) {
        // a message about the grid when none was given must say where the value came from
        boolean quotesDefault = gridDefaulted && message.contains("grid " + grid.text());
        return new ParameterException(spec.commandLine(), message + (quotesDefault ? " (--ranks-grid was not given; "
                + grid.text() + " is the default for " + grid.writtenDimensions() + " ax"
                + (grid.writtenDimensions() == 1 ? "is" : "es") + ")" : ""), cause);
    }

    /** {@code --layout} values. */
    static final class LayoutConverter implements CommandLine.ITypeConverter<LayoutKind> {
        @Override
        public LayoutKind convert(String value) {
            try {
                return LayoutKind.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** {@code --ranks-grid} values. */
    static final class GridConverter implements CommandLine.ITypeConverter<GridArgument> {
        @Override
        public GridArgument convert(String value) {
            try {
                return GridArgument.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
