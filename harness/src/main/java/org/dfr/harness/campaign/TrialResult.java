package org.dfr.harness.campaign;

import java.util.List;
import org.dfr.harness.RunReport;

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
 * @param recoveries the run report's recoveries (cone, c, m, timings), empty when the run gave no report: a
 *                   resilience researcher could not see them for the trials that passed
 */
public record TrialResult(TrialPlan plan, Outcome outcome, long millis, long recomputedPartitionIterations,
                          String detail, List<String> violations, String replay, List<String> ports,
                          List<RunReport.Recovery> recoveries) {

    public TrialResult {
        violations = List.copyOf(violations);
        ports = List.copyOf(ports);
        recoveries = List.copyOf(recoveries);
    }

    /** A trial whose run gave no report (hung, an error before it ended). */
    public TrialResult(TrialPlan plan, Outcome outcome, long millis, long recomputedPartitionIterations, String detail,
                       List<String> violations, String replay, List<String> ports) {
        this(plan, outcome, millis, recomputedPartitionIterations, detail, violations, replay, ports, List.of());
    }
}
