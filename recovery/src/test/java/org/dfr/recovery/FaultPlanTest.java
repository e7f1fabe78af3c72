package org.dfr.recovery;

import static org.assertj.core.api.Assertions.assertThat;

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
}
