package org.dfr.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.dfr.analysis.ConeAnalyzer;
import org.dfr.analysis.DependencyDeclarations;
import org.dfr.analysis.ExpectedCostAnalyzer;
import org.dfr.analysis.ExpectedRecoveryCost;
import org.dfr.analysis.PartitionDependencies;
import org.dfr.simulator.sweep.Stats;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random failures: the simulated mean recomputation per failure must agree with the analyzer's expected value
 * (uniform failure iteration over the interval, uniform failing partition) within the 99 % confidence
 * interval of the simulated mean.
 */
class ExpectedCostAgreementTest {

    static Stream<Arguments> layouts() {
        return Stream.of(
                Arguments.of("4x4 5-point", DependencyDeclarations.twoD5Point(4, 4, false), 6),
                Arguments.of("2x4 5-point", DependencyDeclarations.twoD5Point(2, 4, false), 4),
                Arguments.of("1D 40 partitions", DependencyDeclarations.oneD3Point(40, false), 8),
                Arguments.of("3x3x3 7-point", DependencyDeclarations.threeD7Point(3, 3, 3, false), 5));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void when_failures_are_random_then_mean_recomputation_per_failure_matches_the_expected_cost(
            String name, PartitionDependencies deps, int every) {
        assertAgreement(deps, every, 0);
    }

    static Stream<Arguments> laggedLayouts() {
        return Stream.of(
                Arguments.of("2x4 5-point, K 4, lag 2", DependencyDeclarations.twoD5Point(2, 4, false), 4, 2),
                Arguments.of("1D 40 partitions, K 8, lag 3", DependencyDeclarations.oneD3Point(40, false), 8, 3));
    }

    /** The simulator and the analyzer model the commit lag apart: m uniform over L..K+L-1 in both. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("laggedLayouts")
    void when_checkpointsCountWithALag_then_mean_recomputation_per_failure_matches_the_expected_cost(
            String name, PartitionDependencies deps, int every, int lag) {
        assertAgreement(deps, every, lag);
    }

    private static void assertAgreement(PartitionDependencies deps, int every, int lag) {
        int n = deps.partitionCount();
        // halos and checkpoints cost nothing, so every iteration lasts as long and m is uniform over 0..K-1
        SimulationSpec base = SimulationSpec.paper(deps).withIterations(600, every).withRecordRecoveries(true)
                .withTiming(TimingModel.PAPER.withPartitionBytes(0))
                .withFailures(FailureModel.PAPER.withNodeMtbfSeconds(n * 30.0))
                .withCommitLagIterations(lag);
        List<Double> dfr = new ArrayList<>();
        List<Double> global = new ArrayList<>();
        for (long seed = 1; seed <= 8; seed++) {
            for (RecoveryRecord r : Simulation.run(base.withSeed(seed)).recoveriesRecorded()) {
                dfr.add((double) r.recomputedPartitionIterations());
            }
            for (RecoveryRecord r : Simulation.run(base.withSeed(seed).withStrategy(Strategy.GLOBAL)).recoveriesRecorded()) {
                global.add((double) r.recomputedPartitionIterations());
            }
        }
        ExpectedRecoveryCost expected = new ExpectedCostAnalyzer(new ConeAnalyzer(deps)).overSingleFailures(every, lag);

        double[] d = dfr.stream().mapToDouble(Double::doubleValue).toArray();
        double[] g = global.stream().mapToDouble(Double::doubleValue).toArray();
        assertThat(d.length).isGreaterThan(500);
        assertThat(Stats.mean(d)).isCloseTo(expected.dataFlowRollback().meanRecomputedPartitionIterations(),
                offset(Stats.confidenceHalfWidth(d, 0.99)));
        assertThat(Stats.mean(g)).isCloseTo(expected.globalRollback().meanRecomputedPartitionIterations(),
                offset(Stats.confidenceHalfWidth(g, 0.99)));
    }
}
