package org.dfr.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dfr.analysis.ConeAnalyzer;
import org.dfr.analysis.DependencyDeclarations;
import org.dfr.runtime.Detector;
import org.dfr.runtime.RunFailedException;
import org.junit.jupiter.api.Test;

class ProtocolRecordsTest {

    private static RecoveryDirective directive() {
        // rank 1 of 4 died at the start of iteration 4 after checkpoint 0; spare 4 adopts partition 1
        RecoveryInput input = new RecoveryInput(1, new int[] {0, 1, 2, 3}, Set.of(0, 2, 3, 4),
                List.of(status(0), status(2), status(3)), Set.of(1));
        return new GlobalRollback().decide(input);
    }

    private static RankStatus status(int rank) {
        // ownership {0, 1, 2, 3}: rank r holds partition r
        return new RankStatus(rank, 0, 3, 3, 0, List.of(), List.of(rank), -1, 1000L + rank, null);
    }

    @Test
    void when_aDirectiveWasCutShortBeforeTheAdopterLoadedItsPartition_then_thePartitionIsLostAgain() {
        // epoch 1 gave partition 0 (rank 0 died) to rank 1; rank 2 died before rank 1 loaded it:
        //
        //   partition:   0        1        2        3
        //   in force:    rank 1   rank 1   rank 2   rank 3
        //   held:        -        rank 1   (dead)   rank 3
        RankStatus rank1 = new RankStatus(1, 1, 3, 3, 0, List.of(), List.of(1), -1, 1001L, null);
        RankStatus rank3 = new RankStatus(3, 1, 3, 3, 0, List.of(), List.of(3), -1, 1003L, null);
        RecoveryInput input = new RecoveryInput(2, new int[] {1, 1, 2, 3}, Set.of(1, 3), List.of(rank1, rank3),
                Set.of(2));

        RecoveryDirective d = new GlobalRollback().decide(input);

        assertThat(d.lostPartitions()).containsExactly(0, 2);
        // partition 0 stays with rank 1, which lives and recomputes it; partition 2 is adopted
        assertThat(d.adoptions()).containsExactly(new Adoption(2, 3));
        assertThat(d.ownershipArray()).containsExactly(1, 1, 3, 3);
    }

    @Test
    void when_anOwnerNeitherHoldsNorLoadedAPartition_then_itIsUnloadedAndOneItLoadedIsNot() {
        // epoch 2 gave partitions 0 and 2 to rank 1; rank 1 loaded 2 (invalid: it holds a copy of its checkpoint)
        // and another death cut the round short before it loaded 0:
        //
        //   partition:   0          1        2          3
        //   in force:    rank 1     rank 1   rank 1     rank 3
        //   rank 1:      unloaded   held     invalid    -
        //   rank 3:                                     held
        RankStatus rank1 = new RankStatus(1, 2, 3, 3, 0, List.of(2), List.of(1), 3, 1001L, null);
        RankStatus rank3 = new RankStatus(3, 2, 3, 3, 0, List.of(), List.of(3), 3, 1003L, null);
        RecoveryInput input = new RecoveryInput(3, new int[] {1, 1, 1, 3}, Set.of(1, 3), List.of(rank1, rank3),
                Set.of());

        assertThat(input.unloadedPartitions()).containsExactly(0);
        RecoveryDirective d = new GlobalRollback().decide(input);
        assertThat(d.lostPartitions()).containsExactly(0, 2);
        assertThat(d.adoptions()).isEmpty();
    }

    @Test
    void when_anEquallyLoadedSurvivorHoldsACopyOfTheLostPartition_then_itAdoptsIt() {
        // rank 1 of 4 died; ranks 0, 2, 3 own one partition each; rank 3 holds a copy of partition 1's checkpoint
        //
        //   partition:   0        1        2        3
        //   owner:       rank 0   (dead)   rank 2   rank 3
        //   copies of 1:                            rank 3
        RecoveryInput input = new RecoveryInput(1, new int[] {0, 1, 2, 3}, Set.of(0, 2, 3),
                List.of(status(0), status(2), status(3)), Set.of(1));

        assertThat(new DataFlowRollback(new ConeAnalyzer(DependencyDeclarations.fromAdjacency(
                new int[][] {{0, 1}, {0, 1, 2}, {1, 2, 3}, {2, 3}}, true)))
                .decide(input.withCopyHolders(Map.of(1, List.of(3)))).adoptions()).containsExactly(new Adoption(1, 3));
        assertThat(new GlobalRollback().decide(input.withCopyHolders(Map.of(1, List.of(3)))).adoptions())
                .containsExactly(new Adoption(1, 3));
        assertThat(new GlobalRollback().decide(input).adoptions()).as("no holder known: the lowest rank")
                .containsExactly(new Adoption(1, 0));
    }

