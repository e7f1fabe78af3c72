package org.dfr.simulator;

import java.util.List;

/**
 * What one simulated run did.
 *
 * @param strategy                       the strategy simulated
 * @param partitionCount                 partitions (= nodes with one partition per node)
 * @param iterations                     iterations the run was asked to complete
 * @param completed                      false when the run stopped at {@link FailureModel#maxFailures()}
 * @param makespanSeconds                simulated time until every partition finished the last iteration
 * @param failures                       node failures that struck (correlated and during-recovery ones included)
 * @param recoveries                     recoveries performed (simultaneous failures share one)
 * @param recomputedPartitionIterations  tasks recomputed by completed recoveries
 * @param abortedPartitionIterations     recovery tasks thrown away by failures during recovery
 * @param tasksSimulated                 every task the simulator evaluated (first runs, tasks re-run after a
 *                                       fall-back, recovery tasks)
 * @param energy                         energy per node state
 * @param wallNanos                      real time the simulation took
 * @param recoveryList                   every recovery, for explicit schedules or when
 *                                       {@link SimulationSpec#recordRecoveries()}; else empty
 */
public record SimulationResult(Strategy strategy, int partitionCount, int iterations, boolean completed,
                               double makespanSeconds, long failures, long recoveries,
                               long recomputedPartitionIterations, long abortedPartitionIterations,
                               long tasksSimulated, EnergyBreakdown energy, long wallNanos,
                               List<RecoveryRecord> recoveryList) {

    /** Copies the recovery list. */
    public SimulationResult {
        recoveryList = List.copyOf(recoveryList);
    }

    /** Recomputed iterations per partition: {@code recomputedPartitionIterations / partitionCount}. */
    public double recomputedIterationsPerPartition() {
        return (double) recomputedPartitionIterations / partitionCount;
    }

    /** Simulated tasks per second of real time. */
    public double tasksPerSecond() {
        return wallNanos == 0 ? 0 : tasksSimulated * 1e9 / wallNanos;
    }

    /** Every recovery, in order (empty for random failures unless recorded). */
    public List<RecoveryRecord> recoveriesRecorded() {
        return recoveryList;
    }
}
