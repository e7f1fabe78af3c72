package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class CheckpointIntervalDecisionTest {

    @Test
    void when_costIterationTimeAndMtbfAreGiven_then_theIntervalIsDalysInWholeIterations() {
        // C = 50 ms, M = 1000 s, iteration 100 ms: Daly = sqrt(2 C M)(1 + sqrt(C/2M)/3 + (C/2M)/9) - C
        double c = 0.050;
        double m = 1000;
        double r = c / (2 * m);
        double daly = Math.sqrt(2 * c * m) * (1 + Math.sqrt(r) / 3 + r / 9) - c;

        int k = CheckpointIntervalDecision.chooseInterval(50, 100, 1000, 10_000);

        assertThat(k).isEqualTo((int) Math.rint(daly / 0.100)).isEqualTo(100);
    }

    @Test
    void when_theFormulaExceedsTheRun_then_theIntervalIsTheNumberOfIterations() {
        assertThat(CheckpointIntervalDecision.chooseInterval(50, 100, 1000, 40)).isEqualTo(40);
    }

    @Test
    void when_checkpointsAreFreeAgainstTheIteration_then_theIntervalIsOne() {
        // Daly of 1 us against a 1000 s iteration rounds to 0 iterations
        assertThat(CheckpointIntervalDecision.chooseInterval(0.001, 1_000_000, 10, 100)).isEqualTo(1);
        // a copy measured as 0 ns still gives an interval
        assertThat(CheckpointIntervalDecision.chooseInterval(0, 10, 10, 100)).isEqualTo(1);
    }

    @Test
    void when_measured_then_theCostIsTheCopyAndTheWholeReplication() {
        // the commit lag hides none of the replication where the ranks fill the cores (bench.md, session 19)
        assertThat(CheckpointIntervalDecision.costMillis(5, 30)).isCloseTo(35, within(1e-12));
        assertThat(CheckpointIntervalDecision.costMillis(0, 10)).isCloseTo(10, within(1e-12));
        assertThat(CheckpointIntervalDecision.costMillis(0, 0)).isPositive();
    }

    @Test
    void when_aDecisionIsMade_then_itsIntervalIsTheFormulaOfItsCostAndSurvivesTheBoard() {
        CheckpointIntervalDecision d = CheckpointIntervalDecision.of(3, 0, 4, 8, 40, 20, 500, 1000);

        assertThat(d.checkpointMillis()).isCloseTo(48, within(1e-12));
        assertThat(d.interval()).isEqualTo(CheckpointIntervalDecision.chooseInterval(48, 20, 500, 1000));
        assertThat(d.youngIterations()).isEqualTo((int) Math.rint(Math.sqrt(2 * 0.048 * 500) / 0.020));
        assertThat(CheckpointIntervalDecision.fromJson(d.toJson())).isEqualTo(d);
    }
}