    /** A 1x4 line (each partition depends on itself and its neighbours), two ranks per host. */
    private static DataFlowRollback lineOfFour() {
        return new DataFlowRollback(new ConeAnalyzer(DependencyDeclarations.fromAdjacency(
                new int[][] {{0, 1}, {0, 1, 2}, {1, 2, 3}, {2, 3}}, true)));
    }

    private static final Map<Integer, Integer> TWO_RANKS_PER_HOST = Map.of(0, 0, 1, 0, 2, 1, 3, 1, 4, 0, 5, 1);

    private static RecoveryInput rankZeroLostAfterTwoIterations() {
        // rank 0 died after every rank computed iteration 2 of checkpoint 0 (m = 2); the copy of partition 0's
        // checkpoint is on host 1 (the backups go to another host), on rank 2:
        //
        //   host:        0                 1
        //   partition:   0        1        2        3
        //   owner:       (dead)   rank 1   rank 2   rank 3
        //   copies of 0:                   rank 2
        //   cone, iteration 1:  0  1                       (iteration 2: 0)
        List<RankStatus> statuses = new ArrayList<>();
        for (int r = 1; r < 4; r++) {
            statuses.add(new RankStatus(r, 0, 2, 2, 0, List.of(), List.of(r), -1, 1000L + r, null));
        }
        return new RecoveryInput(1, new int[] {0, 1, 2, 3}, Set.of(1, 2, 3), statuses, Set.of(0),
                Map.of(0, List.of(2)));
    }

    @Test
    void when_anEquallyLoadedRankIsOnAHostThatRecomputes_then_itAdoptsBeforeAHolderOnAHostThatWouldIdle() {
        RecoveryDirective d = lineOfFour().decide(rankZeroLostAfterTwoIterations().withRankHosts(TWO_RANKS_PER_HOST));

        // rank 1 (host 0) computes partition 1 in the cone anyway: it adopts, and host 1 idles for the recovery
        assertThat(d.adoptions()).containsExactly(new Adoption(0, 1));
        assertThat(d.participatingRanks()).containsExactly(1);
        assertThat(d.idleRanks()).containsExactly(2, 3);
        // without hosts the holder adopts, and both hosts compute
        RecoveryDirective blind = lineOfFour().decide(rankZeroLostAfterTwoIterations());
        assertThat(blind.adoptions()).containsExactly(new Adoption(0, 2));
        assertThat(blind.participatingRanks()).containsExactly(1, 2);
    }

    @Test
    void when_everyPartitionRecomputes_then_theHolderAdoptsAsWithoutHosts() {
        RecoveryDirective d = new GlobalRollback().decide(rankZeroLostAfterTwoIterations().withRankHosts(TWO_RANKS_PER_HOST));

        assertThat(d.adoptions()).containsExactly(new Adoption(0, 2));
    }

    @Test
    void when_sparesWait_then_theHostsDoNotChooseAmongThem() {
        // spares 4 (host 0) and 5 (host 1, holding the copy of partition 0): a respawned rank is such a spare, and it
        // must take its predecessor's partition wherever the cone is, so the holder adopts as without hosts
        RecoveryInput input = rankZeroLostAfterTwoIterations();
        RecoveryInput withSpares = new RecoveryInput(1, input.ownership(), Set.of(1, 2, 3, 4, 5), input.statuses(),
                input.deadRanks(), Map.of(0, List.of(5)), TWO_RANKS_PER_HOST);

        assertThat(lineOfFour().decide(withSpares).adoptions()).containsExactly(new Adoption(0, 5));
    }

