package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.dfr.harness.KillDetections.Detected;
import org.dfr.recovery.FailureRecord;
import org.junit.jupiter.api.Test;

/**
 * <pre>
 * ms        1000      1126         1300      1340        5000      5020
 *  kills    rank 1 @4            rank 3 @4 (during the recovery)   rank 6 @9
 *  recovery           epoch 1 [1]            epoch 2 [1, 3]                  epoch 3 [6]
 * </pre>
 * Both first kills are at iteration 4: matching by iteration took rank 3's kill for the one epoch 1 answered.
 */
class KillDetectionsTest {

    private static final FailureRecord RANK1 = new FailureRecord(1, 4, "ITERATION_START", 1000);
    private static final FailureRecord RANK3 = new FailureRecord(3, 4, "DURING_RECOVERY", 1300);
    private static final FailureRecord RANK6 = new FailureRecord(6, 9, "ITERATION_START", 5000);
    private static final List<FailureRecord> KILLS = List.of(RANK1, RANK3, RANK6);
    private static final Detected EPOCH1 = new Detected(List.of(1), 1126);
    private static final Detected EPOCH2 = new Detected(List.of(1, 3), 1340);
    private static final Detected EPOCH3 = new Detected(List.of(6), 5020);

    @Test
    void when_aRankDiesDuringTheRecoveryOfAKillAtTheSameIteration_then_eachRecoveryAnswersItsOwnKill() {
        assertThat(KillDetections.ofRecovery(KILLS, EPOCH1)).isEqualTo(126);
        assertThat(KillDetections.ofRecovery(KILLS, EPOCH2)).isEqualTo(40);
        assertThat(KillDetections.ofRecovery(KILLS, EPOCH3)).isEqualTo(20);
    }

    @Test
    void when_aKillIsCountedByTwoRecoveries_then_itsDetectionIsTheFirstOnes() {
        List<Detected> recoveries = List.of(EPOCH2, EPOCH1, EPOCH3);

        assertThat(KillDetections.ofKill(RANK1, recoveries)).isEqualTo(126);
        assertThat(KillDetections.ofKill(RANK3, recoveries)).isEqualTo(40);
        assertThat(KillDetections.ofKill(RANK6, recoveries)).isEqualTo(20);
    }

    @Test
    void when_noRecoveryCountedTheRank_then_itsDetectionIsUnknown() {
        FailureRecord atTheEnd = new FailureRecord(2, 12, "AFTER_END_NOTICES", 9000);

        assertThat(KillDetections.ofKill(atTheEnd, List.of(EPOCH1, EPOCH2, EPOCH3))).isNull();
        assertThat(KillDetections.ofRecovery(List.of(atTheEnd), EPOCH1)).isNull();
    }

    @Test
    void when_theDyingRanksClockRunsAheadOfTheSurvivors_then_itsKillIsStillTheOneAnswered() {
        // rank 6's host stamps its kill 10 ms after the survivor saw it: not the unrelated kill of rank 3
        FailureRecord lateStamp = new FailureRecord(6, 9, "ITERATION_START", 5030);
        List<FailureRecord> kills = List.of(RANK1, RANK3, lateStamp);

        assertThat(KillDetections.ofRecovery(kills, EPOCH3)).isZero();
        assertThat(KillDetections.ofKill(lateStamp, List.of(EPOCH1, EPOCH2, EPOCH3))).isZero();
    }

    @Test
    void when_theDeadRankWasNotKilledByThePlan_then_theLatestKillBeforeTheDetectionIsTaken() {
        Detected lostOtherwise = new Detected(List.of(7), 1350);

        assertThat(KillDetections.ofRecovery(KILLS, lostOtherwise)).isEqualTo(50);
    }
}
