package org.dfr.recovery;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.List;

/**
 * The coordinator's decision for one recovery round, published under a new epoch. Every rank
 * executes the same directive.
 *
 * @param epoch the epoch this directive opens
 * @param strategy what was asked for
 * @param effectiveStrategy what is executed ({@code global} when a DFR cone covers everything)
 * @param lostPartitions partitions whose state at {@code failureIteration-1} no live member holds
 * @param deadRanks ranks that left the cluster
 * @param checkpointIteration {@code c}
 * @param failureIteration {@code t}; the state of {@code t-1} is restored and the run resumes at {@code t}
 * @param ownership partition to owning rank after the replacement
 * @param adoptions lost partition to its new owner, as "p:r"
 * @param levels DFR cone levels (level 1 first); for global every level is every partition
 * @param participatingRanks ranks that recompute
 * @param idleRanks active ranks that do no kernel update in this recovery
 * @param members ranks in the cluster when the decision was taken
 * @param abortReason non-null when the run cannot be recovered
 */
public record RecoveryDirective(int epoch, String strategy, String effectiveStrategy, List<Integer> lostPartitions,
                                List<Integer> deadRanks, int checkpointIteration, int failureIteration,
                                List<Integer> ownership, List<String> adoptions, List<List<Integer>> levels,
                                long recomputedPartitionIterations, List<Integer> participatingRanks,
                                List<Integer> idleRanks, List<Integer> members, boolean coversEverything,
                                String abortReason) {

    @JsonIgnore
    public int lostIterations() {
        return failureIteration - 1 - checkpointIteration;
    }

    @JsonIgnore
    public boolean isGlobal() {
        return "global".equals(effectiveStrategy);
    }

    @JsonIgnore
    public int[] ownershipArray() {
        return ownership.stream().mapToInt(Integer::intValue).toArray();
    }
}
