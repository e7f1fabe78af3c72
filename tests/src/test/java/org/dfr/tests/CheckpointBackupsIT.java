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

/**
 * {@code --checkpoint-backups 1}: every checkpoint on its writer and on one member of another host. A
 * rank's death, or its whole host's, still leaves a copy of every lost partition's checkpoint, and the
 * field is exact. (That the members then hold one backup per entry, not two, is {@code HazelcastConfigsTest}'s.)
 *
 * <pre>
 *   2 x 4 ranks, 2 per host, K = 5, 20 iterations
 *     host 0: ranks 0 1   host 1: ranks 2 3   host 2: ranks 4 5   host 3: ranks 6 7
 *   a death at the start of iteration 8 recovers from checkpoint 5 (commit lag 1)
 * </pre>
 */
@Timeout(120)
class CheckpointBackupsIT {

    private static final int NX = 37;
    private static final int NY = 29;
    private static final int ITERATIONS = 20;
    private static final int K = 5;

    @Test
    void when_thereIsOneBackupAndARankDies_then_theRunRecoversFromTheCheckpointBeforeAndTheFieldIsExact() {
        RunConfig config = RunConfig.of(2, 4, NX, NY, ITERATIONS, K)
                .withFaults(List.of(new Kill(1, 8, Point.ITERATION_START)), List.of(), Set.of());

        RunReport report = new Runner(new ClusterSettings().checkpointBackups(1)).run(config);

        assertThat(report.checkpointBackups()).isEqualTo(1);
        assertThat(report.fieldSha256()).isEqualTo(reference());
        assertThat(report.recoveries()).singleElement()
                .satisfies(r -> assertThat(r.checkpointIteration()).isEqualTo(5));
    }

    @Test
    void when_thereIsOneBackupAndAWholeHostDies_then_bothRanksCheckpointsSurviveOnOtherHostsAndTheFieldIsExact() {
        RunConfig config = RunConfig.of(2, 4, NX, NY, ITERATIONS, K)
                .withFaults(List.of(), List.of(new Kill(1, 8, Point.ITERATION_START)), Set.of());

        RunReport report = new Runner(new ClusterSettings().checkpointBackups(1)).run(config);

        assertThat(report.fieldSha256()).isEqualTo(reference());
        assertThat(report.recoveries()).singleElement()
                .satisfies(r -> assertThat(r.lostPartitions()).containsExactlyInAnyOrder(2, 3));
    }

    @Test
    void when_nothingIsAsked_then_theReportSaysTwoBackups() {
        RunReport report = new Runner().run(RunConfig.of(2, 4, NX, NY, 6, K));

        assertThat(report.checkpointBackups()).isEqualTo(ClusterSettings.DEFAULT_CHECKPOINT_BACKUPS).isEqualTo(2);
    }

    private static String reference() {
        SequentialJacobi seq = new SequentialJacobi(new JacobiProblem(NX, NY));
        seq.iterate(ITERATIONS);
        return seq.digest();
    }
}
