package org.dfr.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.dfr.cli.bench.BandwidthBound;
import org.dfr.cli.bench.BenchJson;
import org.dfr.cli.bench.BenchLayouts;
import org.dfr.cli.bench.BenchReport;
import org.dfr.cli.bench.BenchTable;
import org.dfr.cli.bench.BenchTargets;
import org.dfr.cli.bench.CheckpointCost;
import org.dfr.cli.bench.ReferenceTiming;
import org.dfr.cli.bench.ThroughputRow;
import org.dfr.cli.options.CheckpointCopiesMixin;
import org.dfr.cli.options.CliFiles;
import org.dfr.cli.options.KernelMixin;
import org.dfr.cli.options.Sizes;
import org.dfr.cli.options.SizesConverter;
import org.dfr.harness.KernelJars;
import org.dfr.harness.Mode;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.harness.Runner;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.jacobi.JacobiStencil;
import org.dfr.jacobi.bench.MemoryBandwidth;
import org.dfr.jacobi.bench.NanoClock;
import org.dfr.jacobi.bench.SequentialJacobiTiming;
import org.dfr.jacobi.bench.Throughput;
import org.dfr.kernels.Jacobi2d5Provider;
import org.dfr.runtime.Checkpointing;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.kernel.KernelSetup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code dfr bench}: in one JVM and one run, the sequential kernel, the runtime on each rank layout
 * (embedded, and in processes for the largest one), the memory-bandwidth bound and the cost of a
 * checkpoint, so that every ratio compares figures taken minutes apart on the same machine.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Times the sequential kernel (default jacobi2d5) and the runtime on 1, 2, 4 and 8 ranks on the"
                + " same grid, the memory-bandwidth bound of the kernel and the cost of a checkpoint; prints each"
                + " ratio to the sequential kernel against the targets. Runtime figures cover the iteration loop"
                + " only.",
                "The kernel is vectorised only when the JVM runs with --add-modules jdk.incubator.vector (./dfr"
                + " does); the line \"kernel: ...\" of the output says which one ran."},
        footer = {"", "Examples:",
                "  java -Xmx8g -XX:+UseParallelGC --add-modules jdk.incubator.vector -jar dfr.jar bench",
                "  dfr bench --cells 1024x1024 --iterations 50 --ranks 1,2 --skip-processes --report bench.json",
                "  dfr bench --kernel heat3d7 --cells 128x128x128 --iterations 20 --ranks 1,8",
                "", "Exit codes: 0 measured (targets missed are reported, not errors), 1 a run failed, 2 bad arguments."})
