package org.dfr.simulator;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Entry point of the simulator: one run, or every strategy on the same failures.
 *
 * <p>For comparing with the real runtime, run the runtime's schedule explicitly, for example the paper's
 * case (2x4 ranks, rank 1 killed at the start of iteration 4, checkpoint at 0):
 * <pre>{@code
 * SimulationSpec spec = SimulationSpec.paper(DependencyDeclarations.twoD5Point(2, 4, false))
 *         .withIterations(10, 10);
 * SimulationResult r = Simulation.run(spec, FailureSchedule.explicit(List.of(ScheduledFailure.at(4, 1))));
 * RecoveryRecord rec = r.recoveriesRecorded().get(0);   // recomputed 9, participating [0,1,2,3,5], idle [4,6,7]
 * }</pre>
 * Thread-safe: every call simulates on its own arrays.
 */
public final class Simulation {

    private Simulation() {
    }

    /** Runs {@code spec} with failures drawn from its failure model and seed. */
    public static SimulationResult run(SimulationSpec spec) {
        return run(spec, FailureSchedule.random());
    }

    /**
     * Runs {@code spec} with the given failures.
     *
     * @throws IllegalArgumentException if a scheduled partition is out of range
     */
    public static SimulationResult run(SimulationSpec spec, FailureSchedule schedule) {
        return run(spec, schedule, ProgressReporter.none());
    }

    /**
     * Runs {@code spec} with the given failures, reporting how far it has come to {@code progress}.
     *
     * @throws IllegalArgumentException if a scheduled partition is out of range
     */
    public static SimulationResult run(SimulationSpec spec, FailureSchedule schedule, ProgressReporter progress) {
        return new Engine(spec, schedule, TaskGraph.of(spec.dependencies()), progress).run();
    }

    /** Runs every strategy on the same spec, seed and failures; the result is ordered as {@link Strategy}. */
    public static Map<Strategy, SimulationResult> compare(SimulationSpec spec, FailureSchedule schedule) {
        return compare(spec, schedule, s -> ProgressReporter.none());
    }

    /**
     * Runs every strategy on the same spec, seed and failures, each reporting to its own reporter; the result is
     * ordered as {@link Strategy}.
     */
    public static Map<Strategy, SimulationResult> compare(SimulationSpec spec, FailureSchedule schedule,
                                                          Function<Strategy, ProgressReporter> progress) {
        TaskGraph graph = TaskGraph.of(spec.dependencies());
        Map<Strategy, SimulationResult> results = new EnumMap<>(Strategy.class);
        for (Strategy s : Strategy.values()) {
            results.put(s, new Engine(spec.withStrategy(s), schedule, graph, progress.apply(s)).run());
        }
        return results;
    }
}
