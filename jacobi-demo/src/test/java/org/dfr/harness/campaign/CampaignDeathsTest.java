package org.dfr.harness.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.dfr.harness.RunConfig;
import org.dfr.recovery.FaultPlan.Kill;
import org.dfr.recovery.FaultPlan.Point;
import org.dfr.runtime.RunFailedException;
import org.junit.jupiter.api.Test;

/**
 * What counts as a death when the campaign judges a lost checkpoint (one death never loses one): the deaths among the
 * ranks dead when the run failed, not the plan's.
 *
 * <pre>
 *   2x4 ranks, 2 per host:  host 0 = {0,1}  host 1 = {2,3}  host 2 = {4,5}  host 3 = {6,7}
 * </pre>
 */
class CampaignDeathsTest {

    private static final RunConfig BASE = RunConfig.of(2, 4, 37, 29, 20, 5).withRanksPerHost(2);

    @Test
    void when_onlyTheFirstOfTwoPlannedDeathsHappened_then_oneDeathCounts() {
        // campaign seed 132, trial 0: 7@4 and 2@12/after_end_notices; the copy was found lost after the first
        RunConfig config = BASE.withFaults(List.of(new Kill(7, 4, Point.ITERATION_START),
                new Kill(2, 20, Point.AFTER_END_NOTICES)), List.of(), Set.of());

        assertThat(CampaignRunner.deathsAmong(config, Set.of(7))).isEqualTo(1);
        assertThat(CampaignRunner.deathsAmong(config, Set.of(2, 7))).isEqualTo(2);
    }

    @Test
    void when_aWholeHostDied_then_itIsOneDeath() {
        RunConfig config = BASE.withFaults(List.of(), List.of(new Kill(1, 8, Point.ITERATION_START)), Set.of());

        assertThat(CampaignRunner.deathsAmong(config, Set.of(2, 3))).isEqualTo(1);
    }

    @Test
    void when_aRankAHostAndARankDuringTheRecoveryDied_then_threeDeathsCount() {
        RunConfig config = BASE.withFaults(List.of(new Kill(1, 8, Point.ITERATION_START)),
                List.of(new Kill(1, 8, Point.ITERATION_START)), Set.of(6));

        assertThat(CampaignRunner.deathsAmong(config, Set.of(1, 2, 3, 6))).isEqualTo(3);
    }

    @Test
    void when_aRankOfAFailedHostWasKilledOnItsOwnBefore_then_itAndTheHostCountApart() {
        RunConfig config = BASE.withFaults(List.of(new Kill(2, 4, Point.DURING_REDUCTION)),
                List.of(new Kill(1, 8, Point.ITERATION_START)), Set.of());

        assertThat(CampaignRunner.deathsAmong(config, Set.of(2, 3))).isEqualTo(2);
    }

    @Test
    void when_aRankOfAFailedHostWasToDieLater_then_itDiedWithTheHost_andOneDeathCounts() {
        // host 1 fails at 4; rank 2's own kill at 12 never came: a copy lost at 4 is one death's loss, an ERROR
        RunConfig config = BASE.withFaults(List.of(new Kill(2, 12, Point.ITERATION_START)),
                List.of(new Kill(1, 4, Point.ITERATION_START)), Set.of(3));

        assertThat(CampaignRunner.deathsAmong(config, Set.of(2, 3))).isEqualTo(1);
    }

    @Test
    void when_aRankDiedThatThePlanDoesNotKill_then_itCountsToo() {
        RunConfig config = BASE.withFaults(List.of(Kill.pause(2, 9, 2_000)), List.of(), Set.of());

        assertThat(CampaignRunner.deathsAmong(config, Set.of(5))).isEqualTo(1);
        assertThat(CampaignRunner.deathsAmong(config, Set.of())).isZero();
    }

    @Test
    void when_aFailureIsGivenItsDeadRanks_then_kindMessageAndStackTraceStay() {
        RunFailedException failure = new RunFailedException(RunFailedException.Kind.CHECKPOINT_LOST, "no copy");

        RunFailedException withDead = failure.withDeadRanks(List.of(7, 2));

        assertThat(failure.deadRanks()).isEmpty();
        assertThat(withDead.deadRanks()).containsExactly(2, 7);
        assertThat(withDead.kind()).isEqualTo(RunFailedException.Kind.CHECKPOINT_LOST);
        assertThat(withDead.getMessage()).isEqualTo("no copy");
        assertThat(withDead.getStackTrace()).isEqualTo(failure.getStackTrace());
    }
}
