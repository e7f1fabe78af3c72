package org.dfr.cli.bench;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What one failed-and-recovered run measured, taken from its run report.
 *
 * @param strategy            {@code "global"} or {@code "dfr"}
 * @param repetition          1-based
 * @param detectionMillis     kill to detection (RunReport.recoveries[0].detectionMillis)
 * @param agreementMillis     detection to the agreed plan
 * @param recomputeMillis     time spent recomputing lost iterations
 * @param recoveryWallMillis  detection to resume (RunReport.recoveries[0].wallMillis)
 * @param timeToResumeMillis  kill to resume: detection plus recovery wall
 * @param recomputedWork      partition-iterations recomputed, summed over the run's recoveries
 * @param checkpointIteration the checkpoint the first recovery rolled back to
 * @param failureIteration    the iteration the failure happened at
 * @param runWallMillis       the whole run, for scale
 * @param fieldSha256         the final field digest, equal for every strategy when recovery is exact
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RecoveryRun(String strategy, int repetition, Long detectionMillis, Long agreementMillis,
                          Long recomputeMillis, Long recoveryWallMillis, Long timeToResumeMillis, long recomputedWork,
                          int checkpointIteration, int failureIteration, long runWallMillis, String fieldSha256) {
}
