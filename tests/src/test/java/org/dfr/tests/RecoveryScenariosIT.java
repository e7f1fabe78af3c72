package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.dfr.analysis.ConeAnalyzer;
import org.dfr.analysis.DependencyDeclarations;
import org.dfr.analysis.RecoveryPlan;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.harness.Runner;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.jacobi.SequentialJacobi;
import org.dfr.recovery.FaultPlan.Kill;
import org.dfr.recovery.FaultPlan.Point;
import org.dfr.recovery.FaultPlan;
import org.dfr.recovery.Strategy;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.RunFailedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every failure scenario of the recovery issue, in embedded mode (members terminated abruptly),
 * checked bit for bit against the sequential reference.
 *
 * <pre>
 * The paper's layout: 2 x 4 ranks, partition id = py*2 + px, 2 ranks per host
 *
 *        px=0  px=1
 *   py=0   0     1      host 0 = {0,1}
 *   py=1   2     3      host 1 = {2,3}
 *   py=2   4     5      host 2 = {4,5}
 *   py=3   6     7      host 3 = {6,7}
 * </pre>
 */
@Timeout(300)
class RecoveryScenariosIT {

    private static final int NX = 37;
    private static final int NY = 29;
    private static final Map<Integer, String> REFERENCE = new ConcurrentHashMap<>();

    private static String referenceDigest(int iterations) {
        return REFERENCE.computeIfAbsent(iterations, n -> {
            SequentialJacobi seq = new SequentialJacobi(new JacobiProblem(NX, NY));
            seq.iterate(n);
            return seq.digest();
        });
    }

    private static RunConfig paper(int iterations, int checkpointEvery) {
        return RunConfig.of(2, 4, NX, NY, iterations, checkpointEvery);
    }

    private static RunReport run(RunConfig config) {
        return new Runner().run(config);
    }

    private static Kill kill(int rank, int iteration) {
        return new Kill(rank, iteration, Point.ITERATION_START);
    }

    private static RecoveryPlan plan(int[] lost, int c, int t) {
        return new ConeAnalyzer(DependencyDeclarations.twoD5Point(2, 4, false)).plan(lost, c, t);
    }

    private static void assertFailureFreeDigest(RunReport report) {
        assertThat(report.fieldSha256()).as("digest of a run with failures").isEqualTo(referenceDigest(report.iterations()));
    }

    private static long updatesDuringRecovery(RunReport report, int rank) {
        return report.ranks().stream().filter(r -> r.rank() == rank).findFirst().orElseThrow()
                .kernelUpdatesDuringRecovery();
    }

    @Test
    void when_paperCaseWithDfr_then_onlyThePlanRecomputes() {
        RunReport report = run(paper(10, 10).withFaults(List.of(kill(1, 4)), List.of(), Set.of()));

        assertFailureFreeDigest(report);
        assertThat(report.recoveries()).hasSize(1);
        RunReport.Recovery rec = report.recoveries().get(0);
        RecoveryPlan expected = plan(new int[] {1}, 0, 4);
        assertThat(rec.lostPartitions()).containsExactly(1);
        assertThat(rec.checkpointIteration()).isZero();
        assertThat(rec.failureIteration()).isEqualTo(4);
        assertThat(rec.recomputedPartitionIterations()).isEqualTo(expected.recomputedPartitionIterations()).isEqualTo(9);
        // rank 1's partition is adopted by a least loaded survivor holding a copy of its checkpoint (rank 3,
        // on the next host: the copies are on ranks 3 and 5); the plan's level 1 is {0,1,2,3,5}
        assertThat(rec.adoptions()).containsExactly("1:3");
        assertThat(rec.replacementMillis()).as("the adopter's checkpoint load is timed").isNotNull().isNotNegative();
        assertThat(rec.participatingRanks()).containsExactly(0, 2, 3, 5);
        assertThat(rec.idleRanks()).containsExactly(4, 6, 7);
        for (int idle : List.of(4, 6, 7)) {
            assertThat(updatesDuringRecovery(report, idle)).as("kernel updates of idle rank %d", idle).isZero();
        }
        long measuredWork = report.ranks().stream().mapToLong(RunReport.RankActivity::kernelUpdatesDuringRecovery).sum();
        assertThat(measuredWork).as("instrumented recomputation").isEqualTo(expected.recomputedPartitionIterations());
        assertThat(report.failures()).hasSize(1);
        assertThat(report.failures().get(0).ranks()).containsExactly(1);
    }

