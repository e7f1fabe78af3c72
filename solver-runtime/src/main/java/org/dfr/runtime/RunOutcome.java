package org.dfr.runtime;

import java.util.List;
import java.util.Map;

/**
 * What a run produced, as read by the collector from the replicated maps.
 *
 * @param finalStates partition to its final state buffer (kernel layout)
 * @param finalResidual residual of the last iteration
 * @param rankStats instrumented counts per rank
 * @param recoveryRecords JSON documents the recovery published (one per recovery), in epoch order
 * @param failureRecords JSON documents of injected or detected failures, in order
 * @param iterationsRun the last iteration computed: the run's cap, or the iteration whose global residual
 *        fell below the tolerance
 * @param converged whether the tolerance stopped the run (rather than the iteration cap)
 * @param checkpointInterval the interval agreed during a run with an automatic interval, or null
 */
public record RunOutcome(Map<Integer, double[]> finalStates, double finalResidual, List<RankStats> rankStats,
                         List<String> recoveryRecords, List<String> failureRecords, long wallMillis,
                         int iterationsRun, boolean converged, CheckpointIntervalDecision checkpointInterval) {
}
