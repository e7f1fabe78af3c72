package org.dfr.harness;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.dfr.analysis.CommitLag;
import org.dfr.recovery.FaultPlan;
import org.dfr.recovery.Strategy;
import org.dfr.runtime.RunSpec;
import org.dfr.runtime.kernel.KernelChoice;
import org.dfr.runtime.kernel.KernelOptions;
import org.dfr.runtime.kernel.KernelProblem;
import org.dfr.runtime.kernel.KernelSetup;

/**
 * Everything that defines one run of any kernel. Validated on construction (the kernel is built once
 * to check its sizes and options), before any member starts, so that bad sizes fail with a clear
 * message and nothing half-started is left behind.
 *
 * @param kernel the kernel and the options given for it
 * @param kernelJars jars with more kernel providers ({@code --kernel-jar}); on every rank's class path
 * @param cells interior cells per axis, x first (a graph kernel: {@code [vertices]})
 * @param ranksGrid partitions per axis, x first; rank r owns partition r at start
 * @param tolerance above 0: stop after the first iteration whose global residual is below it
 * @param hostFailures {@code HOST@ITER}: every rank of that host dies at the start of ITER
 * @param sysfsRoot root of the sysfs tree for frequency capping (tests point it at a fake tree)
 * @param mtbfSeconds null: checkpoint every {@code checkpointEvery} iterations; else the mean time between
 *        failures of the whole run, and the interval is chosen during the run from the checkpoint cost
 *        measured in it ({@code --checkpoint-every auto}; {@code checkpointEvery} is then not used)
 * @param commitLagIterations null: the default commit lag ({@link RunSpec#commitLagIterations}); else
 *        iterations between a checkpoint and its commit ({@code --commit-lag-iterations}), below a fixed
 *        {@code checkpointEvery}
 */
