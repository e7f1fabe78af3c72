package org.dfr.recovery;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.List;
import org.dfr.runtime.RunFailedException;

/**
 * The coordinator's decision for one recovery round, published under a new epoch. Every rank
 * executes the same directive.
 *
 * @param epoch the epoch this directive opens
 * @param strategy what was asked for (null when no decision could be taken)
 * @param effectiveStrategy what is executed ({@link Strategy#GLOBAL} when a DFR cone covers everything)
 * @param lostPartitions partitions whose state at {@code failureIteration-1} no live member holds
 * @param deadRanks ranks that left the cluster
 * @param checkpointIteration {@code c}
 * @param failureIteration {@code t}; the state of {@code t-1} is restored and the run resumes at {@code t}
 * @param ownership partition to owning rank after the replacement
 * @param adoptions lost partitions and their new owners
 * @param levels DFR cone levels (level 1 first); for global every level is every partition
 * @param participatingRanks ranks that recompute
 * @param idleRanks active ranks that do no kernel update in this recovery
 * @param members ranks in the cluster when the decision was taken
 * @param abortReason non-null when the run cannot be recovered
 * @param abortKind the kind of that failure ({@link RunFailedException.Kind#CHECKPOINT_LOST} when a
 *        needed checkpoint has no copy left); null when the directive does not abort
 * @param restoredFrom where checkpoint {@code c} is read: its in-memory copies, or, when every copy of a lost
 *        partition died, the file level or where the run started ({@link RestoreSource}); null reads as
 *        {@link RestoreSource#COPIES}
 */
public record RecoveryDirective(int epoch, Strategy strategy, Strategy effectiveStrategy, List<Integer> lostPartitions,
                                List<Integer> deadRanks, int checkpointIteration, int failureIteration,
                                List<Integer> ownership, List<Adoption> adoptions, List<List<Integer>> levels,
                                long recomputedPartitionIterations, List<Integer> participatingRanks,
                                List<Integer> idleRanks, List<Integer> members, boolean coversEverything,
                                String abortReason, RunFailedException.Kind abortKind, RestoreSource restoredFrom) {

    public RecoveryDirective {
        restoredFrom = restoredFrom == null ? RestoreSource.COPIES : restoredFrom;
    }

    /** {@code m = t - 1 - c}: the iterations lost since the checkpoint. */
    @JsonIgnore
    public int lostIterations() {
        return failureIteration - 1 - checkpointIteration;
    }

    /** Whether every partition reloads the checkpoint. */
    @JsonIgnore
    public boolean isGlobal() {
        return effectiveStrategy == Strategy.GLOBAL;
    }

    /** {@link #ownership} as an array, partition to rank. */
    @JsonIgnore
    public int[] ownershipArray() {
        return ownership.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The failure this directive's abort stands for, or null when it does not abort. */
    @JsonIgnore
    public RunFailedException abortFailure() {
        if (abortReason == null) {
            return null;
        }
        return new RunFailedException(abortKind == null ? RunFailedException.Kind.OTHER : abortKind, abortReason);
    }

    /** This directive turned into an abort of the given kind. */
    RecoveryDirective aborted(RunFailedException.Kind kind, String reason) {
        return new RecoveryDirective(epoch, strategy, effectiveStrategy, lostPartitions, deadRanks,
                checkpointIteration, failureIteration, ownership, adoptions, List.of(), 0, List.of(), List.of(),
                members, coversEverything, reason, kind, restoredFrom);
    }

    /** This directive, reading its checkpoint from {@code source}. */
    RecoveryDirective restoringFrom(RestoreSource source) {
        return new RecoveryDirective(epoch, strategy, effectiveStrategy, lostPartitions, deadRanks,
                checkpointIteration, failureIteration, ownership, adoptions, levels, recomputedPartitionIterations,
                participatingRanks, idleRanks, members, coversEverything, abortReason, abortKind, source);
    }
}
