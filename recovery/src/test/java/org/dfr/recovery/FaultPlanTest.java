package org.dfr.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FaultPlanTest {

    @Test
    void when_theRunStopsEarly_then_killsAfterNamesExactlyTheUnreachedOnes() {
        FaultPlan.Kill early = new FaultPlan.Kill(1, 4, FaultPlan.Point.ITERATION_START);
        FaultPlan.Kill last = new FaultPlan.Kill(2, 30, FaultPlan.Point.DURING_HALO_EXCHANGE);
        FaultPlan.Kill late = new FaultPlan.Kill(3, 31, FaultPlan.Point.ITERATION_START);
        FaultPlan.Kill latePause = FaultPlan.Kill.pause(4, 40, 500);
        // the end-of-run death happens at whichever iteration is the last
        FaultPlan.Kill atEnd = new FaultPlan.Kill(5, 1000, FaultPlan.Point.AFTER_END_NOTICES);
        FaultPlan plan = new FaultPlan(List.of(early, last, late, latePause, atEnd), Set.of());

        assertThat(plan.killsAfter(30)).containsExactly(late, latePause);
        assertThat(plan.killsAfter(1000)).isEmpty();
        assertThat(plan.killsAfter(3)).containsExactly(early, last, late, latePause);
    }

    @Test
    void when_aKillIsPlannedAtIteration0_then_onlyADeathAfterWritingCheckpoint0IsAllowed() {
        // checkpoint 0 is the only thing at iteration 0: it is written before the first iteration
        assertThat(new FaultPlan.Kill(1, 0, FaultPlan.Point.AFTER_CHECKPOINT_WRITE).iteration()).isZero();

        for (FaultPlan.Point p : FaultPlan.Point.values()) {
            if (p != FaultPlan.Point.AFTER_CHECKPOINT_WRITE) {
                assertThatThrownBy(() -> new FaultPlan.Kill(1, 0, p, p == FaultPlan.Point.PAUSE ? 100 : 0)).as("%s", p)
                        .hasMessage("failure iteration must be >= 1, got 0");
            }
        }
    }
}
