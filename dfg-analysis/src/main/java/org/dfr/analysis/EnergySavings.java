package org.dfr.analysis;

/**
 * Energy DFR saves over global rollback, from {@link EnergyModel#savingsOf}. Identity:
 * {@code savingsRateWatts = systemFailureRatePerSecond x meanIdlePartitions x meanSavedPerIdlePartitionJoules}.
 *
 * @param systemFailureRatePerSecond      {@code nodeCount / nodeMtbfSeconds}
 * @param meanIdlePartitions              mean idle partitions per recovery
 * @param meanSavedPerIdlePartitionJoules mean energy one idle partition saves per recovery
 * @param meanSavedPerRecoveryJoules      mean energy saved per recovery, all idle partitions together
 * @param savingsRateWatts                mean energy saved per second of operation (J/s)
 */
public record EnergySavings(double systemFailureRatePerSecond,
                            double meanIdlePartitions,
                            double meanSavedPerIdlePartitionJoules,
                            double meanSavedPerRecoveryJoules,
                            double savingsRateWatts) {
}
