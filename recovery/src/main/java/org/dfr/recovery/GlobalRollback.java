package org.dfr.recovery;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** Global rollback: every partition reloads checkpoint {@code c} and recomputes every lost iteration. */
public final class GlobalRollback implements RollbackStrategy {

    /** The whole decision once, on a made-up loss of 4 partitions: off the first recovery's critical path. */
    @Override
    public void warmUp() {
        decide(RecoveryInput.madeUpLoss(4));
    }

    @Override
    public RecoveryDirective decide(RecoveryInput input) {
        // every partition recomputes once an iteration is lost; with none lost only the adopters load
        RecoveryFacts f = RecoveryFacts.of(input, (lost, checkpoint, failure) -> failure - 1 - checkpoint > 0
                ? IntStream.range(0, input.ownership().length).boxed().collect(Collectors.toSet()) : Set.of());
        return directive(input, f, Strategy.GLOBAL, false);
    }

    static RecoveryDirective directive(RecoveryInput input, RecoveryFacts f, Strategy asked, boolean coversEverything) {
        int n = f.ownership().length;
        int m = f.failureIteration() - 1 - f.checkpointIteration();
        List<Integer> all = IntStream.range(0, n).boxed().toList();
        List<List<Integer>> levels = new ArrayList<>();
        for (int k = 0; k < m; k++) {
            levels.add(all);
        }
        return new RecoveryDirective(input.nextEpoch(), asked, Strategy.GLOBAL, f.lostList(), f.deadRanks(),
                f.checkpointIteration(), f.failureIteration(), f.ownershipList(), f.adoptions(), levels,
                (long) m * n, m == 0 ? f.ownersOf(f.lost()) : f.activeRanks(),
                m == 0 ? without(f.activeRanks(), f.ownersOf(f.lost())) : List.of(),
                new ArrayList<>(input.members()), coversEverything || m > 0, null, null,
                RestoreSource.COPIES);
    }

    static List<Integer> without(List<Integer> all, List<Integer> remove) {
        List<Integer> out = new ArrayList<>(all);
        out.removeAll(remove);
        return out;
    }
}