    /*
     * Rank 7 dies right after writing its checkpoint of iteration 4; checkpoint 4 is not committed, so the
     * recovery goes back to 0 and resumes at 5, where rank 0 is to die. The reduction of the last recomputed
     * iteration used to start iteration 5 early on rank 0, still in recovery, so that death was skipped and
     * never came (seed 132, trial 9). Global rollback, so that the recovery recomputes through the full loop.
     */
    @Test
    void when_aDeathIsPlannedAtTheIterationARecoveryResumesAt_then_itHappens() {
        RunReport report = run(paper(8, 4).withStrategy(Strategy.GLOBAL).withFaults(List.of(
                new Kill(7, 4, FaultPlan.Point.AFTER_CHECKPOINT_WRITE), kill(0, 5)), List.of(), Set.of()));

        assertFailureFreeDigest(report);
        assertThat(report.failures()).anySatisfy(f -> {
            assertThat(f.ranks()).containsExactly(0);
            assertThat(f.iteration()).isEqualTo(5);
        });
        assertThat(report.recoveries()).hasSize(2);
    }

    @Test
    void when_paperCaseWithGlobal_then_everyPartitionRecomputesThreeIterations() {
        RunReport report = run(paper(10, 10).withStrategy(Strategy.GLOBAL)
                .withFaults(List.of(kill(1, 4)), List.of(), Set.of()));

        assertFailureFreeDigest(report);
        RunReport.Recovery rec = report.recoveries().get(0);
        assertThat(rec.recomputedPartitionIterations()).isEqualTo(3 * 8);
        long measuredWork = report.ranks().stream().mapToLong(RunReport.RankActivity::kernelUpdatesDuringRecovery).sum();
        assertThat(measuredWork).isEqualTo(3 * 8);
    }

    /*
     * Rank 1 is the first rank the root (rank 0) sends the sum of iteration 3 to: killed at the start
     * of iteration 4, it must still die after the reduction of 3 completed (and with it the commit of
     * checkpoint 3) everywhere, although ranks start an iteration while they wait for the previous sum.
     * A checkpoint is committed with the reduction that follows it by the commit lag (Checkpointing):
     * with K = 1 the lag is 0, so checkpoint 3 is committed by the reduction of 3 itself.
     */
    @ParameterizedTest(name = "rank {0} killed at the start of iteration 4")
    @ValueSource(ints = {5, 1})
    void when_failureRightAfterCheckpoint_then_onlyTheLostPartitionReloads(int victim) {
        RunReport report = run(paper(8, 1).withFaults(List.of(kill(victim, 4)), List.of(), Set.of()));

        assertFailureFreeDigest(report);
        RunReport.Recovery rec = report.recoveries().get(0);
        assertThat(rec.checkpointIteration()).isEqualTo(3);
        assertThat(rec.lostIterations()).isZero();
        assertThat(rec.recomputedPartitionIterations()).isZero();
        long measuredWork = report.ranks().stream().mapToLong(RunReport.RankActivity::kernelUpdatesDuringRecovery).sum();
        assertThat(measuredWork).isZero();
    }

    @Test
    void when_failureSeveralCheckpointsIn_then_theLatestCheckpointIsUsed() {
        RunReport report = run(paper(14, 3).withFaults(List.of(kill(2, 11)), List.of(), Set.of()));

        assertFailureFreeDigest(report);
        RunReport.Recovery rec = report.recoveries().get(0);
        assertThat(rec.checkpointIteration()).isEqualTo(9);
        assertThat(rec.lostIterations()).isEqualTo(1);
        assertThat(rec.recomputedPartitionIterations())
                .isEqualTo(plan(new int[] {2}, 9, 11).recomputedPartitionIterations());
    }

