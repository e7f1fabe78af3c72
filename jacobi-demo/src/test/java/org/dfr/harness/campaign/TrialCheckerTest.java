package org.dfr.harness.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Set;
import org.dfr.analysis.ConeAnalyzer;
import org.dfr.harness.Replacement;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.harness.RunReports;
import org.dfr.harness.Runner;
import org.dfr.recovery.FaultPlan;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The checker on a real report of the paper's case (2x4, rank 1 killed at the start of 4, checkpoint 0)
 * and on copies of it with one thing broken each.
 */
class TrialCheckerTest {

    private static RunConfig config;
    private static RunReport report;
    private static ConeAnalyzer analyzer;

    @BeforeAll
    static void runThePapersCase() {
        config = RunConfig.of(2, 4, 24, 20, 10, 10)
                .withFaults(List.of(new FaultPlan.Kill(1, 4, FaultPlan.Point.ITERATION_START)), List.of(), Set.of());
        report = new Runner().run(config);
        analyzer = new ConeAnalyzer(config.kernelSetup().dependencies());
    }

    @Test
    void when_reportIsTheRuntimes_then_nothingIsWrong() {
        assertThat(TrialChecker.violations(config, report, analyzer)).isEmpty();
        assertThat(report.recoveries()).singleElement()
                .satisfies(r -> assertThat(r.recomputedPartitionIterations()).isEqualTo(9));
    }

    @Test
    void when_aRecoveryFellBackAfterASingleDeath_then_theCheckerSaysSo() throws Exception {
        // one death never takes every copy of a checkpoint: a fallback to the file level or the start is a bug
        RunReport fellBack = edit(json -> ((ObjectNode) json.get("recoveries").get(0)).put("restoredFrom", "start"));

        assertThat(report.recoveries().get(0).restoredFrom()).isEqualTo("copies");
        assertThat(TrialChecker.violations(config, fellBack, analyzer)).singleElement().asString()
                .contains("restored from start after the single death of ranks [1]");
    }

    @Test
    void when_levelsAreNotTheCone_then_theCheckerSaysSo() throws Exception {
        RunReport broken = edit(json -> {
            ArrayNode levels = (ArrayNode) json.get("recoveries").get(0).get("levels");
            ((ArrayNode) levels.get(0)).remove(0);
        });

        assertThat(TrialChecker.violations(config, broken, analyzer))
                .anySatisfy(v -> assertThat(v).contains("levels").contains("are not the cone"));
    }

    @Test
    void when_workOrWindowIsWrong_then_theCheckerSaysSo() throws Exception {
        RunReport wrongWork = edit(json -> ((ObjectNode) json.get("recoveries").get(0)).put("recomputedPartitionIterations", 24));
        RunReport wrongWindow = edit(json -> ((ObjectNode) json.get("recoveries").get(0)).put("lostIterations", 2));
        RunReport failureBeforeStart = edit(json -> ((ObjectNode) json.get("failures").get(0)).put("iteration", -1));

        assertThat(TrialChecker.violations(config, wrongWork, analyzer))
                .anySatisfy(v -> assertThat(v).contains("recomputed 24 partition-iterations, the cone needs 9"));
        assertThat(TrialChecker.violations(config, wrongWindow, analyzer))
                .anySatisfy(v -> assertThat(v).contains("m = 2 but t-1-c = 3"));
        assertThat(TrialChecker.violations(config, failureBeforeStart, analyzer))
                .anySatisfy(v -> assertThat(v).contains("at iteration -1 (ITERATION_START), outside 1..10"));
    }

    @Test
    void when_aRankThatWasOnlyPausedIsReportedDead_then_theCheckerSaysSo() {
        // the same report judged as the result of a run that only paused rank 1: its recovery is a false alarm
        RunConfig pausedOnly = config.withFaults(List.of(FaultPlan.Kill.pause(1, 4, 3_000)), List.of(), Set.of());

        assertThat(TrialChecker.violations(pausedOnly, report, analyzer))
                .anySatisfy(v -> assertThat(v).isEqualTo("1 recoveries although no rank was killed (ranks [1] were"
                        + " only paused)"))
                .anySatisfy(v -> assertThat(v).startsWith("failure of ranks [1] at iteration 4 but only ranks [] were"
                        + " killed"))
                .anySatisfy(v -> assertThat(v).startsWith("recovery 1 lost ranks [1] but only ranks [] were killed"));
    }

    @Test
    void when_aRankThatWasNotKilledIsReportedDead_then_theCheckerSaysSo() {
        RunConfig otherVictim = config.withFaults(List.of(new FaultPlan.Kill(2, 4, FaultPlan.Point.ITERATION_START)),
                List.of(), Set.of());

        assertThat(TrialChecker.violations(otherVictim, report, analyzer))
                .anySatisfy(v -> assertThat(v).startsWith("failure of ranks [1] at iteration 4 but only ranks [2]"));
    }

