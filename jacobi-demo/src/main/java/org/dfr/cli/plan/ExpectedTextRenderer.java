package org.dfr.cli.plan;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Locale;
import org.dfr.analysis.EnergyModel;
import org.dfr.analysis.EnergySavings;
import org.dfr.analysis.ExpectedRecoveryCost;
import org.dfr.analysis.MeanRecoveryCost;

/** Prints expected recovery cost and energy savings for people. */
public final class ExpectedTextRenderer {

    private ExpectedTextRenderer() {
    }

    public static void render(String layoutDescription, int[] lost, ExpectedRecoveryCost cost, EnergyModel model,
                              PrintWriter out) {
        int k = cost.checkpointIntervalIterations();
        out.println("Expected recovery cost: " + layoutDescription + " (" + cost.partitionCount() + " partitions), "
                + (lost == null ? "one partition lost, each equally likely" : "lost " + Arrays.toString(lost)));
        int lag = cost.commitLagIterations();
        out.println(String.format(Locale.ROOT,
                "checkpoint interval K = %d%s: failure iteration uniform over the interval, m uniform over %d..%d (mean %.1f)",
                k, lag == 0 ? "" : ", commit lag L = " + lag, lag, k + lag - 1, cost.meanLostIterations()));
        MeanRecoveryCost dfr = cost.dataFlowRollback();
        MeanRecoveryCost global = cost.globalRollback();
        out.println(String.format(Locale.ROOT, "  %-46s %16s %16s", "", "DFR", "global rollback"));
        row(out, "mean cone size [partitions]", dfr.meanConeSizePartitions(), global.meanConeSizePartitions());
        row(out, "mean recomputed work [partition-iterations]", dfr.meanRecomputedPartitionIterations(),
                global.meanRecomputedPartitionIterations());
        row(out, "mean idle partitions [partitions]", dfr.meanIdlePartitions(), global.meanIdlePartitions());
        EnergySavings savings = model.savingsOf(cost);
        out.println(String.format(Locale.ROOT,
                "energy model: %d nodes, node MTBF %.4g s -> system failure rate %.4g /s; iteration %.4g s,"
                        + " busy %.4g W, idle %.4g W per partition",
                model.nodeCount(), model.nodeMtbfSeconds(), savings.systemFailureRatePerSecond(),
                model.iterationSeconds(), model.busyPowerWatts(), model.idlePowerWatts()));
        out.println(String.format(Locale.ROOT,
                "  energy saved per recovery: %.6g J (%.6g J per idle partition)",
                savings.meanSavedPerRecoveryJoules(), savings.meanSavedPerIdlePartitionJoules()));
        out.println(String.format(Locale.ROOT, "  savings rate: %.6g W (J/s)", savings.savingsRateWatts()));
    }

    private static void row(PrintWriter out, String label, double dfr, double global) {
        out.println(String.format(Locale.ROOT, "  %-46s %16.3f %16.3f", label, dfr, global));
    }
}
