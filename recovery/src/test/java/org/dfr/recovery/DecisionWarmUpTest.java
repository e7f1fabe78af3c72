package org.dfr.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.List;
import org.dfr.analysis.ConeAnalyzer;
import org.dfr.analysis.DependencyDeclarations;
import org.junit.jupiter.api.Test;

/**
 * The strategies decide once on a made-up loss when the protocol starts, so that the first real decision does not run
 * cold. The made-up loss must be one they decide without failing, for any partition count.
 */
class DecisionWarmUpTest {

    /** A 1x4 line: each partition depends on itself and its neighbours. */
    private static ConeAnalyzer lineOfFour() {
        return new ConeAnalyzer(DependencyDeclarations.fromAdjacency(
                new int[][] {{0, 1}, {0, 1, 2}, {1, 2, 3}, {2, 3}}, true));
    }

    @Test
    void when_bothStrategiesWarmUp_then_neitherFails() {
        assertThatCode(() -> new DataFlowRollback(lineOfFour()).warmUp()).doesNotThrowAnyException();
        assertThatCode(() -> new GlobalRollback().warmUp()).doesNotThrowAnyException();
        assertThatCode(() -> new DataFlowRollback(new ConeAnalyzer(DependencyDeclarations.fromAdjacency(
                new int[][] {{0}}, true))).warmUp()).as("one partition: nothing to decide").doesNotThrowAnyException();
    }

    /**
     * The made-up loss on the line: rank 0 (partition 0) died after iteration 3 of checkpoint 0, rank 1 holds the copy
     *
     * <pre>
     *   partition:  0 (lost)   1        2        3
     *   cone:       levels reach back from partition 0, one neighbour per iteration
     * </pre>
     */
    @Test
    void when_theMadeUpLossIsDecided_then_theHolderAdoptsAndTheConeGrowsFromPartitionZero() {
        RecoveryDirective d = new DataFlowRollback(lineOfFour()).decide(RecoveryInput.madeUpLoss(4));

        assertThat(d.lostPartitions()).containsExactly(0);
        assertThat(d.adoptions()).containsExactly(new Adoption(0, 1));
        assertThat(d.checkpointIteration()).isZero();
        assertThat(d.lostIterations()).isEqualTo(3);
        assertThat(d.levels()).containsExactly(List.of(0, 1, 2), List.of(0, 1), List.of(0));
        assertThat(RecoveryInput.madeUpLoss(1)).isNull();
    }
}