    @Test
    void when_theRankOnTheBusyHostOwnsMore_then_theLeastLoadedAdoptsOnAnIdleHost() {
        // rank 1 (host 0) owns partitions 1 and 3; rank 2 (host 1) owns 2 only: load goes first, a lasting imbalance
        // would slow every later iteration, an idle host saves only during the recovery
        List<RankStatus> statuses = List.of(new RankStatus(1, 0, 2, 2, 0, List.of(), List.of(1, 3), -1, 1001L, null),
                new RankStatus(2, 0, 2, 2, 0, List.of(), List.of(2), -1, 1002L, null));
        RecoveryInput input = new RecoveryInput(1, new int[] {0, 1, 2, 1}, Set.of(1, 2), statuses, Set.of(0),
                Map.of(), TWO_RANKS_PER_HOST);

        assertThat(lineOfFour().decide(input).adoptions()).containsExactly(new Adoption(0, 2));
    }

    @Test
    void when_theHolderOwnsMoreThanAnother_then_theLeastLoadedAdoptsAnyway() {
        // rank 3 owns partitions 2 and 3 and holds the copy of 1; rank 0 owns only partition 0
        RankStatus rank0 = new RankStatus(0, 0, 3, 3, 0, List.of(), List.of(0), -1, 1000L, null);
        RankStatus rank3 = new RankStatus(3, 0, 3, 3, 0, List.of(), List.of(2, 3), -1, 1003L, null);
        RecoveryInput input = new RecoveryInput(1, new int[] {0, 1, 3, 3}, Set.of(0, 3), List.of(rank0, rank3),
                Set.of(1), Map.of(1, List.of(3)));

        assertThat(new GlobalRollback().decide(input).adoptions()).containsExactly(new Adoption(1, 0));
    }

    /*
     * Four ranks, ranks 0 and 2 die; rank 6 was respawned in place of 2 and joined, rank 4 (in place of 0) did not
     * join in time:
     *
     *   partitions  0  1  2  3        members  1  3  6 (respawn of 2)
     *   owners      0  1  2  3        dead     0  2
     *
     * Rank 6 adopts partition 2, on rank 2's host, and a survivor adopts 0. Rank 6 took partition 0 (the lowest lost
     * partition went to the lowest spare) and a survivor 2: campaign seed 149, trial 5.
     */
    @Test
    void when_aRespawnedRankJoinedAndAnotherDidNot_then_itAdoptsItsPredecessorsPartitionAndASurvivorTheOther() {
        RecoveryInput input = new RecoveryInput(1, new int[] {0, 1, 2, 3}, Set.of(1, 3, 6),
                List.of(status(1), status(3)), Set.of(0, 2)).withRespawns(Map.of(6, 2));

        assertThat(new GlobalRollback().decide(input).adoptions())
                .containsExactlyInAnyOrder(new Adoption(0, 1), new Adoption(2, 6));
    }

    @Test
    void when_severalSparesAndOneHoldsACopy_then_thatSpareAdopts() {
        RecoveryInput input = new RecoveryInput(1, new int[] {0, 1, 2, 3}, Set.of(0, 2, 3, 4, 5),
                List.of(status(0), status(2), status(3)), Set.of(1), Map.of(1, List.of(5, 2)));

        assertThat(new GlobalRollback().decide(input).adoptions()).containsExactly(new Adoption(1, 5));
    }

    @Test
    void when_aRankHoldsNoState_then_itsIterationDoesNotSetTheRestoredOne() {
        // spare 4 adopted partition 1 in an epoch cut short before it loaded it: it holds nothing and
        // reports iteration 0; the others computed 11 after checkpoint 8
        RankStatus spare = new RankStatus(4, 1, 0, 0, 8, List.of(1), List.of(), -1, 1004L, null);
        List<RankStatus> statuses = new ArrayList<>(List.of(spare));
        for (int r : new int[] {0, 2, 3}) {
            statuses.add(new RankStatus(r, 1, 11, 11, 8, List.of(), List.of(r), -1, 1000L + r, null));
        }
        RecoveryInput input = new RecoveryInput(2, new int[] {0, 4, 2, 3}, Set.of(0, 2, 3, 4), statuses, Set.of());

        RecoveryDirective d = new GlobalRollback().decide(input);

        assertThat(d.checkpointIteration()).isEqualTo(8);
        assertThat(d.failureIteration()).isEqualTo(12);
        assertThat(d.lostPartitions()).containsExactly(1);
    }

