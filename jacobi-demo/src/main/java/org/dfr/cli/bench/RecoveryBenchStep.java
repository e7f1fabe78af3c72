package org.dfr.cli.bench;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A later recovery of {@code dfr bench-recovery} runs whose kills are at several iterations: the deaths at one of
 * those iterations, measured under both strategies as the first recovery is ({@link RecoveryBenchReport}).
 *
 * @param failure           the kills of this recovery, {@code RANK@ITER[,RANK@ITER...]}
 * @param checkpoint        the checkpoint the plan recovers from: the last one committed before the failure
 * @param global            global rollback's runs, this recovery's figures
 * @param dfr               data-flow rollback's runs, this recovery's figures
 * @param planWork          the cone analysis's work for the partitions the first dfr run lost here (a rank that
 *                          adopted an earlier victim's partition loses both)
 * @param planIsGlobal      whether that cone covers every partition
 * @param dfrWorkEqualsPlan whether every dfr run recomputed exactly the cone of the partitions it lost here
 * @param recoveryWallRatio median dfr recovery wall / median global recovery wall
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RecoveryBenchStep(String failure, int checkpoint, RecoveryStrategySummary global,
                                RecoveryStrategySummary dfr, Long planWork, boolean planIsGlobal,
                                boolean dfrWorkEqualsPlan, Double recoveryWallRatio) {
}