public final class BenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    KernelMixin kernel;

    @Mixin
    CheckpointCopiesMixin checkpointCopies;

    @Option(names = "--cells", paramLabel = "NX[xNY[xNZ]]", converter = SizesConverter.class,
            description = "Interior cells per axis. Default: 4096x4096 (2 axes), 16777216 (1), 256x256x256 (3).")
    Sizes cells;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "100",
            description = "Timed iterations per configuration (>= 1). Default: ${DEFAULT-VALUE}.")
    int iterations;

    @Option(names = "--ranks", paramLabel = "N|PXxPY", split = ",", defaultValue = "1,2,4,8",
            description = "Rank layouts: counts (for 2 axes 1, 2, 4, 8 mean 1x1, 2x1, 2x2, 2x4; for 3 axes 2x2x2 for 8)"
                    + " or grids with the kernel's axes. Default: ${DEFAULT-VALUE}.")
    List<String> ranks;

    @Option(names = "--skip-processes", description = "Do not time the largest layout in processes mode.")
    boolean skipProcesses;

    @Option(names = "--checkpoints", paramLabel = "C", defaultValue = "4",
            description = "Checkpoints inside the loop of the checkpoint-cost run on the largest layout; 0 skips"
                    + " it. Default: ${DEFAULT-VALUE}.")
    int checkpoints;

    @Option(names = "--commit-lag-iterations", paramLabel = "L",
            description = "Commit lag of the checkpoint-cost run (as dfr run --commit-lag-iterations; at most its"
                    + " interval minus one). Default: dfr run's.")
    Integer commitLagIterations;

    @Option(names = "--bandwidth-mib", paramLabel = "MIB", defaultValue = "256",
            description = "Size of each array of the bandwidth copy, far larger than the caches. Default: ${DEFAULT-VALUE}.")
    int bandwidthMib;

    @Option(names = {"--report", "--json"}, paramLabel = "FILE", description = "Also write the results as JSON to FILE.")
    Path json;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Sizes grid;
        List<Sizes> layouts;
        KernelSetup whole;
        int axes;
        try {
            axes = KernelJars.catalog(kernel.jars()).get(kernel.choice().name()).dimensions();
            grid = cells != null ? cells : defaultCells(axes);
            layouts = BenchLayouts.parseAll(ranks, grid.axes());
            whole = KernelJars.catalog(kernel.jars()).create(kernel.choice(), toArray(grid.values()),
                    toArray(Collections.nCopies(grid.axes(), 1)));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        boolean jacobi = Jacobi2d5Provider.NAME.equals(kernel.choice().name());
        if (iterations < 1) {
            throw new ParameterException(spec.commandLine(), "--iterations must be >= 1, got " + iterations);
        }
        if (checkpoints < 0) {
            throw new ParameterException(spec.commandLine(), "--checkpoints must be >= 0, got " + checkpoints);
        }
        clusterSettings = checkpointCopies.applyTo(spec, new ClusterSettings());
        if (commitLagIterations != null && commitLagIterations < 0) {
            throw new ParameterException(spec.commandLine(), "--commit-lag-iterations must be >= 0, got "
                    + commitLagIterations);
        }
        if (bandwidthMib < 1 || bandwidthMib > 8192) {
            throw new ParameterException(spec.commandLine(), "--bandwidth-mib must be 1..8192, got " + bandwidthMib);
        }
        CliFiles.requireWritableTarget(spec, "--report", json);

        int steps = 1 + bandwidthThreads(layouts, Runtime.getRuntime().availableProcessors()).size() + layouts.size()
                + (skipProcesses ? 0 : 1) + (checkpoints == 0 ? 0 : 1);
        try (Progress started = Progress.start("bench", steps, err)) {
            progress = started;
            int exit = measure(out, err, grid, layouts, whole, jacobi);
            if (exit == 0) {
                started.done();
            }
            return exit;
        }
    }

    private Progress progress;
    /** The cluster every timed run forms (its checkpoint backups checked before anything is measured). */
    private ClusterSettings clusterSettings;

    private Integer measure(PrintWriter out, PrintWriter err, Sizes grid, List<Sizes> layouts, KernelSetup whole,
                            boolean jacobi) {
        progress(err, "sequential kernel");
        Throughput sequential = jacobi
                ? SequentialJacobiTiming.withSystemClock().measure(new JacobiProblem(grid.get(0), grid.get(1)), iterations)
                : ReferenceTiming.measure(whole, iterations);
        double seq = sequential.perSecond();

        int cores = Runtime.getRuntime().availableProcessors();
        Map<Integer, BandwidthBound> bounds = new TreeMap<>();
        for (int threads : bandwidthThreads(layouts, cores)) {
            progress(err, "memory bandwidth, " + threads + (threads == 1 ? " thread" : " threads"));
            Throughput copy = new MemoryBandwidth((long) bandwidthMib << 20, MemoryBandwidth.DEFAULT_REPETITIONS,
                    NanoClock.SYSTEM).measureCopy(threads);
            bounds.put(threads, BandwidthBound.of(threads, copy.perSecond()));
        }
        double bytesPerSecond = bounds.get(1).bytesPerSecond();
        double fraction = MemoryBandwidth.fractionOfBound(seq, bytesPerSecond);
        List<ThroughputRow> rows = new ArrayList<>();
        rows.add(new ThroughputRow("sequential", 0, "sequential", seq, sequential.nanos() / 1_000_000, 1.0, null, null,
                null, fraction, null));

        Runner runner = new Runner(clusterSettings);
        RunReport largestEmbedded = null;
        Sizes largest = layouts.stream().max(Comparator.comparingLong(Sizes::product)).orElseThrow();
        for (Sizes layout : layouts) {
            String name = layout + " embedded";
            progress(err, name);
            try {
                RunReport r = runner.run(config(layout, grid, iterations));
                rows.add(ThroughputRow.measured(name, (int) layout.product(), "embedded", r.cellUpdatesPerSecond(),
                        r.loopMillis(), seq, bounds.get(Math.min((int) layout.product(), cores))));
                if (layout.equals(largest)) {
                    largestEmbedded = r;
                }
            } catch (RuntimeException e) {
                rows.add(ThroughputRow.unavailable(name, (int) layout.product(), "embedded",
                        "embedded: failed (" + e.getMessage() + ")"));
            }
        }
        if (!skipProcesses) {
            String name = largest + " processes";
            progress(err, name);
            try {
                RunReport r = runner.run(config(largest, grid, iterations).withMode(Mode.PROCESSES));
                rows.add(ThroughputRow.measured(name, (int) largest.product(), "processes", r.cellUpdatesPerSecond(),
                        r.loopMillis(), seq, bounds.get(Math.min((int) largest.product(), cores))));
            } catch (RuntimeException | LinkageError e) {
                rows.add(ThroughputRow.unavailable(name, (int) largest.product(), "processes",
                        "processes mode: unavailable (" + e + ")"));
            }
        }

        CheckpointCost checkpoint = checkpointCost(err, runner, largest, grid, largestEmbedded);
        if (!(jacobi && grid.values().equals(BenchTargets.MPI_REFERENCE_CELLS))) {
            rows = new ArrayList<>(rows.stream().map(ThroughputRow::withoutReferences).toList());
            out.println("(the ratio targets and the C + MPI reference figures are for jacobi2d5 on 4096x4096 cells;"
                    + " not shown for this run)");
        }
        BenchReport report = new BenchReport(grid.values(), iterations, seq,
                jacobi ? JacobiStencil.implementation() : kernel.choice().toString(), rows,
                bytesPerSecond, bytesPerSecond / MemoryBandwidth.BYTES_PER_CELL_UPDATE, fraction,
                BenchTargets.MIN_BANDWIDTH_FRACTION, fraction >= BenchTargets.MIN_BANDWIDTH_FRACTION,
                List.copyOf(bounds.values()), checkpoint);
        BenchTable.print(report, out);
        if (json != null) {
            BenchJson.write(report, json);
            out.println("json: " + json);
        }
        out.flush();
        return 0;
    }

    /** One thread for the sequential kernel, and min(ranks, cores) for every layout. */
    static SortedSet<Integer> bandwidthThreads(List<Sizes> layouts, int cores) {
        SortedSet<Integer> threads = new TreeSet<>();
        threads.add(1);
        layouts.forEach(l -> threads.add((int) Math.min(l.product(), cores)));
        return threads;
    }

    /** The default cells for a kernel of {@code axes} axes: about 1.7e7 cells. */
    static Sizes defaultCells(int axes) {
        return switch (axes) {
            case 1 -> new Sizes(List.of(16_777_216));
            case 2 -> new Sizes(List.of(4096, 4096));
            default -> new Sizes(List.of(256, 256, 256));
        };
    }

    private static int[] toArray(List<Integer> values) {
        return values.stream().mapToInt(Integer::intValue).toArray();
    }

    private CheckpointCost checkpointCost(PrintWriter err, Runner runner, Sizes layout, Sizes grid,
                                          RunReport withoutCheckpoints) {
        String name = layout.toString();
        if (checkpoints == 0) {
            return CheckpointCost.unavailable(name, "skipped (--checkpoints 0)");
        }
        if (withoutCheckpoints == null) {
            return CheckpointCost.unavailable(name, "unavailable: the run without checkpoints failed");
        }
        int every = Math.max(1, iterations / (checkpoints + 1));
        // RunSpec takes checkpoints at multiples of `every` strictly before the last iteration
        int inLoop = (iterations - 1) / every;
        if (inLoop == 0) {
            return CheckpointCost.unavailable(name, "unavailable: " + iterations + " iterations leave no room for a"
                    + " checkpoint inside the loop");
        }
        progress(err, name + " embedded with " + inLoop + " checkpoints");
        RunReport with;
        try {
            with = runner.run(RunConfig.of(kernel.choice(), kernel.jars(), grid.values(), layout.values(), iterations,
                    every).withCommitLagIterations(commitLagIterations == null ? null
                    : Checkpointing.lagFor(every, commitLagIterations)));
        } catch (RuntimeException e) {
            return CheckpointCost.unavailable(name, "unavailable: the run with checkpoints failed (" + e.getMessage() + ")");
        }
        double iterationMillis = (double) withoutCheckpoints.loopMillis() / iterations;
        double overhead = (double) (with.loopMillis() - withoutCheckpoints.loopMillis()) / inLoop;
        double write = with.checkpointMillisEach();
        return new CheckpointCost(name, every, inLoop, with.commitLagIterations(), with.checkpointBackups(),
                with.checkpointReplication(), iterationMillis, overhead,
                overhead / iterationMillis, write,
                write / iterationMillis, null);
    }

    /**
     * A run without checkpoints inside the loop: {@code checkpointEvery = iterations} only takes the
     * initial one, which happens before the loop starts.
     */
    private RunConfig config(Sizes layout, Sizes grid, int iterations) {
        return RunConfig.of(kernel.choice(), kernel.jars(), grid.values(), layout.values(), iterations, iterations);
    }

    private void progress(PrintWriter err, String what) {
        // the previous configuration's members and checkpoints are garbage now: collect them outside the timing
        System.gc();
        progress.next("timing " + what);
    }
}
