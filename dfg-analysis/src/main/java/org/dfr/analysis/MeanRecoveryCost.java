package org.dfr.analysis;

/**
 * Means of one rollback strategy's recovery cost over a checkpoint interval (see {@link ExpectedCostAnalyzer}).
 *
 * @param meanConeSizePartitions             mean number of participating partitions (level 1, or the lost
 *                                           partitions when {@code m = 0})
 * @param meanRecomputedPartitionIterations  mean work: sum of level sizes
 * @param meanIdlePartitions                 mean number of partitions idle during recovery
 * @param meanIdlePartitionIterations        mean of {@code idle partitions x m}: the partition-iterations
 *                                           spent idle while the lost partitions recompute
 */
public record MeanRecoveryCost(double meanConeSizePartitions,
                               double meanRecomputedPartitionIterations,
                               double meanIdlePartitions,
                               double meanIdlePartitionIterations) {
}
