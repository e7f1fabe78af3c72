package org.dfr.harness.campaign;

import java.util.List;

/**
 * One trial and what happened to it.
 *
 * @param plan what was run
 * @param outcome the verdict
 * @param millis wall time of the trial
 * @param recomputedPartitionIterations the work of every recovery together (0 when the run failed)
 * @param detail why the verdict is not OK (digest mismatch, the error), empty when OK
 * @param violations what the checker found wrong with the report
 * @param replay the command line that runs this trial alone
 * @param ports the TCP ports the run was seen listening on (address:port), each checked released after it
 */
public record TrialResult(TrialPlan plan, Outcome outcome, long millis, long recomputedPartitionIterations,
                          String detail, List<String> violations, String replay, List<String> ports) {

    public TrialResult {
        violations = List.copyOf(violations);
        ports = List.copyOf(ports);
    }
}
