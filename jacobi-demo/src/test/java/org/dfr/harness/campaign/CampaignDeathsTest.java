package org.dfr.harness.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.dfr.harness.RunConfig;
import org.dfr.recovery.FaultPlan.Kill;
import org.dfr.recovery.FaultPlan.Point;
import org.junit.jupiter.api.Test;

/** What counts as a death when the campaign judges a lost checkpoint (one death never loses one). */
class CampaignDeathsTest {

    private static final RunConfig BASE = RunConfig.of(2, 4, 37, 29, 20, 5);

    @Test
    void when_aTrialHasOneRankKilledAndOnePaused_then_itHasOneDeath() {
        RunConfig config = BASE.withFaults(List.of(new Kill(1, 8, Point.ITERATION_START), Kill.pause(2, 9, 2_000)),
                List.of(), Set.of());

        assertThat(CampaignRunner.deaths(config)).isEqualTo(1);
    }

    @Test
    void when_aTrialKillsARankAHostAndARankDuringTheRecovery_then_itHasThreeDeaths() {
        RunConfig config = BASE.withFaults(List.of(new Kill(1, 8, Point.ITERATION_START)),
                List.of(new Kill(2, 8, Point.ITERATION_START)), Set.of(6));

        assertThat(CampaignRunner.deaths(config)).isEqualTo(3);
    }

    @Test
    void when_aRankDiesInTheLastReductionAndAnotherAtTheEnd_then_bothCount() {
        // the one at the end is among the dead of the recovery the other needs (campaign seed 120, trial 16)
        RunConfig config = BASE.withFaults(List.of(new Kill(6, 20, Point.DURING_REDUCTION),
                new Kill(4, 20, Point.AFTER_END_NOTICES)), List.of(), Set.of());

        assertThat(CampaignRunner.deaths(config)).isEqualTo(2);
    }

    @Test
    void when_aTrialOnlyPauses_then_itHasNoDeath() {
        RunConfig config = BASE.withFaults(List.of(Kill.pause(2, 9, 2_000)), List.of(), Set.of());

        assertThat(CampaignRunner.deaths(config)).isZero();
    }
}
