package org.dfr.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ExpectedCostAnalyzerTest {

    private static final double EPS = 1e-9;

    /** Brute force: enumerate every failure iteration t = c+1..c+K, plan each by naive set expansion, average. */
    private static double[] bruteForce(PartitionDependencies deps, int[] lost, int k) {
        return bruteForce(deps, lost, k, 0);
    }

    /**
     * The same with checkpoint c committed by the reduction of c+lag: a failure at the start of t <= c+lag finds
     * c-K the newest committed checkpoint.
     */
    private static double[] bruteForce(PartitionDependencies deps, int[] lost, int k, int lag) {
        int n = deps.partitionCount();
        int c = 40; // any checkpoint: only m matters
        double cone = 0;
        double work = 0;
        double idle = 0;
        double idleIterations = 0;
        for (int t = c + 1; t <= c + k; t++) {
            int committed = t <= c + lag ? c - k : c;
            int m = t - 1 - committed;
            List<TreeSet<Integer>> levels = NaiveCone.levels(deps, lost, m);
            TreeSet<Integer> participating = new TreeSet<>();
            if (m == 0) {
                for (int p : lost) {
                    participating.add(p);
                }
            } else {
                participating = levels.get(0);
            }
            cone += participating.size();
            if (m > 0 && participating.size() == n) {
                work += (double) m * n; // the cone covers everything: DFR is global rollback (DESIGN.md)
            } else {
                for (TreeSet<Integer> level : levels) {
                    work += level.size();
                }
            }
            idle += n - participating.size();
            idleIterations += (double) (n - participating.size()) * m;
        }
        return new double[] {cone / k, work / k, idle / k, idleIterations / k};
    }

    private static void assertMatches(MeanRecoveryCost actual, double[] expected) {
        assertThat(actual.meanConeSizePartitions()).isCloseTo(expected[0], within(EPS));
        assertThat(actual.meanRecomputedPartitionIterations()).isCloseTo(expected[1], within(EPS));
        assertThat(actual.meanIdlePartitions()).isCloseTo(expected[2], within(EPS));
        assertThat(actual.meanIdlePartitionIterations()).isCloseTo(expected[3], within(EPS));
    }

    @Test
    void when_givenLostSet_then_meansMatchBruteForce() {
        List<PartitionDependencies> layouts = List.of(
                DependencyDeclarations.oneD3Point(15, false),
                DependencyDeclarations.oneD3Point(7, true),
                DependencyDeclarations.twoD5Point(2, 4, false),
                DependencyDeclarations.twoD5Point(6, 5, true),
                DependencyDeclarations.twoD9Point(5, 4, false),
                DependencyDeclarations.threeD7Point(3, 4, 2, false),
                DependencyDeclarations.global(5));
        for (PartitionDependencies deps : layouts) {
            ExpectedCostAnalyzer analyzer = new ExpectedCostAnalyzer(new ConeAnalyzer(deps));
            for (int k : new int[] {1, 2, 5, 13}) {
                int[] lost = {1, deps.partitionCount() - 1};
                ExpectedRecoveryCost cost = analyzer.forLostPartitions(lost, k);
                assertMatches(cost.dataFlowRollback(), bruteForce(deps, lost, k));
                assertThat(cost.meanLostIterations()).isEqualTo((k - 1) / 2.0);
            }
        }
    }

    @Test
    void when_checkpointsAreCommittedWithALag_then_meansMatchBruteForce() {
        List<PartitionDependencies> layouts = List.of(
                DependencyDeclarations.oneD3Point(15, false),
                DependencyDeclarations.twoD5Point(6, 5, true),
                DependencyDeclarations.threeD7Point(3, 4, 2, false));
        for (PartitionDependencies deps : layouts) {
            ExpectedCostAnalyzer analyzer = new ExpectedCostAnalyzer(new ConeAnalyzer(deps));
            for (int k : new int[] {2, 5, 13}) {
                for (int lag : new int[] {1, k - 1}) {
                    int[] lost = {1};
                    ExpectedRecoveryCost cost = analyzer.forLostPartitions(lost, k, lag);
                    assertMatches(cost.dataFlowRollback(), bruteForce(deps, lost, k, lag));
                    assertThat(cost.meanLostIterations()).isEqualTo((k - 1) / 2.0 + lag);
                    assertThat(cost.globalRollback().meanRecomputedPartitionIterations())
                            .isCloseTo(deps.partitionCount() * ((k - 1) / 2.0 + lag), within(EPS));
                    assertThat(cost.commitLagIterations()).isEqualTo(lag);
                }
            }
        }
        // a lag costs recomputation: the same failure averaged over the interval recomputes more
        ExpectedCostAnalyzer line = new ExpectedCostAnalyzer(new ConeAnalyzer(DependencyDeclarations.oneD3Point(15, false)));
        assertThat(line.overSingleFailures(10, 9).dataFlowRollback().meanRecomputedPartitionIterations())
                .isGreaterThan(line.overSingleFailures(10, 1).dataFlowRollback().meanRecomputedPartitionIterations());
    }

    @Test
    void when_averagedOverSingleFailures_then_meanOfPerPartitionBruteForce() {
        Random random = new Random(7);
        int n = 12;
        int[][] rows = new int[n][];
        for (int p = 0; p < n; p++) {
            rows[p] = random.ints(2, 0, n).distinct().toArray();
        }
        PartitionDependencies deps = DependencyDeclarations.fromAdjacency(rows, false);
        int k = 6;
        double[] sum = new double[4];
        for (int f = 0; f < n; f++) {
            double[] one = bruteForce(deps, new int[] {f}, k);
            for (int i = 0; i < 4; i++) {
                sum[i] += one[i] / n;
            }
        }
        ExpectedRecoveryCost cost = new ExpectedCostAnalyzer(new ConeAnalyzer(deps)).overSingleFailures(k);
        assertMatches(cost.dataFlowRollback(), sum);
    }

    @Test
    void when_globalRollback_then_everyPartitionWorksEveryLostIteration() {
        ExpectedRecoveryCost cost = new ExpectedCostAnalyzer(new ConeAnalyzer(DependencyDeclarations.twoD5Point(2, 4, false)))
                .forLostPartitions(new int[] {1}, 10);
        // mean of m*8 over m = 0..9
        double expectedWork = 0;
        for (int m = 0; m < 10; m++) {
            expectedWork += m * 8 / 10.0;
        }
        assertThat(cost.globalRollback().meanRecomputedPartitionIterations()).isCloseTo(expectedWork, within(EPS));
        assertThat(cost.globalRollback().meanConeSizePartitions()).isEqualTo(8);
        assertThat(cost.globalRollback().meanIdlePartitions()).isZero();
    }

    @Test
    void when_energyModel_then_rateIsFailureRateTimesIdleTimesSavedPerIdle() {
        PartitionDependencies deps = DependencyDeclarations.twoD5Point(10, 10, false);
        int k = 8;
        ExpectedRecoveryCost cost = new ExpectedCostAnalyzer(new ConeAnalyzer(deps)).forLostPartitions(new int[] {55}, k);
        EnergyModel model = new EnergyModel(50, 1.0e6, 2.0, 100.0, 80.0);

        EnergySavings savings = model.savingsOf(cost);

        // independent: sum over m of idle(m) * m * 2 s * 20 W, averaged, times 50 / 1e6 failures per second
        double[] brute = bruteForce(deps, new int[] {55}, k);
        double perRecovery = brute[3] * 2.0 * 20.0;
        assertThat(savings.systemFailureRatePerSecond()).isCloseTo(5.0e-5, within(1e-18));
        assertThat(savings.meanSavedPerRecoveryJoules()).isCloseTo(perRecovery, within(1e-6));
        assertThat(savings.savingsRateWatts()).isCloseTo(5.0e-5 * perRecovery, within(1e-12));
        assertThat(savings.systemFailureRatePerSecond() * savings.meanIdlePartitions()
                * savings.meanSavedPerIdlePartitionJoules()).isCloseTo(savings.savingsRateWatts(), within(1e-12));
    }

    @Test
    void when_badInputs_then_rejectedNamingTheValue() {
        ExpectedCostAnalyzer analyzer = new ExpectedCostAnalyzer(new ConeAnalyzer(DependencyDeclarations.global(3)));
        assertThatThrownBy(() -> analyzer.forLostPartitions(new int[] {0}, 0)).hasMessageContaining("interval").hasMessageContaining("0");
        assertThatThrownBy(() -> analyzer.forLostPartitions(new int[] {0}, 5, 5))
                .hasMessage("commit lag must be 0..4 (a checkpoint is committed before the next one is written) for a checkpoint interval of 5 but was 5");
        assertThatThrownBy(() -> new EnergyModel(4, 1e6, 1, 50, 60)).hasMessageContaining("idlePowerWatts").hasMessageContaining("60");
        assertThatThrownBy(() -> new EnergyModel(0, 1e6, 1, 50, 40)).hasMessageContaining("nodeCount");
        assertThatThrownBy(() -> new EnergyModel(4, -5, 1, 50, 40)).hasMessageContaining("nodeMtbfSeconds").hasMessageContaining("-5");
    }
}
