package org.dfr.analysis;

/**
 * Expected recovery cost of data-flow rollback and of global rollback for one checkpoint interval.
 *
 * @param checkpointIntervalIterations {@code K}: iterations between checkpoints
 * @param partitionCount               number of partitions
 * @param meanLostIterations           mean {@code m}, {@code (K-1)/2 + L}
 * @param dataFlowRollback             DFR's means
 * @param globalRollback               global rollback's means: cone {@code n}, work {@code n} times the mean
 *                                     {@code m}, no idle partition
 * @param commitLagIterations          {@code L}: a checkpoint counts from the reduction {@code L} iterations after it
 *                                     on (0: at once, the paper's model)
 */
public record ExpectedRecoveryCost(int checkpointIntervalIterations,
                                   int partitionCount,
                                   double meanLostIterations,
                                   MeanRecoveryCost dataFlowRollback,
                                   MeanRecoveryCost globalRollback,
                                   int commitLagIterations) {
}
