package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.dfr.harness.Campaign;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.harness.Runner;
import org.dfr.recovery.FaultPlan;
import org.dfr.recovery.Strategy;
import org.dfr.runtime.kernel.KernelChoice;
import org.dfr.runtime.kernel.ReferenceSolver;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --tolerance}: the run stops after the first iteration whose global residual is below it, and a
 * run with failures (one before and one after a checkpoint, recovered by either strategy) stops at
 * exactly that iteration with exactly that field.
 */
class ToleranceIT {

    @ParameterizedTest(name = "{0} {1}x{2} tolerance {3} {4}")
    @CsvSource({
            "jacobi2d5,    '24,20',  '2,4', 1e-2, dfr",
            "jacobi2d5,    '24,20',  '2,4', 1e-2, global",
            "graph-jacobi, '300',    '8',   1e-9, dfr",
            "heat1d3,      '40',     '8',   1e-7, global"})
    void when_failuresHappenBeforeConvergence_then_runStopsAtTheSameIterationWithTheSameField(String kernel,
            String cells, String grid, double tolerance, String strategy) {
        RunConfig base = RunConfig.of(KernelChoice.of(kernel), ints(cells), ints(grid), 5_000, 7)
                .withTolerance(tolerance).withStrategy(Strategy.parse(strategy));
        // where the sequential reference converges, with its own (differently ordered) residual sums
        int referenceStop = referenceStop(base);
        assertThat(referenceStop).as("the tolerance must stop the run before the cap").isLessThan(5_000)
                .isGreaterThan(20);

        RunReport clean = new Runner().run(base);
        RunReport failed = new Runner().run(base.withFaults(List.of(
                new FaultPlan.Kill(1, 6, FaultPlan.Point.ITERATION_START),
                new FaultPlan.Kill(6, referenceStop - 3, FaultPlan.Point.ITERATION_START)), List.of(), Set.of()));

        assertThat(clean.stoppedBy()).isEqualTo(RunReport.StopReason.TOLERANCE);
        assertThat(clean.iterationsRun()).isEqualTo(referenceStop);
        assertThat(clean.fieldSha256()).isEqualTo(Campaign.referenceDigest(base));
        assertThat(failed.recoveries()).hasSize(2);
        assertThat(failed.stoppedBy()).isEqualTo(RunReport.StopReason.TOLERANCE);
        assertThat(failed.iterationsRun()).isEqualTo(clean.iterationsRun());
        assertThat(failed.fieldSha256()).isEqualTo(clean.fieldSha256());
        assertThat(failed.finalResidual()).isEqualTo(clean.finalResidual());
    }

    private static int referenceStop(RunConfig config) {
        ReferenceSolver reference = config.kernelSetup().reference();
        for (int i = 1; i <= config.iterations(); i++) {
            if (reference.iterate() < config.tolerance()) {
                return i;
            }
        }
        return config.iterations();
    }

    private static List<Integer> ints(String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).map(Integer::valueOf).toList();
    }
}
