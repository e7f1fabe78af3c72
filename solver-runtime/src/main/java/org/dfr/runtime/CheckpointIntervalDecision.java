package org.dfr.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.dfr.analysis.CheckpointIntervalAdvice;

/**
 * The checkpoint interval a run with {@code --checkpoint-every auto} agreed on, and what it was chosen
 * from: the control-board value under {@link #KEY}, fixed by one {@code putIfAbsent} (see
 * {@link CheckpointSchedule}).
 *
 * @param epoch the epoch in which it was proposed
 * @param rank the rank whose measurements it uses (normally the reduction's root)
 * @param decidedAtIteration the iteration with whose reduction it was published
 * @param copyMillis the local copy of the run's initial checkpoint on that rank
 * @param replicationMillis the replication of the initial checkpoint after the copy, on that rank
 * @param iterationMillis the mean iteration time that rank measured before the decision
 * @param checkpointMillis the cost {@code C} the formula used: {@link #costMillis}
 * @param mtbfSeconds the run's mean time between failures {@code M}
 * @param youngIterations Young's interval, in iterations
 * @param interval the chosen interval: Daly's, in iterations, within {@code [1, iterations]}
 */
public record CheckpointIntervalDecision(int epoch, int rank, int decidedAtIteration, double copyMillis,
                                         double replicationMillis, double iterationMillis, double checkpointMillis,
                                         double mtbfSeconds, int youngIterations, int interval) {

    /** Control-board key of the decision; its value is {@link #toJson}. */
    public static final String KEY = "checkpoint/interval";
    /**
     * The smallest checkpoint cost the formula is given (a copy measured as 0 ns on a coarse clock
     * would otherwise be refused); it only ever makes the interval 1.
     */
    static final double MIN_COST_MILLIS = 1e-6;

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The cost of one in-loop checkpoint to the loop, from the initial checkpoint's measurement: the
     * local copy (since a checkpoint holds the state buffer itself, only bookkeeping) plus the whole
     * replication. The replication runs in the background, but where the ranks fill the cores it
     * competes with the computation: measured at 4096x4096 on 2x4 (docs/bench.md, session 19), a
     * commit lag of 9 iterations left the loop overhead of a checkpoint what a lag of 1 did, so the lag
     * hides none of it.
     */
    public static double costMillis(double copyMillis, double replicationMillis) {
        return Math.max(MIN_COST_MILLIS, copyMillis + replicationMillis);
    }

    /**
     * The interval for a checkpoint cost, iteration time and MTBF: Daly's interval in whole iterations
     * ({@link CheckpointIntervalAdvice#dalyIterations}), clamped to {@code [1, iterations]}.
     */
    public static int chooseInterval(double checkpointMillis, double iterationMillis, double mtbfSeconds,
                                     int iterations) {
        return Math.max(1, Math.min(iterations, advice(checkpointMillis, iterationMillis, mtbfSeconds).dalyIterations()));
    }

    private static CheckpointIntervalAdvice advice(double checkpointMillis, double iterationMillis, double mtbfSeconds) {
        return new CheckpointIntervalAdvice(Math.max(MIN_COST_MILLIS, checkpointMillis) / 1000.0, mtbfSeconds,
                iterationMillis / 1000.0);
    }

    /** The decision from one rank's measurements. */
    public static CheckpointIntervalDecision of(int epoch, int rank, int decidedAtIteration, double copyMillis,
                                                double replicationMillis, double iterationMillis, double mtbfSeconds,
                                                int iterations) {
        double cost = costMillis(copyMillis, replicationMillis);
        int young = Math.max(1, Math.min(iterations, advice(cost, iterationMillis, mtbfSeconds).youngIterations()));
        return new CheckpointIntervalDecision(epoch, rank, decidedAtIteration, copyMillis, replicationMillis,
                iterationMillis, cost, mtbfSeconds, young, chooseInterval(cost, iterationMillis, mtbfSeconds, iterations));
    }

    /** The board value. */
    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads a board value written by {@link #toJson}; null for null. */
    public static CheckpointIntervalDecision fromJson(String json) {
        if (json == null) {
            return null;
        }
        try {
            return JSON.readValue(json, CheckpointIntervalDecision.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a checkpoint-interval decision: " + json, e);
        }
    }
}
