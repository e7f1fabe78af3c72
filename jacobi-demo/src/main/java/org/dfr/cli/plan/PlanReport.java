package org.dfr.cli.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import org.dfr.analysis.RecoveryPlan;

/**
 * The {@code dfr plan --json} object. The fields {@code levels} (level 1 first),
 * {@code recomputedPartitionIterations}, {@code globalRollbackPartitionIterations},
 * {@code participatingPartitions}, {@code idlePartitions} and {@code coversEverything} are the contract;
 * the others echo the input.
 */
@JsonPropertyOrder({"layout", "periodic", "grid", "partitionCount", "lostPartitions", "checkpointIteration",
        "failureIteration", "lostIterations", "levels", "recomputedPartitionIterations",
        "globalRollbackPartitionIterations", "participatingPartitions", "idlePartitions", "coversEverything"})
public record PlanReport(String layout, @JsonInclude(JsonInclude.Include.NON_NULL) Boolean periodic, int[] grid, int partitionCount, int[] lostPartitions,
                         int checkpointIteration, int failureIteration, int lostIterations, List<int[]> levels,
                         long recomputedPartitionIterations, long globalRollbackPartitionIterations,
                         int[] participatingPartitions, int[] idlePartitions, boolean coversEverything) {

    public static PlanReport of(String layout, Boolean periodic, GridArgument grid, RecoveryPlan plan) {
        return new PlanReport(layout, periodic, grid.writtenSizes(), plan.partitionCount(),
                plan.lostPartitions(), plan.checkpointIteration(), plan.failureIteration(), plan.lostIterations(),
                plan.levels(), plan.recomputedPartitionIterations(), plan.globalRollbackPartitionIterations(),
                plan.participatingPartitions(), plan.idlePartitions(), plan.coversEverything());
    }
}
