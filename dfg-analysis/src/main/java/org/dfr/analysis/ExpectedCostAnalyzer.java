package org.dfr.analysis;

/**
 * Expected recovery cost over a checkpoint interval, for any declared dependency graph.
 *
 * <p>Model: checkpoints every {@code K} iterations; the failure iteration {@code t} is uniform over the
 * {@code K} iterations after a checkpoint {@code c}, i.e. {@code t in c+1..c+K}, so {@code m = t-1-c} is uniform
 * over {@code 0..K-1}. With {@code b(d)} = number of partitions within dependency distance {@code d} of the
 * lost set ({@code b(0)} = lost count) and {@code n} partitions:
 * <pre>
 *   cone(m)  = b(max(m-1, 0))                   participating partitions (m = 0: the lost ones reload)
 *   work(m)  = sum_{k=1..m} b(m-k) = sum_{d=0..m-1} b(d), or m n when cone(m) = n > 0 and m > 0 (DFR is then
 *              global rollback: {@link RecoveryPlan})
 *   idle(m)  = n - cone(m)
 *   E[X]     = (1/K) sum_{m=0..K-1} X(m)
 * </pre>
 * With a commit lag {@code L} ({@code dfr run --commit-lag-iterations}: checkpoint {@code c} counts only from the
 * reduction of {@code c+L} on), a failure at {@code t <= c+L} recovers from {@code c-K}, so {@code m} is uniform over
 * {@code L..K+L-1} instead; {@code L = 0} is the model above (the paper's: a checkpoint counts at once).
 * Global rollback: {@code cone = n}, {@code work = m n}, {@code idle = 0}. The reported
 * {@code meanIdlePartitionIterations} is {@code E[idle(m) m]} (not {@code E[idle] E[m]}): idle partitions wait
 * for as many iterations as the lost ones recompute, which feeds {@link EnergyModel#savingsOf}.
 *
 * <p>Two ways to choose what is lost: a given set ({@link #forLostPartitions}), or every single-partition
 * failure equally likely ({@link #overSingleFailures}, the mean over all {@code n} partitions, which costs
 * {@code n} cone searches).
 */
public final class ExpectedCostAnalyzer {

    private final ConeAnalyzer analyzer;

    /** Averages plans of {@code analyzer}, whose working arrays it reuses. */
    public ExpectedCostAnalyzer(ConeAnalyzer analyzer) {
        this.analyzer = analyzer;
    }

    /** Expected cost when exactly {@code lostPartitions} fail, at an iteration uniform over the interval. */
    public ExpectedRecoveryCost forLostPartitions(int[] lostPartitions, int checkpointIntervalIterations) {
        return forLostPartitions(lostPartitions, checkpointIntervalIterations, 0);
    }

    /**
     * Expected cost when exactly {@code lostPartitions} fail, at an iteration uniform over the interval, with
     * checkpoints committed {@code commitLagIterations} iterations after they are taken.
     */
    public ExpectedRecoveryCost forLostPartitions(int[] lostPartitions, int checkpointIntervalIterations,
                                                 int commitLagIterations) {
        requireInterval(checkpointIntervalIterations, commitLagIterations);
        MeanRecoveryCost dfr = dfrMeans(lostPartitions, checkpointIntervalIterations, commitLagIterations);
        return result(checkpointIntervalIterations, commitLagIterations, dfr);
    }

    /** Expected cost when one partition fails, each partition equally likely, at an iteration uniform over the interval. */
    public ExpectedRecoveryCost overSingleFailures(int checkpointIntervalIterations) {
        return overSingleFailures(checkpointIntervalIterations, 0);
    }

    /**
     * Expected cost when one partition fails, each partition equally likely, at an iteration uniform over the interval,
     * with checkpoints committed {@code commitLagIterations} iterations after they are taken.
     */
    public ExpectedRecoveryCost overSingleFailures(int checkpointIntervalIterations, int commitLagIterations) {
        requireInterval(checkpointIntervalIterations, commitLagIterations);
        int n = analyzer.partitionCount();
        double cone = 0;
        double work = 0;
        double idle = 0;
        double idleIterations = 0;
        int[] lost = new int[1];
        for (int f = 0; f < n; f++) {
            lost[0] = f;
            MeanRecoveryCost one = dfrMeans(lost, checkpointIntervalIterations, commitLagIterations);
            cone += one.meanConeSizePartitions();
            work += one.meanRecomputedPartitionIterations();
            idle += one.meanIdlePartitions();
            idleIterations += one.meanIdlePartitionIterations();
        }
        return result(checkpointIntervalIterations, commitLagIterations,
                new MeanRecoveryCost(cone / n, work / n, idle / n, idleIterations / n));
    }

    private static void requireInterval(int k, int lag) {
        if (k < 1) {
            throw new IllegalArgumentException("checkpoint interval must be at least 1 iteration but was " + k);
        }
        if (!CommitLag.isAllowed(lag, k)) {
            throw new IllegalArgumentException("commit lag must be " + CommitLag.allowed(k) + " for a checkpoint interval"
                    + " of " + k + " but was " + lag);
        }
    }

    /** Means over {@code m} uniform on {@code lag..k+lag-1}. */
    private MeanRecoveryCost dfrMeans(int[] lostPartitions, int k, int lag) {
        int n = analyzer.partitionCount();
        int[] b = analyzer.compactBallSizes(lostPartitions, Math.max(k + lag - 2, 0));
        int last = b.length - 1;
        double coneSum = 0;
        double workSum = 0;
        double idleSum = 0;
        double idleIterationsSum = 0;
        double work = 0; // work(m), built up as m grows
        for (int m = 0; m < k + lag; m++) {
            int cone = b[Math.min(Math.max(m - 1, 0), last)];
            if (m > 0) {
                work += b[Math.min(m - 1, last)];
            }
            if (m < lag) {
                continue;
            }
            coneSum += cone;
            // a cone that covers everything is global rollback, which recomputes every partition at every level
            workSum += m > 0 && cone == n ? (double) m * n : work;
            idleSum += n - cone;
            idleIterationsSum += (double) (n - cone) * m;
        }
        return new MeanRecoveryCost(coneSum / k, workSum / k, idleSum / k, idleIterationsSum / k);
    }

    private ExpectedRecoveryCost result(int k, int lag, MeanRecoveryCost dfr) {
        int n = analyzer.partitionCount();
        double meanM = (k - 1) / 2.0 + lag;
        MeanRecoveryCost global = new MeanRecoveryCost(n, n * meanM, 0, 0);
        return new ExpectedRecoveryCost(k, n, meanM, dfr, global, lag);
    }
}
