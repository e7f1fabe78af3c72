package org.dfr.cli.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.dfr.analysis.CheckpointIntervalAdvice;
import org.dfr.analysis.EnergyModel;
import org.dfr.analysis.EnergySavings;
import org.dfr.analysis.ExpectedRecoveryCost;
import org.dfr.analysis.MeanRecoveryCost;

/**
 * The {@code dfr plan --expected --json} object: expected recovery cost over a checkpoint interval and the
 * energy-savings rate. {@code lostPartitions} is null when the means are over every single-partition failure.
 */
@JsonPropertyOrder({"layout", "periodic", "grid", "partitionCount", "lostPartitions", "averagedOverSingleFailures",
        "checkpointIntervalIterations", "commitLagIterations", "meanLostIterations", "dataFlowRollback", "globalRollback",
        "energyModel", "energySavings", "checkpointIntervalAdvice"})
public record ExpectedReport(String layout, @JsonInclude(JsonInclude.Include.NON_NULL) Boolean periodic, int[] grid, int partitionCount, int[] lostPartitions,
                             boolean averagedOverSingleFailures, int checkpointIntervalIterations,
                             int commitLagIterations, double meanLostIterations, MeanRecoveryCost dataFlowRollback,
                             MeanRecoveryCost globalRollback, EnergyModel energyModel, EnergySavings energySavings,
                             @JsonInclude(JsonInclude.Include.NON_NULL) IntervalAdvice checkpointIntervalAdvice) {

    /**
     * Young's and Daly's checkpoint interval for {@code --checkpoint-seconds}, as the text output prints it.
     *
     * @param checkpointSeconds the cost of one checkpoint
     * @param systemMtbfSeconds the whole system's mean time between failures (the model's)
     * @param youngSeconds      Young's interval, {@code sqrt(2 C M)}
     * @param youngIterations   Young's interval in whole iterations
     * @param dalySeconds       Daly's interval
     * @param dalyIterations    Daly's interval in whole iterations (the one planned without --checkpoint-interval)
     */
    public record IntervalAdvice(double checkpointSeconds, double systemMtbfSeconds, double youngSeconds,
                                 int youngIterations, double dalySeconds, int dalyIterations) {

        static IntervalAdvice of(CheckpointIntervalAdvice a) {
            return a == null ? null : new IntervalAdvice(a.checkpointSeconds(), a.systemMtbfSeconds(), a.youngSeconds(),
                    a.youngIterations(), a.dalySeconds(), a.dalyIterations());
        }
    }

    public static ExpectedReport of(String layout, Boolean periodic, GridArgument grid, int[] lost,
                                    ExpectedRecoveryCost cost, EnergyModel model, CheckpointIntervalAdvice advice) {
        return new ExpectedReport(layout, periodic, grid.writtenSizes(), cost.partitionCount(), lost,
                lost == null, cost.checkpointIntervalIterations(), cost.commitLagIterations(), cost.meanLostIterations(),
                cost.dataFlowRollback(), cost.globalRollback(), model, model.savingsOf(cost), IntervalAdvice.of(advice));
    }
}