    @Test
    void when_twoSimultaneousFailures_then_theUnionOfConesRecomputes() {
        // m = 2: level 1 = {0,1,3} u {4,6,7}, level 2 = {1,6}
        RunReport report = run(paper(10, 10).withFaults(List.of(kill(1, 3), kill(6, 3)), List.of(), Set.of()));

        assertFailureFreeDigest(report);
        RunReport.Recovery rec = report.recoveries().get(report.recoveries().size() - 1);
        assertThat(rec.lostPartitions()).containsExactly(1, 6);
        assertThat(rec.recomputedPartitionIterations())
                .isEqualTo(plan(new int[] {1, 6}, 0, 3).recomputedPartitionIterations()).isEqualTo(8);
        assertThat(rec.coversEverything()).isFalse();
        assertThat(report.failures().get(0).ranks()).containsExactly(1, 6);
    }

    @Test
    void when_unionOfConesCoversEverything_then_dfrDoesGlobalRollbackAndSaysSo() {
        // m = 3 from {1,6}: distance 2 reaches every partition of the 2 x 4 grid
        RunReport report = run(paper(10, 10).withFaults(List.of(kill(1, 4), kill(6, 4)), List.of(), Set.of()));

        assertFailureFreeDigest(report);
        RunReport.Recovery rec = report.recoveries().get(report.recoveries().size() - 1);
        assertThat(plan(new int[] {1, 6}, 0, 4).coversEverything()).isTrue();
        assertThat(rec.coversEverything()).isTrue();
        assertThat(rec.strategy()).isEqualTo("dfr");
        assertThat(rec.effectiveStrategy()).isEqualTo("global");
        assertThat(rec.recomputedPartitionIterations()).isEqualTo(3 * 8);
    }

    @Test
    void when_hostFails_then_bothItsRanksAreRecovered() {
        // host 3 = ranks {6,7}; m = 2: level 1 = {4,5,6,7}, level 2 = {6,7}
        RunReport report = run(paper(10, 10).withFaults(List.of(), List.of(kill(3, 3)), Set.of()));

        assertFailureFreeDigest(report);
        RunReport.Recovery rec = report.recoveries().get(report.recoveries().size() - 1);
        assertThat(rec.lostPartitions()).containsExactly(6, 7);
        assertThat(rec.recomputedPartitionIterations())
                .isEqualTo(plan(new int[] {6, 7}, 0, 3).recomputedPartitionIterations()).isEqualTo(6);
        assertThat(report.failures().get(0).ranks()).containsExactly(6, 7);
    }

    @Test
    void when_theHostOfHazelcastsMasterFails_then_theSurvivorsLearnOfBothDeathsFromTheJvmAndRecoverInOneRound() {
        // host 0 = ranks {0,1}; rank 0 started first, so it is Hazelcast's master. Both die as one, and every
        // survivor counts both out before their members terminate: told by Hazelcast alone, the member taking over
        // from the master often asked rank 1 for its member list first and waited 5 s for it
        RunReport report = run(paper(10, 10).withFaults(List.of(), List.of(kill(0, 3)), Set.of()));

        assertFailureFreeDigest(report);
        assertThat(report.recoveries()).hasSize(1);
        RunReport.Recovery rec = report.recoveries().get(0);
        assertThat(rec.lostPartitions()).containsExactly(0, 1);
        assertThat(rec.detectedBy()).isEqualTo("same-jvm");
        assertThat(report.failures().get(0).ranks()).containsExactly(0, 1);
    }

    @Test
    void when_adopterDiesDuringRecovery_then_aSecondRoundRecoversBoth() {
        // rank 0 adopts partition 1 and dies after the first recomputed level
        RunReport report = run(paper(10, 10).withFaults(List.of(kill(1, 4)), List.of(), Set.of(0)));

        assertFailureFreeDigest(report);
        assertThat(report.recoveries()).hasSizeGreaterThanOrEqualTo(2);
        // no round missing: the coordinator of the first died in it, before its record was written now and then,
        // and the next coordinator rebuilds it from its directive
        assertThat(report.recoveries()).extracting(RunReport.Recovery::epoch).startsWith(1, 2);
        RunReport.Recovery last = report.recoveries().get(report.recoveries().size() - 1);
        assertThat(last.lostPartitions()).containsExactly(0, 1);
        assertThat(last.deadRanks()).contains(0);
        // the failures in the order they happened: the kill, then the death during its recovery
        assertThat(report.failures()).extracting(RunReport.Failure::ranks, RunReport.Failure::point)
                .containsExactly(tuple(List.of(1), "ITERATION_START"), tuple(List.of(0), "DURING_RECOVERY"));
    }