public record RunConfig(KernelChoice kernel, List<Path> kernelJars, List<Integer> cells, List<Integer> ranksGrid,
                        int iterations, double tolerance, int checkpointEvery, Mode mode, int ranksPerHost, int spares,
                        Strategy strategy, List<FaultPlan.Kill> kills, List<FaultPlan.Kill> hostFailures,
                        Set<Integer> failDuringRecovery, boolean capIdleHosts, Path sysfsRoot, Path journal,
                        Long samplePeriodMillis, Double mtbfSeconds, Integer commitLagIterations) {

    /** A run with the default commit lag. */
    public RunConfig(KernelChoice kernel, List<Path> kernelJars, List<Integer> cells, List<Integer> ranksGrid,
                     int iterations, double tolerance, int checkpointEvery, Mode mode, int ranksPerHost, int spares,
                     Strategy strategy, List<FaultPlan.Kill> kills, List<FaultPlan.Kill> hostFailures,
                     Set<Integer> failDuringRecovery, boolean capIdleHosts, Path sysfsRoot, Path journal,
                     Long samplePeriodMillis, Double mtbfSeconds) {
        this(kernel, kernelJars, cells, ranksGrid, iterations, tolerance, checkpointEvery, mode, ranksPerHost, spares,
                strategy, kills, hostFailures, failDuringRecovery, capIdleHosts, sysfsRoot, journal, samplePeriodMillis,
                mtbfSeconds, null);
    }

    /** A run with a fixed checkpoint interval. */
    public RunConfig(KernelChoice kernel, List<Path> kernelJars, List<Integer> cells, List<Integer> ranksGrid,
                     int iterations, double tolerance, int checkpointEvery, Mode mode, int ranksPerHost, int spares,
                     Strategy strategy, List<FaultPlan.Kill> kills, List<FaultPlan.Kill> hostFailures,
                     Set<Integer> failDuringRecovery, boolean capIdleHosts, Path sysfsRoot, Path journal,
                     Long samplePeriodMillis) {
        this(kernel, kernelJars, cells, ranksGrid, iterations, tolerance, checkpointEvery, mode, ranksPerHost, spares,
                strategy, kills, hostFailures, failDuringRecovery, capIdleHosts, sysfsRoot, journal, samplePeriodMillis,
                null);
    }

    public RunConfig {
        Objects.requireNonNull(kernel);
        Objects.requireNonNull(mode);
        Objects.requireNonNull(strategy);
        kernelJars = List.copyOf(kernelJars);
        cells = List.copyOf(cells);
        ranksGrid = List.copyOf(ranksGrid);
        kills = List.copyOf(kills);
        hostFailures = List.copyOf(hostFailures);
        failDuringRecovery = Set.copyOf(failDuringRecovery);
        if (cells.size() != ranksGrid.size()) {
            throw new IllegalArgumentException("--cells " + KernelProblem.join(cells) + " has " + cells.size()
                    + (cells.size() == 1 ? " axis" : " axes") + " but --ranks-grid " + KernelProblem.join(ranksGrid) + " has " + ranksGrid.size()
                    + ": give both with the same number of axes");
        }
        if (mtbfSeconds != null && !(mtbfSeconds > 0 && !mtbfSeconds.isInfinite())) {
            throw new IllegalArgumentException("--mtbf-seconds " + mtbfSeconds + " is not allowed: give a number > 0");
        }
        if (commitLagIterations != null && mtbfSeconds != null) {
            throw new IllegalArgumentException("--commit-lag-iterations " + commitLagIterations
                    + " is not allowed with --checkpoint-every auto: give a fixed --checkpoint-every K with it");
        }
        if (commitLagIterations != null && !CommitLag.isAllowed(commitLagIterations, checkpointEvery)) {
            throw new IllegalArgumentException("--commit-lag-iterations " + commitLagIterations + " is not allowed with"
                    + " --checkpoint-every " + checkpointEvery + ": give " + CommitLag.allowed(checkpointEvery));
        }
        RunSpec spec = runSpec(partitionCountOf(ranksGrid), iterations, checkpointEvery, ranksPerHost, spares, tolerance,
                mtbfSeconds, commitLagIterations);
        KernelJars.catalog(kernelJars).create(kernel, toArray(cells), toArray(ranksGrid));
        for (FaultPlan.Kill k : kills) {
            if (k.rank() >= spec.memberCount()) {
                throw new IllegalArgumentException("--fail " + k.rank() + "@" + k.iteration() + ": rank " + k.rank()
                        + " does not exist; ranks are 0.." + (spec.memberCount() - 1));
            }
            checkIteration("--fail", k, iterations);
        }
        for (FaultPlan.Kill h : hostFailures) {
            if (h.rank() >= spec.hostCount()) {
                throw new IllegalArgumentException("--fail-host " + h.rank() + "@" + h.iteration() + ": host " + h.rank()
                        + " does not exist; hosts are 0.." + (spec.hostCount() - 1) + " (" + ranksPerHost
                        + " ranks per host)");
            }
            checkIteration("--fail-host", h, iterations);
        }
        for (int r : failDuringRecovery) {
            if (r < 0 || r >= spec.memberCount()) {
                throw new IllegalArgumentException("--fail-during-recovery " + r + ": ranks are 0.."
                        + (spec.memberCount() - 1));
            }
        }
    }

    private static int partitionCountOf(List<Integer> grid) {
        long n = 1;
        for (int p : grid) {
            if (p < 1) {
                throw new IllegalArgumentException("--ranks-grid " + KernelProblem.join(grid)
                        + ": every size must be >= 1");
            }
            n *= p;
        }
        if (n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--ranks-grid " + KernelProblem.join(grid) + " has " + n
                    + " partitions, more than an int id can name");
        }
        return (int) n;
    }

    private static void checkIteration(String option, FaultPlan.Kill k, int iterations) {
        if (k.iteration() > iterations) {
            throw new IllegalArgumentException(option + " " + k.rank() + "@" + k.iteration() + ": iteration "
                    + k.iteration() + " is past the end of the run; iterations are 1.." + iterations);
        }
    }

    static int[] toArray(List<Integer> values) {
        return values.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Builds the kernel this run computes (in this JVM's catalog plus {@link #kernelJars}). */
    public KernelSetup kernelSetup() {
        return KernelJars.catalog(kernelJars).create(kernel, toArray(cells), toArray(ranksGrid));
    }

    /**
     * The kernel's options as it runs with them: those given, and every other at its default (what a report names and
     * the file level keys on; {@code --reference} shows it too).
     */
    @JsonIgnore
    public Map<String, String> resolvedKernelOptions() {
        return KernelOptions.resolve(kernel.name(), KernelJars.catalog(kernelJars).get(kernel.name()).options(),
                kernel.options()).values();
    }

    /** Partitions: the product of {@link #ranksGrid}. */
    @JsonIgnore
    public int partitionCount() {
        return partitionCountOf(ranksGrid);
    }

    /** Cells (or vertices) of the whole domain. */
    @JsonIgnore
    public long cellCount() {
        long n = 1;
        for (int c : cells) {
            n *= c;
        }
        return n;
    }

    /** Cells of the largest partition, its one-cell frame included along every axis (for heap sizing). */
    @JsonIgnore
    public long largestBlockCells() {
        long n = 1;
        for (int a = 0; a < cells.size(); a++) {
            n *= (cells.get(a) + ranksGrid.get(a) - 1) / ranksGrid.get(a) + 2L;
        }
        return n;
    }

    public RunSpec runSpec() {
        return runSpec(partitionCount(), iterations, checkpointEvery, ranksPerHost, spares, tolerance, mtbfSeconds,
                commitLagIterations);
    }

    private static RunSpec runSpec(int partitions, int iterations, int checkpointEvery, int ranksPerHost, int spares,
                                   double tolerance, Double mtbfSeconds, Integer commitLagIterations) {
        RunSpec spec = new RunSpec(partitions, iterations, checkpointEvery, ranksPerHost, spares, tolerance,
                mtbfSeconds == null ? RunSpec.FIXED_INTERVAL : mtbfSeconds);
        return commitLagIterations == null ? spec : spec.withCommitLagIterations(commitLagIterations);
    }

    /** Rank kills, host failures expanded to their ranks, and deaths during recovery. */
    public FaultPlan faultPlan() {
        RunSpec spec = runSpec();
        List<FaultPlan.Kill> all = new ArrayList<>(kills);
        for (FaultPlan.Kill h : hostFailures) {
            for (int r = 0; r < spec.memberCount(); r++) {
                if (spec.hostOf(r) == h.rank()) {
                    all.add(new FaultPlan.Kill(r, h.iteration(), FaultPlan.Point.ITERATION_START));
                }
            }
        }
        return new FaultPlan(all, new TreeSet<>(failDuringRecovery));
    }

    /** The same run with another strategy. */
    public RunConfig withStrategy(Strategy other) {
        return new RunConfig(kernel, kernelJars, cells, ranksGrid, iterations, tolerance, checkpointEvery, mode,
                ranksPerHost, spares, other, kills, hostFailures, failDuringRecovery, capIdleHosts, sysfsRoot, journal,
                samplePeriodMillis, mtbfSeconds, commitLagIterations);
    }

    /** The same run in another mode. */
    public RunConfig withMode(Mode other) {
        return new RunConfig(kernel, kernelJars, cells, ranksGrid, iterations, tolerance, checkpointEvery, other,
                ranksPerHost, spares, strategy, kills, hostFailures, failDuringRecovery, capIdleHosts, sysfsRoot,
                journal, samplePeriodMillis, mtbfSeconds, commitLagIterations);
    }

    /** The same run with a convergence test ({@code 0}: none). */
    public RunConfig withTolerance(double value) {
        return new RunConfig(kernel, kernelJars, cells, ranksGrid, iterations, value, checkpointEvery, mode,
                ranksPerHost, spares, strategy, kills, hostFailures, failDuringRecovery, capIdleHosts, sysfsRoot,
                journal, samplePeriodMillis, mtbfSeconds, commitLagIterations);
    }

    /** The same run with hosts of {@code ranks} ranks. */
    public RunConfig withRanksPerHost(int ranks) {
        return new RunConfig(kernel, kernelJars, cells, ranksGrid, iterations, tolerance, checkpointEvery, mode,
                ranks, spares, strategy, kills, hostFailures, failDuringRecovery, capIdleHosts, sysfsRoot,
                journal, samplePeriodMillis, mtbfSeconds, commitLagIterations);
    }

    /** The same run of another kernel, with kernel providers also taken from {@code jars}. */
    public RunConfig withKernel(KernelChoice other, List<Path> jars) {
        return new RunConfig(other, jars, cells, ranksGrid, iterations, tolerance, checkpointEvery, mode,
                ranksPerHost, spares, strategy, kills, hostFailures, failDuringRecovery, capIdleHosts, sysfsRoot,
                journal, samplePeriodMillis, mtbfSeconds, commitLagIterations);
    }

    /** A run of the default kernel ({@code jacobi2d5}) on {@code px x py} ranks, with the command line's defaults. */
    public static RunConfig of(int px, int py, int nx, int ny, int iterations, int checkpointEvery) {
        return of(KernelChoice.DEFAULT, List.of(nx, ny), List.of(px, py), iterations, checkpointEvery);
    }

    /** A run of {@code kernel} with the command line's defaults. */
    public static RunConfig of(KernelChoice kernel, List<Integer> cells, List<Integer> ranksGrid, int iterations,
                               int checkpointEvery) {
        return of(kernel, List.of(), cells, ranksGrid, iterations, checkpointEvery);
    }

    /** A run of {@code kernel}, found on the class path or in {@code jars}, with the command line's defaults. */
    public static RunConfig of(KernelChoice kernel, List<Path> jars, List<Integer> cells, List<Integer> ranksGrid,
                               int iterations, int checkpointEvery) {
        return new RunConfig(kernel, jars, cells, ranksGrid, iterations, RunSpec.NO_TOLERANCE, checkpointEvery,
                Mode.EMBEDDED, RunSpec.DEFAULT_RANKS_PER_HOST, 0, Strategy.DFR, List.of(), List.of(), Set.of(), false,
                null, null, null);
    }

    public RunConfig withFaults(List<FaultPlan.Kill> rankKills, List<FaultPlan.Kill> hosts, Set<Integer> duringRecovery) {
        return new RunConfig(kernel, kernelJars, cells, ranksGrid, iterations, tolerance, checkpointEvery, mode,
                ranksPerHost, spares, strategy, rankKills, hosts, duringRecovery, capIdleHosts, sysfsRoot, journal,
                samplePeriodMillis, mtbfSeconds, commitLagIterations);
    }

    public RunConfig withSpares(int count) {
        return new RunConfig(kernel, kernelJars, cells, ranksGrid, iterations, tolerance, checkpointEvery, mode,
                ranksPerHost, count, strategy, kills, hostFailures, failDuringRecovery, capIdleHosts, sysfsRoot,
                journal, samplePeriodMillis, mtbfSeconds, commitLagIterations);
    }

    public RunConfig withCapping(boolean cap, Path root, Path journalFile) {
        return new RunConfig(kernel, kernelJars, cells, ranksGrid, iterations, tolerance, checkpointEvery, mode,
                ranksPerHost, spares, strategy, kills, hostFailures, failDuringRecovery, cap, root, journalFile,
                samplePeriodMillis, mtbfSeconds, commitLagIterations);
    }

    /**
     * This configuration with the checkpoint interval chosen during the run for this MTBF of the whole
     * run (null: every {@link #checkpointEvery} iterations).
     */
    public RunConfig withMtbfSeconds(Double value) {
        return new RunConfig(kernel, kernelJars, cells, ranksGrid, iterations, tolerance, checkpointEvery, mode,
                ranksPerHost, spares, strategy, kills, hostFailures, failDuringRecovery, capIdleHosts, sysfsRoot,
                journal, samplePeriodMillis, value, commitLagIterations);
    }

    /** This configuration with another commit lag (null: the default; see {@link #commitLagIterations}). */
    public RunConfig withCommitLagIterations(Integer value) {
        return new RunConfig(kernel, kernelJars, cells, ranksGrid, iterations, tolerance, checkpointEvery, mode,
                ranksPerHost, spares, strategy, kills, hostFailures, failDuringRecovery, capIdleHosts, sysfsRoot,
                journal, samplePeriodMillis, mtbfSeconds, value);
    }

    /** Whether the checkpoint interval is chosen during the run ({@link #mtbfSeconds}). */
    @JsonIgnore
    public boolean autoCheckpointInterval() {
        return mtbfSeconds != null;
    }

    /** This configuration with another power sampling period (null: the default). */
    public RunConfig withSamplePeriodMillis(Long millis) {
        return new RunConfig(kernel, kernelJars, cells, ranksGrid, iterations, tolerance, checkpointEvery, mode,
                ranksPerHost, spares, strategy, kills, hostFailures, failDuringRecovery, capIdleHosts, sysfsRoot,
                journal, millis, mtbfSeconds, commitLagIterations);
    }
}