    @Test
    void when_aDirectiveIsWritten_then_itReadsBackEqualWithTypedStrategyAndAdoptions() {
        RecoveryDirective d = directive();

        RecoveryDirective back = RecoveryProtocol.read(RecoveryProtocol.write(d), RecoveryDirective.class);

        assertThat(back).isEqualTo(d);
        assertThat(back.strategy()).isEqualTo(Strategy.GLOBAL);
        assertThat(back.isGlobal()).isTrue();
        assertThat(back.adoptions()).containsExactly(new Adoption(1, 4));
        assertThat(back.ownershipArray()).containsExactly(0, 4, 2, 3);
        assertThat(back.abortFailure()).isNull();
    }

    /**
     * Rank 1 of a line of four died after every rank computed iteration 12; checkpoint 10 is committed, and every copy
     * of partition 1's died with it. Falling back to the file level of iteration 5, the cone grows from m = 2 to m = 7
     * (it reaches both ends of the line), and the directive says where it reads its checkpoint:
     * <pre>
     *   p0 -- p1 -- p2 -- p3       p1 lost; c = 10 (no copy left), file level at 5
     * </pre>
     */
    @Test
    void when_theCommittedCheckpointHasNoCopyLeft_then_theDecisionFromAnOlderCheckpointIsLargerAndSaysWhereItReads() {
        List<RankStatus> statuses = new ArrayList<>();
        for (int r : new int[] {0, 2, 3}) {
            statuses.add(new RankStatus(r, 0, 12, 12, 10, List.of(), List.of(r), -1, 1000L + r, null));
        }
        RecoveryInput input = new RecoveryInput(1, new int[] {0, 1, 2, 3}, Set.of(0, 2, 3), statuses, Set.of(1),
                Map.of(1, List.of(3)));

        RecoveryDirective committed = lineOfFour().decide(input);
        RecoveryDirective older = lineOfFour().decide(input.restoringCheckpoint(5)).restoringFrom(RestoreSource.FILE_LEVEL);

        assertThat(committed.checkpointIteration()).isEqualTo(10);
        assertThat(committed.restoredFrom()).isEqualTo(RestoreSource.COPIES);
        assertThat(committed.levels()).containsExactly(List.of(0, 1, 2), List.of(1));
        assertThat(older.checkpointIteration()).isEqualTo(5);
        assertThat(older.failureIteration()).isEqualTo(13);
        assertThat(older.lostIterations()).isEqualTo(7);
        // m = 7 on a line of four: the cone covers every partition, so the data-flow rollback becomes global
        assertThat(older.isGlobal()).isTrue();
        assertThat(older.recomputedPartitionIterations()).isEqualTo(4 * 7);
        assertThat(older.adoptions()).as("no copy holder is known any more: the lowest rank")
                .containsExactly(new Adoption(1, 0));
        RecoveryDirective back = RecoveryProtocol.read(RecoveryProtocol.write(older), RecoveryDirective.class);
        assertThat(back).isEqualTo(older);
        assertThat(RecoveryRecord.fromJson(RecoveryRecord.decided(older, 1L, null, 2L).toJson()).restoredFrom())
                .isEqualTo(RestoreSource.FILE_LEVEL);
    }

    @Test
    void when_aRecordWrittenBeforeTheRestoreSourceIsRead_then_itRestoredFromTheCopies() throws Exception {
        ObjectNode tree = (ObjectNode) ProtocolJson.JSON.readTree(RecoveryRecord.decided(directive(), 1L, null, 2L).toJson());
        tree.remove("restoredFrom");

        assertThat(RecoveryRecord.fromJson(tree.toString()).restoredFrom()).isEqualTo(RestoreSource.COPIES);
    }

    @Test
    void when_aDirectiveAborts_then_itsKindTravelsWithItAndBecomesTheFailure() {
        RecoveryDirective d = directive().aborted(RunFailedException.Kind.CHECKPOINT_LOST, "no copy of checkpoint 0");

        RecoveryDirective back = RecoveryProtocol.read(RecoveryProtocol.write(d), RecoveryDirective.class);

        assertThat(back.abortKind()).isEqualTo(RunFailedException.Kind.CHECKPOINT_LOST);
        assertThat(back.abortFailure().kind()).isEqualTo(RunFailedException.Kind.CHECKPOINT_LOST);
        assertThat(back.abortFailure()).hasMessage("no copy of checkpoint 0");
        assertThat(back.levels()).isEmpty();
    }