    @Test
    void when_coordinatorDies_then_theNextOldestMemberCoordinates() {
        // rank 0 is started first, so it is the oldest member: the coordinator
        RunReport report = run(paper(10, 10).withFaults(List.of(kill(0, 4)), List.of(), Set.of()));

        assertFailureFreeDigest(report);
        assertThat(report.recoveries().get(0).lostPartitions()).containsExactly(0);
    }

    @Test
    void when_failureWhileCheckpointIsWritten_then_thePreviousCheckpointIsUsed() {
        RunConfig config = paper(12, 4);
        RunReport report = new Runner().run(withPlan(config,
                new FaultPlan(List.of(new Kill(3, 8, Point.AFTER_CHECKPOINT_WRITE)), Set.of())));

        assertFailureFreeDigest(report);
        RunReport.Recovery rec = report.recoveries().get(0);
        assertThat(rec.checkpointIteration()).as("checkpoint 8 was never committed").isEqualTo(4);
    }

    /**
     * Rank 3 dies right after writing its part of checkpoint 0, before the first iteration: no checkpoint was
     * committed yet, so the recovery goes back to where the run started (rebuilt), with nothing to recompute.
     */
    @Test
    void when_aRankDiesWritingCheckpoint0_then_theRunRestartsFromItsStartAndTheDigestIsExact() {
        RunReport report = new Runner().run(withPlan(paper(6, 3),
                new FaultPlan(List.of(new Kill(3, 0, Point.AFTER_CHECKPOINT_WRITE)), Set.of())));

        assertFailureFreeDigest(report);
        assertThat(report.recoveries()).singleElement().satisfies(rec -> {
            assertThat(rec.checkpointIteration()).isZero();
            // the run stood before its first iteration: nothing was lost (report.schema.json: failureIteration >= 1)
            assertThat(rec.failureIteration()).isEqualTo(1);
            assertThat(rec.lostIterations()).isZero();
            assertThat(rec.lostPartitions()).containsExactly(3);
            assertThat(rec.recomputedPartitionIterations()).isZero();
        });
        assertThat(report.failures()).singleElement().satisfies(f -> assertThat(f.ranks()).containsExactly(3));
    }

    @Test
    void when_failureDuringResidualReduction_then_digestIsExact() {
        RunReport report = new Runner().run(withPlan(paper(10, 10),
                new FaultPlan(List.of(new Kill(4, 6, Point.DURING_REDUCTION)), Set.of())));

        assertFailureFreeDigest(report);
        assertThat(report.recoveries()).hasSize(1);
        assertThat(report.recoveries().get(0).lostPartitions()).containsExactly(4);
    }

    @Test
    void when_theSpareDiesRecoveringAFailureInTheLastReduction_then_everyFailureIsRecordedWithinTheRun() {
        // campaign seed 85, trial 989: rank 4 dies in iteration 10's reduction (the last), spare 8 adopts
        // partition 4 and dies during that recovery, which stands at failure iteration 11
        RunReport report = new Runner().run(withPlan(paper(10, 10).withSpares(1),
                new FaultPlan(List.of(new Kill(4, 10, Point.DURING_REDUCTION)), Set.of(8))));

        assertFailureFreeDigest(report);
        assertThat(report.failures()).extracting(RunReport.Failure::ranks)
                .containsExactlyInAnyOrder(List.of(4), List.of(8));
        assertThat(report.failures()).extracting(RunReport.Failure::iteration).containsOnly(10);
    }