    @Test
    void when_aRankDiesAfterItsEndNotices_then_theRunEndsExactWithoutARecovery_andTheCheckerIsContent() {
        RunConfig atEnd = config.withFaults(List.of(new FaultPlan.Kill(3, 10, FaultPlan.Point.AFTER_END_NOTICES)),
                List.of(), Set.of());

        RunReport ended = new Runner().run(atEnd);

        assertThat(ended.fieldSha256()).as("the digest of the paper's case, recovered bit for bit")
                .isEqualTo(report.fieldSha256());
        assertThat(ended.recoveries()).isEmpty();
        assertThat(ended.failures()).singleElement().satisfies(f -> assertThat(f.ranks()).containsExactly(3));
        assertThat(TrialChecker.violations(atEnd, ended, analyzer)).isEmpty();
    }

    @Test
    void when_aRankThatDiedOnlyAtTheEndIsTheOnlyDeadOfARecovery_then_theCheckerSaysSo() throws Exception {
        // the paper's report judged as the result of a run whose rank 1 died only once the run had ended
        RunConfig atEnd = config.withFaults(List.of(new FaultPlan.Kill(1, 10, FaultPlan.Point.AFTER_END_NOTICES)),
                List.of(), Set.of());

        assertThat(TrialChecker.violations(atEnd, report, analyzer))
                .anySatisfy(v -> assertThat(v).isEqualTo("recovery 1 lost only ranks [1], and ranks [1] died after the"
                        + " run ended"));
        // with rank 2 dying before the end too, rank 1's death at the end may be among a recovery's dead
        RunConfig alsoBefore = config.withFaults(List.of(new FaultPlan.Kill(1, 10, FaultPlan.Point.AFTER_END_NOTICES),
                new FaultPlan.Kill(2, 10, FaultPlan.Point.DURING_REDUCTION)), List.of(), Set.of());
        RunReport bothDead = edit(json -> ((ArrayNode) json.get("recoveries").get(0).get("deadRanks")).add(2));
        assertThat(TrialChecker.violations(alsoBefore, bothDead, analyzer)).noneSatisfy(v -> assertThat(v)
                .contains("after the run ended"));
    }

    @Test
    void when_aRespawnTrialsPartitionIsAdoptedByASurvivorOrARespawnedRankDies_then_theCheckerSaysSo() throws Exception {
        // rank 1's partition adopted by the rank respawned in its place (1 + 8 members): what respawn must do
        RunReport respawned = edit(json -> ((ArrayNode) json.get("recoveries").get(0).get("adoptions")).removeAll().add("1:9"));
        RunReport deadRespawn = edit(json -> ((ArrayNode) json.get("failures").get(0).get("ranks")).removeAll().add(9));

        assertThat(TrialChecker.violations(config, Replacement.RESPAWN, respawned, analyzer)).isEmpty();
        assertThat(TrialChecker.violations(config, Replacement.ADOPT, respawned, analyzer))
                .anySatisfy(v -> assertThat(v).isEqualTo("recovery 1: adoption 1:9 by rank 9; with adopt the adopters"
                        + " are ranks 0..7"));
        // the embedded report's survivor adopted at once: not what a respawn trial may do
        assertThat(TrialChecker.violations(config, Replacement.RESPAWN, report, analyzer))
                .anySatisfy(v -> assertThat(v).contains("but with respawn rank 9 (started in place of rank 1) adopts"
                        + " partition 1"));
        // after the coordinator waited the whole respawn wait for rank 9 (seed 138, trial 11), a survivor adopts
        RunReport waitedOut = edit(json -> ((ObjectNode) json.get("recoveries").get(0)).put("agreementMillis", 31_000));
        assertThat(TrialChecker.violations(config, Replacement.RESPAWN, waitedOut, analyzer))
                .noneSatisfy(v -> assertThat(v).contains("with respawn rank 9"));
        assertThat(TrialChecker.violations(config, Replacement.RESPAWN, deadRespawn, analyzer))
                .anySatisfy(v -> assertThat(v).startsWith("failure of ranks [9] at iteration 4 but only ranks [1]"));
    }

    /** A victim whose planned death the report lacks, found dead by a recovery instead: its kill never fired. */
    @Test
    void when_aVictimDiedOutsideThePlan_then_theCheckerSaysSoAndMissesItsPlannedDeath() throws Exception {
        RunReport unplanned = edit(json -> ((ObjectNode) json.get("failures").get(0)).put("point", "UNPLANNED"));

        assertThat(TrialChecker.violations(config, unplanned, analyzer))
                .anySatisfy(v -> assertThat(v).isEqualTo("ranks [1] died outside the fault plan (found by recovery at"
                        + " iteration 4)"))
                .anySatisfy(v -> assertThat(v).startsWith("rank 1 was to die at iteration 4"));
    }

    private interface Edit {
        void apply(ObjectNode json);
    }

    private static RunReport edit(Edit edit) throws Exception {
        ObjectNode json = (ObjectNode) RunReports.JSON.valueToTree(report);
        edit.apply(json);
        return RunReports.JSON.treeToValue(json, RunReport.class);
    }
}
