package org.dfr.recovery;

import java.util.List;
import org.dfr.runtime.Detector;
import org.dfr.runtime.RunFailedException;

/**
 * What one recovery did and when, published by the coordinator ({@code recovery/<epoch>}) once it
 * decided, completed by the root after the resume barrier, and read by the run report. The times
 * are wall-clock milliseconds; null when not (yet) known.
 *
 * @param epoch the epoch the recovery opened
 * @param strategy what was asked for (null when no decision could be taken)
 * @param effectiveStrategy what was executed ({@link Strategy#GLOBAL} when a DFR cone covers everything)
 * @param deadRanks ranks that left the cluster
 * @param lostPartitions partitions whose state no live member held
 * @param checkpointIteration {@code c}
 * @param failureIteration {@code t}
 * @param lostIterations {@code m = t - 1 - c}
 * @param levels the recomputed levels (level 1 first)
 * @param recomputedPartitionIterations kernel updates the recovery planned
 * @param participatingRanks ranks that recompute
 * @param idleRanks active ranks that do no kernel update
 * @param adoptions lost partitions and their new owners
 * @param coversEverything whether the recomputation covers every partition
 * @param detectedAtMillis first moment a survivor knew of the failure
 * @param detectedBy what told the first survivor that found a death itself ({@link Detector}); null when not known
 * @param decidedAtMillis when the coordinator decided
 * @param resumedAtMillis when the ranks passed the resume barrier
 * @param recomputeMillis time from the decision to the resume barrier, on the root
 * @param replacementMillis the slowest adopter's checkpoint load (added by the result collector)
 * @param abortReason non-null when the run could not be recovered
 * @param abortKind the kind of that failure, null when none
 * @param restoredFrom where checkpoint {@code c} was read ({@link RestoreSource}); null (a record written before
 *        there was a choice) reads as {@link RestoreSource#COPIES}
 */
public record RecoveryRecord(int epoch, Strategy strategy, Strategy effectiveStrategy, List<Integer> deadRanks,
                             List<Integer> lostPartitions, int checkpointIteration, int failureIteration,
                             int lostIterations, List<List<Integer>> levels, long recomputedPartitionIterations,
                             List<Integer> participatingRanks, List<Integer> idleRanks, List<Adoption> adoptions,
                             boolean coversEverything, Long detectedAtMillis, Detector detectedBy,
                             Long decidedAtMillis, Long resumedAtMillis, Long recomputeMillis, Long replacementMillis,
                             String abortReason, RunFailedException.Kind abortKind, RestoreSource restoredFrom) {

    public RecoveryRecord {
        restoredFrom = restoredFrom == null ? RestoreSource.COPIES : restoredFrom;
    }

    /** The record of a decision, before the ranks resumed. */
    public static RecoveryRecord decided(RecoveryDirective d, Long detectedAtMillis, Detector detectedBy,
                                         long decidedAtMillis) {
        return new RecoveryRecord(d.epoch(), d.strategy(), d.effectiveStrategy(), d.deadRanks(), d.lostPartitions(),
                d.checkpointIteration(), d.failureIteration(), d.lostIterations(), d.levels(),
                d.recomputedPartitionIterations(), d.participatingRanks(), d.idleRanks(), d.adoptions(),
                d.coversEverything(), detectedAtMillis, detectedBy, decidedAtMillis, null, null, null, d.abortReason(),
                d.abortKind(), d.restoredFrom());
    }

    /** This record naming {@code ranks} as the members that died. */
    public RecoveryRecord withDeadRanks(List<Integer> ranks) {
        return new RecoveryRecord(epoch, strategy, effectiveStrategy, List.copyOf(ranks), lostPartitions,
                checkpointIteration, failureIteration, lostIterations, levels, recomputedPartitionIterations,
                participatingRanks, idleRanks, adoptions, coversEverything, detectedAtMillis, detectedBy,
                decidedAtMillis, resumedAtMillis, recomputeMillis, replacementMillis, abortReason, abortKind,
                restoredFrom);
    }

    /** The record of a decision whose times were lost with its coordinator: the decision alone. */
    public static RecoveryRecord withoutTimes(RecoveryDirective d) {
        return new RecoveryRecord(d.epoch(), d.strategy(), d.effectiveStrategy(), d.deadRanks(), d.lostPartitions(),
                d.checkpointIteration(), d.failureIteration(), d.lostIterations(), d.levels(),
                d.recomputedPartitionIterations(), d.participatingRanks(), d.idleRanks(), d.adoptions(),
                d.coversEverything(), null, null, null, null, null, null, d.abortReason(), d.abortKind(),
                d.restoredFrom());
    }

    /** This record completed with the moment the ranks resumed and the time the recovery took on the root. */
    public RecoveryRecord resumed(long resumedAtMillis, long recomputeMillis) {
        return new RecoveryRecord(epoch, strategy, effectiveStrategy, deadRanks, lostPartitions, checkpointIteration,
                failureIteration, lostIterations, levels, recomputedPartitionIterations, participatingRanks, idleRanks,
                adoptions, coversEverything, detectedAtMillis, detectedBy, decidedAtMillis, resumedAtMillis,
                recomputeMillis,
                replacementMillis, abortReason, abortKind, restoredFrom);
    }

    /** The board value. */
    public String toJson() {
        return ProtocolJson.write(this);
    }

    /** Reads a board value written by {@link #toJson} (fields added later by others are ignored if unknown). */
    public static RecoveryRecord fromJson(String json) {
        return ProtocolJson.read(json, RecoveryRecord.class);
    }
}