    @Test
    void when_spareIsAvailable_then_theSpareAdoptsTheLostPartition() {
        RunReport report = run(paper(10, 10).withSpares(1).withFaults(List.of(kill(1, 4)), List.of(), Set.of()));

        assertFailureFreeDigest(report);
        RunReport.Recovery rec = report.recoveries().get(0);
        assertThat(rec.adoptions()).containsExactly("1:8");
        assertThat(rec.participatingRanks()).containsExactly(0, 2, 3, 5, 8);
        assertThat(updatesDuringRecovery(report, 8)).isEqualTo(3);
    }

    @Test
    void when_globalStrategyAndSimultaneousFailures_then_digestIsExact() {
        RunReport report = run(paper(10, 4).withStrategy(Strategy.GLOBAL)
                .withFaults(List.of(kill(2, 7), kill(5, 7)), List.of(), Set.of()));

        assertFailureFreeDigest(report);
        assertThat(report.recoveries().get(0).recomputedPartitionIterations()).isEqualTo(2 * 8);
    }

    /*
     *   rank 1 killed at iteration 4; rank 3 paused there for 8 s (stuck, as in a kernel's update that does not
     *   return): the others stop and send their statuses, the coordinator waits for rank 3's, the decision times out
     */
    @Test
    void when_aRankIsStuckWhileTheOthersRecover_then_theTimeoutNamesIt() {
        RunConfig config = paper(10, 10).withFaults(List.of(kill(1, 4), Kill.pause(3, 4, 8_000)), List.of(), Set.of());

        assertThatThrownBy(() -> new Runner(new ClusterSettings().recoveryTimeoutMillis(3_000)).run(config))
                .isInstanceOf(RunFailedException.class)
                .hasMessageContaining("no recovery decision for epoch 1 within 3000 ms (no status from ranks [3]:");
    }

    /**
     * All but one member die at once after checkpoint 5: the copies of some lost partitions lived on dead members
     * only. The recovery falls back to where the run started (no file level), and rank 0 recomputes everything.
     */
    @Test
    void when_everyCopyOfTheCommittedCheckpointIsLost_then_theRecoveryFallsBackToTheStartAndTheDigestIsExact() {
        List<Kill> kills = new ArrayList<>();
        for (int r = 1; r < 8; r++) {
            kills.add(kill(r, 8));
        }

        RunReport report = run(paper(10, 5).withFaults(kills, List.of(), Set.of()));

        assertFailureFreeDigest(report);
        RunReport.Recovery rec = report.recoveries().get(0);
        assertThat(rec.restoredFrom()).isEqualTo("start");
        assertThat(rec.checkpointIteration()).isZero();
        assertThat(rec.deadRanks()).containsExactly(1, 2, 3, 4, 5, 6, 7);
        assertThat(rec.recomputedPartitionIterations()).isEqualTo(8L * rec.lostIterations());
    }

    /**
     * The same seven deaths before the first checkpoint after the start: every copy of checkpoint 0 of partitions 1..7
     * died with them, and rank 0 rebuilds them as the run built them (the kernel's initial state) and recomputes
     * the rest alone. Campaign seed 137 lost two trials to "no copy of checkpoint 0", after three deaths.
     */
    @Test
    void when_everyCopyOfWhereTheRunStartedIsLost_then_itIsRebuiltAndTheDigestIsExact() {
        List<Kill> kills = new ArrayList<>();
        for (int r = 1; r < 8; r++) {
            kills.add(kill(r, 3));
        }

        RunReport report = run(paper(10, 10).withFaults(kills, List.of(), Set.of()));

        assertFailureFreeDigest(report);
        RunReport.Recovery rec = report.recoveries().get(0);
        assertThat(rec.checkpointIteration()).isZero();
        assertThat(rec.lostPartitions()).containsExactly(1, 2, 3, 4, 5, 6, 7);
        assertThat(rec.adoptions()).hasSize(7).allSatisfy(a -> assertThat(a).endsWith(":0"));
    }

    private static RunConfig withPlan(RunConfig config, FaultPlan plan) {
        return config.withFaults(plan.kills(), List.of(), plan.failDuringRecovery());
    }
}
