package org.dfr.cli.bench;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * Medians over the repetitions of one strategy.
 *
 * @param strategy                 {@code "global"} or {@code "dfr"}
 * @param medianDetectionMillis    median kill-to-detection latency
 * @param medianAgreementMillis    median detection-to-decision time (statuses, decision, directive)
 * @param medianRecomputeMillis    median recompute time
 * @param medianRecoveryWallMillis median detection-to-resume time
 * @param medianTimeToResumeMillis median kill-to-resume time
 * @param recomputedWork           the recomputed work of every repetition (equal when deterministic)
 * @param runs                     every repetition
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RecoveryStrategySummary(String strategy, Double medianDetectionMillis, Double medianAgreementMillis,
                                      Double medianRecomputeMillis,
                                      Double medianRecoveryWallMillis, Double medianTimeToResumeMillis,
                                      List<Long> recomputedWork, List<RecoveryRun> runs) {

    /** Summarises the runs of one strategy. */
    public static RecoveryStrategySummary of(String strategy, List<RecoveryRun> runs) {
        return new RecoveryStrategySummary(strategy,
                Medians.of(runs.stream().map(RecoveryRun::detectionMillis).toList()),
                Medians.of(runs.stream().map(RecoveryRun::agreementMillis).toList()),
                Medians.of(runs.stream().map(RecoveryRun::recomputeMillis).toList()),
                Medians.of(runs.stream().map(RecoveryRun::recoveryWallMillis).toList()),
                Medians.of(runs.stream().map(RecoveryRun::timeToResumeMillis).toList()),
                runs.stream().map(RecoveryRun::recomputedWork).toList(), List.copyOf(runs));
    }
}
