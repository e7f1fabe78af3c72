package org.dfr.recovery;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.dfr.analysis.ConeAnalyzer;
import org.dfr.analysis.RecoveryPlan;

/**
 * Data-flow rollback: only the cone of the lost partitions recomputes (the plan of
 * {@link ConeAnalyzer}); when the cone covers every partition it is global rollback and says so.
 */
public final class DataFlowRollback implements RollbackStrategy {

    private final ConeAnalyzer analyzer;

    public DataFlowRollback(ConeAnalyzer analyzer) {
        this.analyzer = analyzer;
    }

    @Override
    public void warmUp() {
        analyzer.plan(new int[] {0}, 0, 3);
        // the whole decision once, on a made-up loss: the facts of the statuses, the adopters' choice and the
        // directive otherwise ran first in a real recovery, on its critical path (8-31 ms of the coordinator's inputs
        // in session 47's timing logs)
        RecoveryInput madeUp = RecoveryInput.madeUpLoss(analyzer.partitionCount());
        if (madeUp != null) {
            decide(madeUp);
        }
    }

    @Override
    public RecoveryDirective decide(RecoveryInput input) {
        // the plan depends on the lost partitions and iterations only, not on who adopts: it is computed once,
        // for the adopters' hosts (RecoveryFacts), and used below
        RecoveryPlan[] planned = new RecoveryPlan[1];
        RecoveryFacts f = RecoveryFacts.of(input, (lost, checkpoint, failure) -> {
            if (lost.length == 0) {
                return Set.of();
            }
            planned[0] = analyzer.plan(lost, checkpoint, failure);
            return recomputing(planned[0], lost, input.ownership().length);
        });
        if (f.lost().length == 0) {
            // nothing is lost: a message timed out (a rank slower than the message timeout), or the dead held no
            // partition (a spare). The cone is empty: every rank returns to the last iteration all computed (it
            // holds that state in its buffers) and resumes; nothing recomputes
            List<Integer> active = f.activeRanks();
            return new RecoveryDirective(input.nextEpoch(), Strategy.DFR, Strategy.DFR, List.of(), f.deadRanks(),
                    f.checkpointIteration(), f.failureIteration(), f.ownershipList(), f.adoptions(), List.of(), 0,
                    List.of(), active, new ArrayList<>(input.members()), false, null, null, RestoreSource.COPIES);
        }
        RecoveryPlan plan = planned[0] != null ? planned[0]
                : analyzer.plan(f.lost(), f.checkpointIteration(), f.failureIteration());
        if (plan.isGlobalRollback()) {
            return GlobalRollback.directive(input, f, Strategy.DFR, true);
        }
        List<List<Integer>> levels = new ArrayList<>();
        for (int k = 1; k <= plan.levelCount(); k++) {
            levels.add(Arrays.stream(plan.level(k)).boxed().toList());
        }
        int[] participating = firstLevel(plan, f.lost());
        List<Integer> participatingRanks = f.ownersOf(participating);
        List<Integer> idle = GlobalRollback.without(f.activeRanks(), participatingRanks);
        return new RecoveryDirective(input.nextEpoch(), Strategy.DFR, Strategy.DFR, f.lostList(),
                f.deadRanks(), f.checkpointIteration(), f.failureIteration(), f.ownershipList(), f.adoptions(),
                levels, plan.recomputedPartitionIterations(), participatingRanks, idle,
                new ArrayList<>(input.members()), false, null, null, RestoreSource.COPIES);
    }

    /** The partitions that compute under {@code plan}: every one when it is global rollback, else its first level. */
    private static Set<Integer> recomputing(RecoveryPlan plan, int[] lost, int partitionCount) {
        int[] partitions = plan.isGlobalRollback() ? IntStream.range(0, partitionCount).toArray()
                : firstLevel(plan, lost);
        return Arrays.stream(partitions).boxed().collect(Collectors.toSet());
    }

    /** The partitions that take part in a recovery under {@code plan}: its first level, or the lost alone (m = 0). */
    private static int[] firstLevel(RecoveryPlan plan, int[] lost) {
        return plan.lostIterations() == 0 ? lost : plan.level(1);
    }
}
