package org.dfr.analysis;

/**
 * Inputs of the energy-savings estimate of DFR over global rollback (the paper's Eq. 3-7, as read here).
 *
 * <p>Failures arrive at the system rate {@code lambda = nodeCount / nodeMtbfSeconds} (independent nodes,
 * exponential lifetimes). In each recovery every idle partition would, under global rollback, recompute
 * {@code m} iterations at {@code busyPowerWatts}; under DFR it waits for the same {@code m} iterations at
 * {@code idlePowerWatts} (e.g. at a capped CPU frequency). So per recovery DFR saves
 * {@code idle(m) x m x iterationSeconds x (busyPowerWatts - idlePowerWatts)} joules, and on average
 * <pre>
 *   savingsRate [W] = lambda x E[idle] x E_idle,   E_idle = (E[idle(m) m] / E[idle]) x iterationSeconds x (P_busy - P_idle)
 * </pre>
 * where {@code E_idle} is the energy saved per idle partition per recovery. Powers are per partition (one
 * partition per rank). Partitions that recompute only some levels are counted as busy throughout, which
 * makes the estimate conservative.
 *
 * @param nodeCount        nodes whose failures trigger recovery, at least 1
 * @param nodeMtbfSeconds  mean time between failures of one node, &gt; 0
 * @param iterationSeconds duration of one solver iteration, &gt; 0
 * @param busyPowerWatts   power of a partition while computing, &gt;= 0
 * @param idlePowerWatts   power of a partition while idle, 0 ..busyPowerWatts
 */
public record EnergyModel(int nodeCount, double nodeMtbfSeconds, double iterationSeconds,
                          double busyPowerWatts, double idlePowerWatts) {

    public EnergyModel {
        if (nodeCount < 1) {
            throw new IllegalArgumentException("nodeCount must be at least 1 but was " + nodeCount);
        }
        requirePositive("nodeMtbfSeconds", nodeMtbfSeconds);
        requirePositive("iterationSeconds", iterationSeconds);
        if (!(busyPowerWatts >= 0) || Double.isInfinite(busyPowerWatts)) {
            throw new IllegalArgumentException("busyPowerWatts must be finite and >= 0 but was " + busyPowerWatts);
        }
        if (!(idlePowerWatts >= 0) || idlePowerWatts > busyPowerWatts) {
            throw new IllegalArgumentException("idlePowerWatts must be between 0 and busyPowerWatts " + busyPowerWatts
                    + " but was " + idlePowerWatts);
        }
    }

    private static void requirePositive(String name, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be finite and > 0 but was " + value);
        }
    }

    /** {@code lambda = nodeCount / nodeMtbfSeconds}: failures per second of the whole system. */
    public double systemFailureRatePerSecond() {
        return nodeCount / nodeMtbfSeconds;
    }

    /** The savings rate for an expected recovery cost, see the class comment. */
    public EnergySavings savingsOf(ExpectedRecoveryCost expected) {
        MeanRecoveryCost dfr = expected.dataFlowRollback();
        double savedPerIdleIterationJoules = iterationSeconds * (busyPowerWatts - idlePowerWatts);
        double perRecoveryJoules = dfr.meanIdlePartitionIterations() * savedPerIdleIterationJoules;
        double perIdlePartitionJoules = dfr.meanIdlePartitions() == 0 ? 0
                : perRecoveryJoules / dfr.meanIdlePartitions();
        double lambda = systemFailureRatePerSecond();
        return new EnergySavings(lambda, dfr.meanIdlePartitions(), perIdlePartitionJoules, perRecoveryJoules,
                lambda * perRecoveryJoules);
    }
}
