package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.harness.Runner;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.jacobi.SequentialJacobi;
import org.dfr.recovery.FaultPlan.Kill;
import org.dfr.recovery.FaultPlan.Point;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code --commit-lag-iterations L}: checkpoint {@code c} is committed with the reduction of
 * {@code c + L}, so a failure before that reduction recovers from the checkpoint before {@code c},
 * and one after it from {@code c}; the field is exact either way.
 *
 * <pre>
 *   K = 5, 20 iterations, 2 x 4 ranks; rank 1 dies at the start of iteration t
 *
 *   checkpoints     0         5         10
 *   iterations      |----+----|--+--+---|
 *                              ^  ^  ^
 *                              6  8  9
 *   lag 0: 5 committed with the reduction of 5  -> a death at 6 recovers from 5 (lag 1: from 0)
 *   lag 3: 5 committed with the reduction of 8  -> a death at 8 recovers from 0, at 9 from 5
 * </pre>
 */
@Timeout(120)
class CommitLagIT {

    private static final int NX = 37;
    private static final int NY = 29;
    private static final int ITERATIONS = 20;
    private static final int K = 5;

    @Test
    void when_theLagIsThreeAndARankDiesBeforeTheCommittingReduction_then_thePreviousCheckpointIsUsed() {
        RunReport report = new Runner().run(killRank1At(8).withCommitLagIterations(3));

        assertThat(report.fieldSha256()).isEqualTo(reference());
        assertThat(report.commitLagIterations()).isEqualTo(3);
        assertThat(report.recoveries()).singleElement()
                .satisfies(r -> assertThat(r.checkpointIteration()).isZero())
                .satisfies(r -> assertThat(r.lostIterations()).isEqualTo(7));
    }

    @Test
    void when_theLagIsThreeAndARankDiesAfterTheCommittingReduction_then_thatCheckpointIsUsed() {
        RunReport report = new Runner().run(killRank1At(9).withCommitLagIterations(3));

        assertThat(report.fieldSha256()).isEqualTo(reference());
        assertThat(report.recoveries()).singleElement()
                .satisfies(r -> assertThat(r.checkpointIteration()).isEqualTo(5))
                .satisfies(r -> assertThat(r.lostIterations()).isEqualTo(3));
    }

    @Test
    void when_theLagIsZero_then_aCheckpointIsCommittedWithItsOwnReductionAndTheFieldIsExact() {
        RunReport report = new Runner().run(killRank1At(6).withCommitLagIterations(0));

        assertThat(report.fieldSha256()).isEqualTo(reference());
        assertThat(report.commitLagIterations()).isZero();
        assertThat(report.recoveries()).singleElement()
                .satisfies(r -> assertThat(r.checkpointIteration()).isEqualTo(5));
    }

    private static RunConfig killRank1At(int iteration) {
        return RunConfig.of(2, 4, NX, NY, ITERATIONS, K)
                .withFaults(List.of(new Kill(1, iteration, Point.ITERATION_START)), List.of(), Set.of());
    }

    private static String reference() {
        SequentialJacobi seq = new SequentialJacobi(new JacobiProblem(NX, NY));
        seq.iterate(ITERATIONS);
        return seq.digest();
    }
}
