package org.dfr.simulator.sweep;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Comparator;
import java.util.List;
import org.dfr.simulator.FailureModel;
import org.dfr.simulator.TimingModel;

/**
 * The simulated best checkpoint interval of one strategy next to Young/Daly's first-order optimum
 * {@code sqrt(2 C M)}, with {@code C} the checkpoint cost and {@code M = nodeMTBF / nodes} the system MTBF.
 *
 * @param strategy                 the strategy
 * @param nodes                    nodes of the sweep
 * @param simulatedBestK           the interval (iterations) with the smallest mean runtime
 * @param simulatedBestRuntimeHours that runtime, h
 * @param youngDalySeconds         {@code sqrt(2 C M)}, s
 * @param youngDalyIterations      the same in iterations of {@link TimingModel#iterationSeconds()}
 */
@JsonPropertyOrder({"strategy", "nodes", "simulatedBestK", "simulatedBestRuntimeHours", "youngDalySeconds",
        "youngDalyIterations"})
public record CheckpointOptimum(String strategy, int nodes, int simulatedBestK, double simulatedBestRuntimeHours,
                                double youngDalySeconds, double youngDalyIterations) {

    /** Young/Daly's interval in seconds for {@code nodes} partitions. */
    public static double youngDalySeconds(TimingModel timing, FailureModel failures, int nodes) {
        double systemMtbf = failures.nodeMtbfSeconds() * failures.partitionsPerNode() / nodes;
        return Math.sqrt(2 * timing.checkpointSeconds() * systemMtbf);
    }

    /** The optimum of {@code strategy} among summaries of one decomposition at several intervals. */
    public static CheckpointOptimum of(String strategy, List<PointSummary> sweep, TimingModel timing, FailureModel failures) {
        PointSummary best = sweep.stream().filter(p -> p.strategy().equals(strategy))
                .min(Comparator.comparingDouble(PointSummary::runtimeHoursMean))
                .orElseThrow(() -> new IllegalArgumentException("no point of strategy " + strategy + " in the sweep"));
        double young = youngDalySeconds(timing, failures, best.nodes());
        return new CheckpointOptimum(strategy, best.nodes(), best.checkpointEvery(), best.runtimeHoursMean(), young,
                young / timing.iterationSeconds());
    }
}
