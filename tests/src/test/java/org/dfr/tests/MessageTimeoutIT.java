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
import org.dfr.runtime.ClusterSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A rank slower than the message timeout, but not dead: its peers give up waiting and start a recovery in
 * which nobody is lost. The cone is empty: every rank returns to the last iteration all computed and
 * resumes, nothing recomputes, and the field is exact (before, the round could not be decided and the run
 * failed).
 *
 * <pre>
 *   2 x 4 ranks, K = 5, 20 iterations, message timeout 1 s, heartbeat timeout 10 s
 *   rank 3 stops for 2.5 s at the start of iteration 8: its peers time out waiting for its halos
 * </pre>
 */
@Isolated // a rank slower than the message timeout by a margin of seconds
@Timeout(120)
class MessageTimeoutIT {

    private static final int NX = 37;
    private static final int NY = 29;
    private static final int ITERATIONS = 20;
    private static final int K = 5;

    @Test
    void when_aRankIsSlowerThanTheMessageTimeout_then_nothingRecomputesAndTheFieldIsExact() {
        RunConfig config = RunConfig.of(2, 4, NX, NY, ITERATIONS, K)
                .withFaults(List.of(new Kill(3, 8, Point.PAUSE, 2_500)), List.of(), Set.of());

        RunReport report = new Runner(new ClusterSettings().messageTimeoutMillis(1_000)).run(config);

        assertThat(report.fieldSha256()).isEqualTo(reference());
        assertThat(report.recoveries()).isNotEmpty().allSatisfy(r -> {
            assertThat(r.lostPartitions()).isEmpty();
            assertThat(r.recomputedPartitionIterations()).isZero();
        });
    }

    private static String reference() {
        SequentialJacobi seq = new SequentialJacobi(new JacobiProblem(NX, NY));
        seq.iterate(ITERATIONS);
        return seq.digest();
    }
}
