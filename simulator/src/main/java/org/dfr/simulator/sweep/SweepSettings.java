package org.dfr.simulator.sweep;

import java.util.List;
import org.dfr.simulator.FailureModel;
import org.dfr.simulator.PowerModel;
import org.dfr.simulator.SimulationSpec;
import org.dfr.simulator.Strategy;
import org.dfr.simulator.TimingModel;

/**
 * What every point of a sweep shares.
 *
 * @param iterations  iterations per run
 * @param seeds       runs per point, seeds {@code firstSeed .. firstSeed + seeds - 1}; every strategy of a point
 *                    runs on the same seeds, so on the same failures
 * @param firstSeed   the first seed
 * @param strategies  strategies to compare (global is always simulated when energy savings are asked for)
 * @param timing      task, halo, checkpoint and logging times
 * @param failures    failure model
 * @param power       power model
 * @param parallelism threads for the points' runs (0 = every core)
 * @param commitLagIterations iterations after a checkpoint before it counts (at most each point's {@code K-1} is
 *                    used; {@link SimulationSpec#commitLagIterations})
 */
public record SweepSettings(int iterations, int seeds, long firstSeed, List<Strategy> strategies, TimingModel timing,
                            FailureModel failures, PowerModel power, int parallelism, int commitLagIterations) {

    /** Settings whose checkpoints count at once (commit lag 0, the paper's model). */
    public SweepSettings(int iterations, int seeds, long firstSeed, List<Strategy> strategies, TimingModel timing,
                         FailureModel failures, PowerModel power, int parallelism) {
        this(iterations, seeds, firstSeed, strategies, timing, failures, power, parallelism, 0);
    }

    /** Copies the list. */
    public SweepSettings {
        strategies = List.copyOf(strategies);
    }

    /** The spec of one run. */
    SimulationSpec spec(Decomposition layout, int checkpointEvery, Strategy strategy, long seed) {
        return new SimulationSpec(layout.dependencies(), iterations, checkpointEvery, strategy, timing, failures, power,
                seed, false, commitLagIterations);
    }
}
