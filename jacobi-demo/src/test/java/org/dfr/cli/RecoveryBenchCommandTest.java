package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@code dfr bench-recovery} embedded on a tiny grid; speed is never asserted. */
class RecoveryBenchCommandTest {

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    /**
     * 1x4 grid (partitions 0..3 in a column), rank 3 killed at 3 with checkpoints every 10: c = 0,
     * m = 2. Level 1 = partitions within distance 1 of 3 = {2, 3}, level 2 = {3}: dfr recomputes 3
     * partition-iterations, global 4 * 2 = 8.
     */
    @Test
    void when_tinyEmbeddedRun_then_bothStrategiesMeasured_andDfrWorkIsThePlan(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("rec.json");
        CliRun r = run("bench-recovery", "--mode", "embedded", "--ranks-grid", "1x4", "--cells", "16x32",
                "--iterations", "5", "--checkpoint-every", "10", "--fail", "3@3", "--repetitions", "1",
                "--json", json.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("(?m)^global +\\d+ +\\d+ +\\d+ +\\d+ +\\d+ +8 ")
                .containsPattern("(?m)^dfr +\\d+ +\\d+ +\\d+ +\\d+ +\\d+ +3 ")
                .contains("agreement ms")
                .contains("recovery wall time dfr/global:")
                .contains("dfr work equals plan: yes (plan: 3 partition-iterations)")
                .contains("same field digest in every run: yes")
                .contains("the sequential reference's digest: yes");
        JsonNode tree = new ObjectMapper().readTree(json.toFile());
        assertThat(tree.get("referenceDigest").asText()).isEqualTo(tree.get("dfr").get("runs").get(0).get("fieldSha256")
                .asText());
        assertThat(tree.get("matchesReference").booleanValue()).isTrue();
        assertThat(tree.get("planWork").longValue()).isEqualTo(3);
        assertThat(tree.get("global").get("runs")).hasSize(1);
        assertThat(tree.get("dfr").get("runs").get(0).get("checkpointIteration").intValue()).isZero();
    }

    /** The same tiny kill with a spare and with adoption: both checked against the reference and the plan, in JSON. */
    @Test
    void when_replacementsAreCompared_then_theirRunsAreCheckedAndWrittenAsJson(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("repl.json");
        CliRun r = run("bench-recovery", "--mode", "embedded", "--ranks-grid", "1x4", "--cells", "16x32",
                "--iterations", "5", "--checkpoint-every", "10", "--fail", "3@3", "--repetitions", "1",
                "--replacement", "spare,adopt", "--json", json.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("bench-recovery: jacobi2d5 kernel, 16x32 cells, 1x4 ranks, kill 3@3")
                .contains("digests: equal for every replacement")
                .contains("the sequential reference's digest: yes")
                .contains("dfr work equals plan: yes (plan: 3 partition-iterations)")
                .contains("json: " + json);
        JsonNode tree = new ObjectMapper().readTree(json.toFile());
        assertThat(tree.get("matchesReference").booleanValue()).isTrue();
        assertThat(tree.get("workEqualsPlan").booleanValue()).isTrue();
        assertThat(tree.get("kernel").asText()).isEqualTo("jacobi2d5");
        assertThat(tree.get("replacements")).hasSize(2);
        assertThat(tree.get("replacements").get(0).get("strategy").asText()).isEqualTo("spare");
        assertThat(tree.get("replacements").get(1).get("runs").get(0).get("fieldSha256").asText())
                .isEqualTo(tree.get("referenceDigest").asText());
        assertThat(tree.get("adopters").get(0).asText()).isEqualTo("spare 3:4");
    }

    /** 2x2, rank 1 at 4, c = 0, m = 3: level 1 is the whole grid, so dfr is global rollback (12). */
    @Test
    void when_coneCoversEverything_then_planIsGlobalWork(@TempDir Path dir) {
        CliRun r = run("bench-recovery", "--mode", "embedded", "--ranks-grid", "2x2", "--cells", "32x32",
                "--iterations", "6", "--checkpoint-every", "10", "--fail", "1@4", "--repetitions", "1");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("dfr work equals plan: yes (plan: 12 partition-iterations; the cone covers"
                + " every partition, so dfr is global rollback)")
                .containsPattern("recovery wall time dfr/global: [0-9.]+ \\(no target: the cone covers every partition")
                .doesNotContain("target <= 1");
    }

    /**
     * A 1-D kernel: 8 partitions in a line, rank 3 killed at 4 with c = 0, m = 3. Levels: {1..5}, {2..4}, {3}:
     * dfr recomputes 5 + 3 + 1 = 9 partition-iterations, global 8 * 3 = 24; the header names the one axis. No
     * --ranks-grid: the default follows the cells' one axis (a fixed 2x4 refused every 1-D kernel).
     */
    @Test
    void when_kernelHasOneAxis_then_theTableAndJsonAreWritten(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("rec1d.json");
        CliRun r = run("bench-recovery", "--mode", "embedded", "--kernel", "heat1d3",
                "--cells", "400", "--iterations", "6", "--checkpoint-every", "10", "--fail", "3@4", "--repetitions", "1",
                "--json", json.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("heat1d3 kernel, 8 ranks, 400 cells, 6 iterations")
                .containsPattern("(?m)^global +\\d+ +\\d+ +\\d+ +\\d+ +\\d+ +24 ")
                .containsPattern("(?m)^dfr +\\d+ +\\d+ +\\d+ +\\d+ +\\d+ +9 ")
                .contains("dfr work equals plan: yes (plan: 9 partition-iterations)");
        JsonNode tree = new ObjectMapper().readTree(json.toFile());
        assertThat(tree.get("planWork").longValue()).isEqualTo(9);
        assertThat(tree.get("kernel").asText()).isEqualTo("heat1d3");
    }

    /**
     * 1x4, rank 3 killed at 4, K = 3 with the default commit lag 1: checkpoint 3 is committed only with the reduction
     * of iteration 4, so the run recovers from 0 (m = 3: levels {1, 2, 3}, {2, 3}, {3} = 6), not from 3 (m = 0). The
     * plan said 0 and "dfr work equals plan: no" for a correct run; with --commit-lag-iterations 0 it recovers from 3.
     */
    @Test
    void when_theKillFallsInTheCommitLag_then_thePlanRecoversFromTheCheckpointBefore() {
        CliRun lagged = run("bench-recovery", "--mode", "embedded", "--ranks-grid", "1x4", "--cells", "16x32",
                "--iterations", "5", "--checkpoint-every", "3", "--fail", "3@4", "--repetitions", "1");
        CliRun unlagged = run("bench-recovery", "--mode", "embedded", "--ranks-grid", "1x4", "--cells", "16x32",
                "--iterations", "5", "--checkpoint-every", "3", "--commit-lag-iterations", "0", "--fail", "3@4",
                "--repetitions", "1");

        assertThat(lagged.exitCode()).as(lagged.err()).isZero();
        assertThat(lagged.out()).contains("checkpoint every 3, commit lag 1")
                .contains("dfr work equals plan: yes (plan: 6 partition-iterations)");
        assertThat(unlagged.exitCode()).as(unlagged.err()).isZero();
        assertThat(unlagged.out()).contains("checkpoint every 3, commit lag 0")
                .contains("dfr work equals plan: yes (plan: 0 partition-iterations)");
    }

    /*
     * 1x8, a line 0 - 1 - ... - 7; ranks 3 and 4 die at the start of 3 (c = 0, m = 2): level 2 = {3, 4}, level 1 =
     * {2, 3, 4, 5}: 6 partition-iterations for dfr, 16 for global.
     */
    @Test
    void when_twoRanksDieAtOneIteration_then_oneRecoveryOfBothIsMeasuredAgainstThePlanOfBoth() {
        CliRun r = run("bench-recovery", "--mode", "embedded", "--ranks-grid", "1x8", "--cells", "16x64",
                "--iterations", "4", "--checkpoint-every", "10", "--fail", "3@3", "--fail", "4@3", "--repetitions", "1");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("kill 3@3,4@3")
                .containsPattern("(?m)^global +\\d+ +\\d+ +\\d+ +\\d+ +\\d+ +16 ")
                .contains("dfr work equals plan: yes (plan: 6 partition-iterations)");
    }

    /**
     * Two recoveries, each measured and planned on its own:
     * <pre>
     *   p0 - p1 - p2 - p3 - p4 - p5 - p6 - p7      K = 4, commit lag 1
     *             X@3            X@7
     *   3@3: from checkpoint 0, m = 2: {3}, then {2, 3, 4}: dfr 4, global 2 x 8 = 16
     *   6@7: from checkpoint 4 (committed at 5), m = 2: {6}, then {5, 6, 7}: dfr 4, global 16
     * </pre>
     */
    @Test
    void when_killsAreAtTwoIterations_then_eachRecoveryIsMeasuredAgainstItsOwnPlan(@TempDir Path tmp) throws Exception {
        Path json = tmp.resolve("two.json");
        CliRun r = run("bench-recovery", "--mode", "embedded", "--ranks-grid", "1x8", "--cells", "16x64",
                "--iterations", "10", "--checkpoint-every", "4", "--fail", "3@3", "--fail", "6@7", "--repetitions", "1",
                "--json", json.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("recovery 1 of 2: kill 3@3, from checkpoint 0").contains("dfr work equals plan: yes (plan: 4 partition-iterations)")
                .contains("recovery 2 of 2: kill 6@7, from checkpoint 4")
                .contains("dfr work equals plan: yes (plan: 4 partition-iterations, the cone of what the first dfr run lost)")
                .contains("the sequential reference's digest: yes");
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        assertThat(report.path("failure").asText()).isEqualTo("3@3,6@7");
        assertThat(report.path("checkpoint").asInt()).isZero();
        assertThat(report.path("global").path("recomputedWork").get(0).asLong()).isEqualTo(16);
        assertThat(report.path("dfr").path("recomputedWork").get(0).asLong()).isEqualTo(4);
        JsonNode second = report.path("laterRecoveries").get(0);
        assertThat(second.path("failure").asText()).isEqualTo("6@7");
        assertThat(second.path("checkpoint").asInt()).isEqualTo(4);
        assertThat(second.path("planWork").asLong()).isEqualTo(4);
        assertThat(second.path("dfrWorkEqualsPlan").asBoolean()).isTrue();
        assertThat(second.path("global").path("recomputedWork").get(0).asLong()).isEqualTo(16);
        assertThat(second.path("dfr").path("runs").get(0).path("failureIteration").asInt()).isEqualTo(7);
        assertThat(report.path("laterRecoveries")).hasSize(1);
    }

    @Test
    void when_aRankIsKilledTwice_then_exit2() {
        CliRun r = run("bench-recovery", "--mode", "embedded", "--fail", "1@4", "--fail", "1@4");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("rank 1 is killed twice");
    }

    @Test
    void when_zeroRepetitions_then_exit2() {
        CliRun r = run("bench-recovery", "--mode", "embedded", "--repetitions", "0");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--repetitions must be >= 1, got 0");
    }

    @Test
    void when_unknownMode_then_exit2NamingTheAllowedModes() {
        CliRun r = run("bench-recovery", "--mode", "cloud");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--mode cloud is not allowed: allowed are embedded, processes");
    }
}