    @Test
    void when_aRecoveryRecordIsWritten_then_itKeepsTheFieldNamesOfTheReportAndReadsBackEqual() throws Exception {
        RecoveryRecord decided = RecoveryRecord.decided(directive(), 100L, Detector.EXIT_WATCH, 150L);
        RecoveryRecord record = decided.resumed(400L, 250L);

        String json = record.toJson();
        JsonNode tree = ProtocolJson.JSON.readTree(json);

        for (String field : List.of("epoch", "strategy", "effectiveStrategy", "deadRanks", "lostPartitions",
                "checkpointIteration", "failureIteration", "lostIterations", "levels", "recomputedPartitionIterations",
                "participatingRanks", "idleRanks", "adoptions", "coversEverything", "detectedAtMillis", "detectedBy",
                "decidedAtMillis", "resumedAtMillis", "recomputeMillis", "abortReason", "abortKind")) {
            assertThat(tree.has(field)).as(field).isTrue();
        }
        assertThat(tree.get("adoptions").get(0).get("partition").asInt()).isEqualTo(1);
        assertThat(tree.get("adoptions").get(0).get("rank").asInt()).isEqualTo(4);
        assertThat(tree.get("lostIterations").asInt()).isEqualTo(3);
        assertThat(RecoveryRecord.fromJson(json)).isEqualTo(record);
        assertThat(RecoveryRecord.fromJson(json).detectedBy()).isEqualTo(Detector.EXIT_WATCH);
        assertThat(decided.resumedAtMillis()).isNull();
        assertThat(record.recomputeMillis()).isEqualTo(250L);
    }

    @Test
    void when_theCollectorAddsTheReplacementTime_then_theRecordReadsIt() throws Exception {
        ObjectNode tree = (ObjectNode) ProtocolJson.JSON.readTree(
                RecoveryRecord.decided(directive(), null, null, 150L).toJson());
        tree.put("replacementMillis", 42L);

        RecoveryRecord back = RecoveryRecord.fromJson(ProtocolJson.JSON.writeValueAsString(tree));

        assertThat(back.replacementMillis()).isEqualTo(42L);
        assertThat(back.detectedAtMillis()).isNull();
    }

    @Test
    void when_aFailureRecordIsWritten_then_itReadsBackEqual() throws Exception {
        FailureRecord f = new FailureRecord(3, 7, FaultPlan.Point.ITERATION_START.name(), 12345L);

        JsonNode tree = ProtocolJson.JSON.readTree(f.toJson());

        assertThat(tree.get("rank").asInt()).isEqualTo(3);
        assertThat(tree.get("iteration").asInt()).isEqualTo(7);
        assertThat(tree.get("point").asText()).isEqualTo("ITERATION_START");
        assertThat(tree.get("killedAtMillis").asLong()).isEqualTo(12345L);
        assertThat(FailureRecord.fromJson(f.toJson())).isEqualTo(f);
    }

    @Test
    void when_anAdoptionIsPrinted_then_itIsPartitionColonRank() {
        assertThat(new Adoption(1, 8).text()).isEqualTo("1:8");
    }

    @Test
    void when_aFailureIsAnnouncedOnTheBoard_then_itsKindAndReasonComeBack() {
        String value = RunFailedException.boardValue(RunFailedException.Kind.CHECKPOINT_LOST, "gone");

        RunFailedException back = RunFailedException.fromBoardValue(value);

        assertThat(back.kind()).isEqualTo(RunFailedException.Kind.CHECKPOINT_LOST);
        assertThat(back).hasMessage("gone");
        assertThat(RunFailedException.fromBoardValue("plain text").kind()).isEqualTo(RunFailedException.Kind.OTHER);
        assertThat(RunFailedException.fromBoardValue("plain text")).hasMessage("plain text");
        assertThat(RunFailedException.fromBoardValue(RunFailedException.boardValue(new IllegalStateException("x")))
                .kind()).isEqualTo(RunFailedException.Kind.OTHER);
    }
}
