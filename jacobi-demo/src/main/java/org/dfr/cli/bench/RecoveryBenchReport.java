package org.dfr.cli.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Everything {@code dfr bench-recovery} measured; written as JSON by {@code --json}.
 *
 * @param kernel                 the kernel every run ran, {@code name} or {@code name(key=value,...)}
 * @param ranksGrid              partitions per axis, as many axes as the kernel has
 * @param cells                  interior cells per axis
 * @param iterations             iterations of every run
 * @param checkpointEvery        checkpoint interval
 * @param commitLagIterations    iterations between a checkpoint and its commit: a kill within them recovers from the
 *                               checkpoint before, and the plan says so
 * @param checkpointBackups      backups of every replicated checkpoint ({@code --checkpoint-backups})
 * @param failure                the planned kill, {@code RANK@ITER}
 * @param checkpoint             the checkpoint the first recovery restores (the kills at the earliest iteration), as
 *                               the configuration says: the last one committed before them
 * @param mode                   {@code "embedded"} or {@code "processes"}
 * @param modeNote               why the mode differs from the one asked for, or null
 * @param repetitions            runs per strategy
 * @param global                 global rollback
 * @param dfr                    data-flow rollback
 * @param planWork               recomputed work the cone analysis predicts for the failure
 * @param planIsGlobal           whether the cone covers every partition (dfr is then global rollback)
 * @param dfrWorkEqualsPlan      whether every dfr repetition recomputed exactly {@code planWork}
 * @param recoveryWallRatio      median dfr recovery wall / median global recovery wall
 * @param medianDetectionMillis  median detection latency over every run of both strategies
 * @param detectionTargetMillis  the median SIGKILL detection target (processes mode)
 * @param sameDigest             whether every run ended with the same field digest
 * @param referenceDigest        the sequential reference's digest, which every run must end with
 * @param matchesReference       whether every run ended with {@code referenceDigest}
 * @param laterRecoveries        with kills at several iterations, the recoveries after the first, in order (the
 *                               fields above are the first's); null with kills at one iteration
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RecoveryBenchReport(String kernel, List<Integer> ranksGrid, List<Integer> cells, int iterations, int checkpointEvery,
                                  int commitLagIterations, int checkpointBackups, String failure, int checkpoint, String mode, String modeNote, int repetitions,
                                  RecoveryStrategySummary global, RecoveryStrategySummary dfr, Long planWork,
                                  boolean planIsGlobal, boolean dfrWorkEqualsPlan, Double recoveryWallRatio, Double medianDetectionMillis,
                                  long detectionTargetMillis,
                                  boolean sameDigest, String referenceDigest,
                                  boolean matchesReference, List<RecoveryBenchStep> laterRecoveries) {
}
