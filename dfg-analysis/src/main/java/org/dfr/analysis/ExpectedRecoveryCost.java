package org.dfr.analysis;

/**
 * Expected recovery cost of data-flow rollback and of global rollback for one checkpoint interval.
 *
 * @param checkpointIntervalIterations {@code K}: iterations between checkpoints
 * @param partitionCount               number of partitions
 * @param meanLostIterations           mean {@code m}, {@code (K-1)/2}
 * @param dataFlowRollback             DFR's means
 * @param globalRollback               global rollback's means: cone {@code n}, work {@code n(K-1)/2}, no idle partition
 */
public record ExpectedRecoveryCost(int checkpointIntervalIterations,
                                   int partitionCount,
                                   double meanLostIterations,
                                   MeanRecoveryCost dataFlowRollback,
                                   MeanRecoveryCost globalRollback) {
}
