package org.dfr.simulator;

import org.dfr.analysis.CommitLag;
import org.dfr.analysis.PartitionDependencies;

/**
 * Everything that defines one simulated run except its failures (see {@link FailureSchedule}).
 *
 * <p>The run is the DAG of tasks {@code (p, i)}, {@code i = 1..iterations}, unrolled from
 * {@code dependencies}: task {@code (p, i)} starts when partition {@code p} finished {@code i-1} and the halo
 * of every other input {@code q in R(p)} from {@code (q, i-1)} has arrived. All partitions checkpoint after
 * every iteration that is a multiple of {@code checkpointEvery} (iteration 0, the initial state, is a free
 * checkpoint).
 *
 * @param dependencies      the partition dependency declaration {@code R(p)} (any: stencils, graphs)
 * @param iterations        iterations to complete, at least 1
 * @param checkpointEvery   {@code K}: iterations between checkpoints, at least 1
 * @param strategy          how failures are recovered
 * @param timing            task, halo, checkpoint and logging times
 * @param failures          failure arrivals and their handling
 * @param power             power per node state
 * @param seed              seeds failures and task times; strategies with the same seed see the same failures
 * @param recordRecoveries  whether {@link SimulationResult#recoveriesRecorded()} lists every recovery of random
 *                          failures (each record holds its participating partitions: costly at scale); recoveries
 *                          of explicit schedules are always recorded
 * @param commitLagIterations a checkpoint counts only from the iteration {@code L} iterations after it on (as
 *                          {@code dfr run --commit-lag-iterations L} commits it with that iteration's reduction): a
 *                          failure at {@code t <= c+L} rolls back to {@code c-K}; at most {@code K-1} is used;
 *                          0 (the paper's model, the default) counts a checkpoint at once
 */
public record SimulationSpec(PartitionDependencies dependencies, int iterations, int checkpointEvery,
                             Strategy strategy, TimingModel timing, FailureModel failures, PowerModel power,
                             long seed, boolean recordRecoveries, int commitLagIterations) {

    /** A spec whose checkpoints count at once (commit lag 0). */
    public SimulationSpec(PartitionDependencies dependencies, int iterations, int checkpointEvery, Strategy strategy,
                          TimingModel timing, FailureModel failures, PowerModel power, long seed,
                          boolean recordRecoveries) {
        this(dependencies, iterations, checkpointEvery, strategy, timing, failures, power, seed, recordRecoveries, 0);
    }

    /** @throws IllegalArgumentException naming the bad value */
    public SimulationSpec {
        if (dependencies == null) {
            throw new IllegalArgumentException("dependencies must be given but was null");
        }
        Checks.atLeast("iterations", iterations, 1);
        Checks.atLeast("checkpointEvery", checkpointEvery, 1);
        Checks.atLeast("commitLagIterations", commitLagIterations, 0);
        if (strategy == null || timing == null || failures == null || power == null) {
            throw new IllegalArgumentException("strategy, timing, failures and power must all be given");
        }
    }

    /**
     * The paper's setting on {@code dependencies}: 1000 iterations, checkpoint every 6, DFR, 10 s tasks,
     * MTBF 100 h, seed 1, random failures' recoveries not recorded.
     */
    public static SimulationSpec paper(PartitionDependencies dependencies) {
        return new SimulationSpec(dependencies, 1000, 6, Strategy.DFR, TimingModel.PAPER, FailureModel.PAPER,
                PowerModel.PAPER, 1L, false);
    }

    /** Number of partitions. */
    public int partitionCount() {
        return dependencies.partitionCount();
    }

    /** A copy with another strategy. */
    public SimulationSpec withStrategy(Strategy s) {
        return new SimulationSpec(dependencies, iterations, checkpointEvery, s, timing, failures, power, seed, recordRecoveries, commitLagIterations);
    }

    /** A copy with another seed. */
    public SimulationSpec withSeed(long s) {
        return new SimulationSpec(dependencies, iterations, checkpointEvery, strategy, timing, failures, power, s, recordRecoveries, commitLagIterations);
    }

    /** A copy with another iteration count and checkpoint interval. */
    public SimulationSpec withIterations(int count, int every) {
        return new SimulationSpec(dependencies, count, every, strategy, timing, failures, power, seed, recordRecoveries, commitLagIterations);
    }

    /** A copy with other timings. */
    public SimulationSpec withTiming(TimingModel t) {
        return new SimulationSpec(dependencies, iterations, checkpointEvery, strategy, t, failures, power, seed, recordRecoveries, commitLagIterations);
    }

    /** A copy with another failure model. */
    public SimulationSpec withFailures(FailureModel f) {
        return new SimulationSpec(dependencies, iterations, checkpointEvery, strategy, timing, f, power, seed, recordRecoveries, commitLagIterations);
    }

    /** A copy with another power model. */
    public SimulationSpec withPower(PowerModel p) {
        return new SimulationSpec(dependencies, iterations, checkpointEvery, strategy, timing, failures, p, seed, recordRecoveries, commitLagIterations);
    }

    /** A copy that records recoveries (or not). */
    public SimulationSpec withRecordRecoveries(boolean record) {
        return new SimulationSpec(dependencies, iterations, checkpointEvery, strategy, timing, failures, power, seed, record, commitLagIterations);
    }

    /** A copy whose checkpoints count {@code lag} iterations after they are taken ({@link #commitLagIterations}). */
    public SimulationSpec withCommitLagIterations(int lag) {
        return new SimulationSpec(dependencies, iterations, checkpointEvery, strategy, timing, failures, power, seed,
                recordRecoveries, lag);
    }

    /** The commit lag used: {@link #commitLagIterations}, at most {@code checkpointEvery - 1}. */
    public int effectiveCommitLag() {
        return CommitLag.clamp(commitLagIterations, checkpointEvery);
    }
}
