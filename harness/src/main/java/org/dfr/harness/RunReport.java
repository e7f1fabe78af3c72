package org.dfr.harness;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;
import org.dfr.runtime.Detector;

/**
 * The run report of DESIGN.md, written as JSON by {@code dfr run --report} and read by tools and
 * tests. Field names are the contract; more fields may be added.
 *
 * <p>{@code wallMillis} spans the run after the cluster formed, to the last rank's end (checkpoints and
 * recoveries included, collection of the final state not); {@code loopMillis} spans the iteration loop of the
 * slowest rank, and the throughput figures are computed over it. {@code restartedFromIteration} is
 * set only for a run started from a file checkpoint ({@code --restart-from}): it ran iterations
 * {@code restartedFromIteration+1 .. iterationsRun}. {@code checkpointInterval} is set only for a run
 * with {@code --checkpoint-every auto}: what its interval was chosen from ({@code checkpointEvery} is the
 * chosen interval then). {@code commitLagIterations} is the commit lag the run used: a checkpoint
 * {@code c} was committed with the reduction of {@code c + commitLagIterations}; a failure before
 * that recovered from the checkpoint before. {@code checkpointBackups} is the number of synchronous backups
 * of every replicated checkpoint (besides the primary, on the writing member), and {@code checkpointReplication}
 * what carried them ({@code hazelcast} or {@code data-plane}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RunReport(String kernel, Map<String, String> kernelOptions, String strategy, List<Integer> ranksGrid,
                        List<Integer> cells, int iterations, Double tolerance, int iterationsRun, StopReason stoppedBy,
                        int checkpointEvery, String mode, int ranksPerHost, int spares, String fieldSha256,
                        double finalResidual, long wallMillis, long loopMillis, int checkpointsTaken,
                        double checkpointMillisEach, double iterationsPerSecond,
                        double cellUpdatesPerSecond, List<Failure> failures, List<Recovery> recoveries,
                        List<RankActivity> ranks, Map<String, Object> energy, Provenance provenance,
                        Integer restartedFromIteration, CheckpointInterval checkpointInterval,
                        int commitLagIterations, int checkpointBackups, String checkpointReplication) {

    /** What ended the run. */
    public enum StopReason {
        /** The iteration cap ({@code --iterations}). */
        ITERATIONS,
        /** The first iteration whose global residual was below {@code --tolerance}. */
        TOLERANCE
    }

    /** This report with another energy section (the launcher's measurement of a processes run). */
    public RunReport withEnergy(Map<String, Object> value) {
        return new RunReport(kernel, kernelOptions, strategy, ranksGrid, cells, iterations, tolerance, iterationsRun,
                stoppedBy, checkpointEvery, mode, ranksPerHost, spares, fieldSha256, finalResidual, wallMillis,
                loopMillis, checkpointsTaken, checkpointMillisEach, iterationsPerSecond, cellUpdatesPerSecond, failures,
                recoveries, ranks, value, provenance, restartedFromIteration, checkpointInterval,
                commitLagIterations, checkpointBackups, checkpointReplication);
    }

    /** This report with another provenance (the launcher's, for a processes run). */
    public RunReport withProvenance(Provenance value) {
        return new RunReport(kernel, kernelOptions, strategy, ranksGrid, cells, iterations, tolerance, iterationsRun,
                stoppedBy, checkpointEvery, mode, ranksPerHost, spares, fieldSha256, finalResidual, wallMillis,
                loopMillis, checkpointsTaken, checkpointMillisEach, iterationsPerSecond, cellUpdatesPerSecond, failures,
                recoveries, ranks, energy, value, restartedFromIteration, checkpointInterval,
                commitLagIterations, checkpointBackups, checkpointReplication);
    }

    /**
     * This report of a run that restarted from the file checkpoint of {@code iteration} (null: it did not), its
     * throughput counting only the iterations it computed, {@code iteration+1 .. iterationsRun}, over its loop.
     */
    public RunReport withRestartedFromIteration(Integer iteration) {
        double computedShare = iteration == null || iterationsRun <= 0 ? 1
                : Math.max(0, iterationsRun - iteration) / (double) iterationsRun;
        return new RunReport(kernel, kernelOptions, strategy, ranksGrid, cells, iterations, tolerance, iterationsRun,
                stoppedBy, checkpointEvery, mode, ranksPerHost, spares, fieldSha256, finalResidual, wallMillis,
                loopMillis, checkpointsTaken, checkpointMillisEach, iterationsPerSecond * computedShare,
                cellUpdatesPerSecond * computedShare, failures,
                recoveries, ranks, energy, provenance, iteration, checkpointInterval,
                commitLagIterations, checkpointBackups, checkpointReplication);
    }

    /**
     * How a run with {@code --checkpoint-every auto} chose its interval: Daly's formula (Young's for
     * comparison) with the checkpoint cost and iteration time measured in the run. All fields but
     * {@code mtbfSeconds} are absent when the run ended before the decision.
     *
     * @param mtbfSeconds the run's mean time between failures ({@code --mtbf-seconds})
     * @param measuredCheckpointMillis the cost {@code C} the formula used: the initial checkpoint's local copy
     *        plus the part of its replication that one iteration of commit lag does not hide
     * @param measuredCopyMillis the initial checkpoint's local copy
     * @param measuredReplicationMillis the initial checkpoint's replication after the copy
     * @param measuredIterationMillis the mean duration of the iterations measured before the decision
     * @param youngInterval Young's interval {@code sqrt(2 C M)}, in iterations, within {@code [1, iterations]}
     * @param chosenInterval Daly's interval in iterations, within {@code [1, iterations]}: the interval used
     * @param decidedAtIteration the iteration with whose reduction it was agreed; checkpoints follow it
     * @param measuredByRank the rank whose measurements were used
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CheckpointInterval(double mtbfSeconds, Double measuredCheckpointMillis, Double measuredCopyMillis,
                                     Double measuredReplicationMillis, Double measuredIterationMillis,
                                     Integer youngInterval, Integer chosenInterval, Integer decidedAtIteration,
                                     Integer measuredByRank) {
    }

    /** Ranks that died together at one iteration. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Failure(List<Integer> ranks, int iteration, String point, Long detectionMillis) {

        /**
         * The {@code point} of a death no fault plan asked for (a rank process SIGKILLed by hand, a crash): its
         * {@code iteration} is its recovery's t, and its detection is unknown (no kill time to count from).
         */
        public static final String UNPLANNED = "UNPLANNED";
    }

    /**
     * One recovery round. {@code restoredFrom} says where checkpoint {@code c} was read: {@code copies} (the
     * in-memory copies), {@code file-level} or {@code start} (every copy of a lost partition died, and the recovery
     * fell back to the newest complete file level, or to where the run started); absent in reports written before
     * the choice existed. {@code detectedBy} names what told the first survivor that found the death itself
     * ({@code exit-watch}, {@code data-plane}, {@code notice}, {@code same-jvm}, {@code hazelcast}; {@link Detector});
     * absent when not known.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Recovery(int epoch, String strategy, String effectiveStrategy, List<Integer> deadRanks,
                           List<Integer> lostPartitions, int checkpointIteration, int failureIteration,
                           int lostIterations, List<List<Integer>> levels, long recomputedPartitionIterations,
                           List<Integer> participatingRanks, List<Integer> idleRanks, List<String> adoptions,
                           boolean coversEverything, Long detectionMillis, String detectedBy, Long agreementMillis,
                           Long replacementMillis, Long recomputeMillis, Long wallMillis, String restoredFrom) {

        /** Whether the recovery fell back to an older state than the committed checkpoint (its copies were lost). */
        @JsonIgnore
        public boolean fellBack() {
            return restoredFrom != null && !"copies".equals(restoredFrom);
        }
    }

    /** What one rank did (instrumented counts). */
    public record RankActivity(int rank, long kernelUpdates, long kernelUpdatesDuringRecovery,
                               long droppedStaleMessages, long sharedMemoryCopies, long lentCopies) {
    }
}
