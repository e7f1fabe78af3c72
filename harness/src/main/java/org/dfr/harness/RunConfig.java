package org.dfr.jacobi.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.dfr.jacobi.BlockDecomposition;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.recovery.FaultPlan;
import org.dfr.recovery.Strategy;
import org.dfr.runtime.RunSpec;

/**
 * Everything that defines one Jacobi run. Validated on construction, before any member starts, so
 * that bad sizes fail with a clear message and nothing half-started is left behind.
 *
 * @param hostFailures {@code HOST@ITER}: every rank of that host dies at the start of ITER
 * @param sysfsRoot root of the sysfs tree for frequency capping (tests point it at a fake tree)
 */
public record JacobiRunConfig(int px, int py, int nx, int ny, int iterations, int checkpointEvery, Mode mode,
                              int ranksPerHost, int spares, Strategy strategy, List<FaultPlan.Kill> kills,
                              List<FaultPlan.Kill> hostFailures, Set<Integer> failDuringRecovery,
                              boolean capIdleHosts, Path sysfsRoot, Path journal, Long samplePeriodMillis) {

    public JacobiRunConfig {
        Objects.requireNonNull(mode);
        Objects.requireNonNull(strategy);
        kills = List.copyOf(kills);
        hostFailures = List.copyOf(hostFailures);
        failDuringRecovery = Set.copyOf(failDuringRecovery);
        JacobiProblem problem = new JacobiProblem(nx, ny);
        new BlockDecomposition(problem, px, py);
        RunSpec spec = new RunSpec(px * py, iterations, checkpointEvery, ranksPerHost, spares);
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

    private static void checkIteration(String option, FaultPlan.Kill k, int iterations) {
        if (k.iteration() > iterations) {
            throw new IllegalArgumentException(option + " " + k.rank() + "@" + k.iteration() + ": iteration "
                    + k.iteration() + " is past the end of the run; iterations are 1.." + iterations);
        }
    }

    public JacobiProblem problem() {
        return new JacobiProblem(nx, ny);
    }

    public BlockDecomposition decomposition() {
        return new BlockDecomposition(problem(), px, py);
    }

    public RunSpec runSpec() {
        return new RunSpec(px * py, iterations, checkpointEvery, ranksPerHost, spares);
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
    public JacobiRunConfig withStrategy(Strategy other) {
        return new JacobiRunConfig(px, py, nx, ny, iterations, checkpointEvery, mode, ranksPerHost, spares, other, kills,
                hostFailures, failDuringRecovery, capIdleHosts, sysfsRoot, journal, samplePeriodMillis);
    }

    /** The same run in another mode. */
    public JacobiRunConfig withMode(Mode other) {
        return new JacobiRunConfig(px, py, nx, ny, iterations, checkpointEvery, other, ranksPerHost, spares, strategy,
                kills, hostFailures, failDuringRecovery, capIdleHosts, sysfsRoot, journal, samplePeriodMillis);
    }

    /** A builder-style start with the defaults of the command line. */
    public static JacobiRunConfig of(int px, int py, int nx, int ny, int iterations, int checkpointEvery) {
        return new JacobiRunConfig(px, py, nx, ny, iterations, checkpointEvery, Mode.EMBEDDED,
                RunSpec.DEFAULT_RANKS_PER_HOST, 0, Strategy.DFR, List.of(), List.of(), Set.of(), false, null, null, null);
    }

    public JacobiRunConfig withFaults(List<FaultPlan.Kill> rankKills, List<FaultPlan.Kill> hosts, Set<Integer> duringRecovery) {
        return new JacobiRunConfig(px, py, nx, ny, iterations, checkpointEvery, mode, ranksPerHost, spares, strategy,
                rankKills, hosts, duringRecovery, capIdleHosts, sysfsRoot, journal, samplePeriodMillis);
    }

    public JacobiRunConfig withSpares(int count) {
        return new JacobiRunConfig(px, py, nx, ny, iterations, checkpointEvery, mode, ranksPerHost, count, strategy,
                kills, hostFailures, failDuringRecovery, capIdleHosts, sysfsRoot, journal, samplePeriodMillis);
    }

    public JacobiRunConfig withCapping(boolean cap, Path root, Path journalFile) {
        return new JacobiRunConfig(px, py, nx, ny, iterations, checkpointEvery, mode, ranksPerHost, spares, strategy,
                kills, hostFailures, failDuringRecovery, cap, root, journalFile, samplePeriodMillis);
    }
}
