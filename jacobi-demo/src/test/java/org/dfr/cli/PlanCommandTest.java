package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class PlanCommandTest {

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    private static List<Integer> ints(JsonNode array) {
        List<Integer> ids = new ArrayList<>();
        array.forEach(node -> ids.add(node.intValue()));
        return ids;
    }

    /**
     * The paper's case. 2x4 grid, ids py*2+px, lost 1, c = 0, t = 4 (m = 3):
     * <pre>
     *   py0:  0  1     distance from 1:  1 0
     *   py1:  2  3                       2 1
     *   py2:  4  5                       3 2
     *   py3:  6  7                       4 3
     * </pre>
     * level 1 (d <= 2) = {0,1,2,3,5}, level 2 (d <= 1) = {0,1,3}, level 3 = {1}.
     */
    @Test
    void when_papersCaseAsJson_then_oneObjectWithTheContractFields() throws Exception {
        CliRun r = run("plan", "--layout", "2d5", "--grid", "2x4", "--lost", "1",
                "--checkpoint-iteration", "0", "--failure-iteration", "4", "--json");

        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.isObject()).isTrue();
        assertThat(json.get("levels")).hasSize(3);
        assertThat(ints(json.get("levels").get(0))).containsExactly(0, 1, 2, 3, 5);
        assertThat(ints(json.get("levels").get(1))).containsExactly(0, 1, 3);
        assertThat(ints(json.get("levels").get(2))).containsExactly(1);
        assertThat(json.get("recomputedPartitionIterations").longValue()).isEqualTo(9);
        assertThat(json.get("globalRollbackPartitionIterations").longValue()).isEqualTo(24);
        assertThat(ints(json.get("participatingPartitions"))).containsExactly(0, 1, 2, 3, 5);
        assertThat(ints(json.get("idlePartitions"))).containsExactly(4, 6, 7);
        assertThat(json.get("coversEverything").booleanValue()).isFalse();
        // exactly one JSON value on stdout
        assertThat(r.out().trim().lines()).hasSize(1);
    }

    @Test
    void when_papersCaseAsText_then_levelsAndGridDrawn() {
        CliRun r = run("plan", "--layout", "2d5", "--grid", "2x4", "--lost", "1",
                "--checkpoint-iteration", "0", "--failure-iteration", "4");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("level 1 (iteration 1, distance <= 2): 5 partitions [0, 1, 2, 3, 5]")
                .contains("level 3 (iteration 3, distance <= 0): 1 partition [1]")
                .contains("recomputed work: 9 partition-iterations (global rollback: 24")
                .contains("idle partitions: 3 [4, 6, 7]")
                .contains("legend:");
        // rows of the drawing: partition 1 lost, 0 and 3 recompute 2 iterations, 2 and 5 one, the rest idle
        assertThat(r.out()).contains("py    0  2 X").contains("py    1  1 2").contains("py    2  . 1")
                .contains("py    3  . .");
    }

    /** A line of 8 partitions, 3 lost at m = 3: one row under the partition numbers, no py axis of one value. */
    @Test
    void when_theKernelHasOneAxis_then_theDrawingIsOneRowUnderThePartitionNumbers() {
        CliRun r = run("plan", "--kernel", "heat1d3", "--cells", "64", "--lost", "3",
                "--checkpoint-iteration", "0", "--failure-iteration", "4");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("\n         p 0 1 2 3 4 5 6 7\n           . 1 2 X 2 1 . .\n").doesNotContain("py");
    }

    @Test
    void when_manyIterationsAreLost_then_the50FirstLevelsArePrintedAndTheRestNamed() {
        // 3000 partitions in a row: the cone of partition 1 reaches 0..1000 at most, so it is a cone, not global
        CliRun r = run("plan", "--layout", "1d", "--grid", "3000", "--lost", "1",
                "--checkpoint-iteration", "0", "--failure-iteration", "1001");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().lines().filter(l -> l.startsWith("  level "))).hasSize(50);
        assertThat(r.out()).contains("  level 50 (iteration 50, distance <= 950): 952 partitions")
                .contains("  ... levels 51..1000 not shown (--json lists every level)")
                .contains("recomputed work: ");
    }

    @Test
    void when_theConeCoversEverything_then_thePlanIsGlobalRollbackAsARunDoesIt() throws Exception {
        // 2x4, partition 1 lost, m = 5: level 1 reaches distance 4, every partition; the cone's levels would sum to
        // 8 + 7 + 5 + 3 + 1 = 24, but a run does global rollback, 5 x 8 = 40
        CliRun text = run("plan", "--layout", "2d5", "--grid", "2x4", "--lost", "1",
                "--checkpoint-iteration", "0", "--failure-iteration", "6");
        CliRun json = run("plan", "--layout", "2d5", "--grid", "2x4", "--lost", "1",
                "--checkpoint-iteration", "0", "--failure-iteration", "6", "--json");

        assertThat(text.exitCode()).as(text.err()).isZero();
        assertThat(text.out()).contains("  level 5 (iteration 5, global rollback): 8 partitions [0, 1, 2, 3, 4, 5, 6, 7]")
                .contains("recomputed work: 40 partition-iterations (global rollback: 40, 0.0% less)")
                .contains("cone covers everything: yes");
        JsonNode plan = new ObjectMapper().readTree(json.out());
        assertThat(plan.get("recomputedPartitionIterations").longValue()).isEqualTo(40);
        assertThat(plan.get("levels")).hasSize(5).allSatisfy(level -> assertThat(level).hasSize(8));
    }

    @Test
    void when_1dGridWrittenEitherWay_then_samePlan() throws Exception {
        CliRun a = run("plan", "--layout", "1d", "--grid", "9", "--lost", "4", "--checkpoint-iteration", "2",
                "--failure-iteration", "6", "--json");
        CliRun b = run("plan", "--layout", "1d", "--grid", "9x1", "--lost", "4", "--checkpoint-iteration", "2",
                "--failure-iteration", "6", "--json");
        assertThat(a.exitCode()).as(a.err()).isZero();
        JsonNode ja = new ObjectMapper().readTree(a.out());
        JsonNode jb = new ObjectMapper().readTree(b.out());
        assertThat(ja.get("levels")).isEqualTo(jb.get("levels"));
        // m = 3: level 1 = 2r+1 = 5 partitions around 4
        assertThat(ints(ja.get("levels").get(0))).containsExactly(2, 3, 4, 5, 6);
    }

    @Test
    void when_periodicUnionOfTwoLost_then_wrapsAndCoversEverything() throws Exception {
        CliRun r = run("plan", "--layout", "1d", "--periodic", "--grid", "6", "--lost", "0,3",
                "--checkpoint-iteration", "0", "--failure-iteration", "3", "--json");
        JsonNode json = new ObjectMapper().readTree(r.out());
        // m = 2: level 1 = {5,0,1} u {2,3,4}
        assertThat(ints(json.get("levels").get(0))).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(json.get("coversEverything").booleanValue()).isTrue();
        assertThat(json.get("idlePartitions")).isEmpty();
    }

    /**
     * heat1d3 with a periodic boundary, 8 partitions, partition 0 lost at 3 (m = 2): level 1 wraps to {7, 0, 1}. The
     * boundary is the kernel's option, so the JSON does not echo --periodic (it said false).
     */
    @Test
    void when_kernelIsPeriodicByItsOption_then_theLevelsWrap_andNoPeriodicFlagIsEchoed() throws Exception {
        CliRun r = run("plan", "--kernel", "heat1d3", "--kernel-option", "boundary=periodic", "--cells", "64",
                "--grid", "8", "--lost", "0", "--checkpoint-iteration", "0", "--failure-iteration", "3", "--json");

        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(ints(json.get("levels").get(0))).containsExactly(0, 1, 7);
        assertThat(json.has("periodic")).isFalse();
        assertThat(new ObjectMapper().readTree(run("plan", "--layout", "1d", "--grid", "8", "--lost", "0",
                "--checkpoint-iteration", "0", "--failure-iteration", "2", "--json").out()).get("periodic").booleanValue())
                .isFalse();
    }

    @Test
    void when_failureRightAfterCheckpoint_then_onlyReload() throws Exception {
        CliRun r = run("plan", "--layout", "global", "--grid", "4", "--lost", "2",
                "--checkpoint-iteration", "5", "--failure-iteration", "6", "--json");
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.get("levels")).isEmpty();
        assertThat(ints(json.get("participatingPartitions"))).containsExactly(2);
        assertThat(json.get("recomputedPartitionIterations").longValue()).isZero();
    }

    @Test
    void when_expected_then_meansReportedForBothStrategies() throws Exception {
        CliRun r = run("plan", "--layout", "2d5", "--grid", "2x4", "--lost", "1", "--expected",
                "--checkpoint-interval", "4", "--json", "--nodes", "4", "--node-mtbf-seconds", "1000",
                "--iteration-seconds", "2", "--busy-power-watts", "100", "--idle-power-watts", "80");

        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        // m = 0..3 -> cones (level 1 sizes) 1, 1, 3, 5 (see the paper's case); idle 7, 7, 5, 3
        JsonNode dfr = json.get("dataFlowRollback");
        assertThat(dfr.get("meanConeSizePartitions").doubleValue()).isEqualTo((1 + 1 + 3 + 5) / 4.0);
        // work(m) = sum of levels: 0, 1, 1+3, 1+3+5
        assertThat(dfr.get("meanRecomputedPartitionIterations").doubleValue()).isEqualTo((0 + 1 + 4 + 9) / 4.0);
        assertThat(dfr.get("meanIdlePartitions").doubleValue()).isEqualTo((7 + 7 + 5 + 3) / 4.0);
        assertThat(json.get("globalRollback").get("meanRecomputedPartitionIterations").doubleValue())
                .isEqualTo(8 * 1.5);
        // rate = 4/1000 per s x mean(idle*m) x 2 s x 20 W; mean(idle*m) = (0 + 7 + 10 + 9)/4
        assertThat(json.get("energySavings").get("savingsRateWatts").doubleValue())
                .isCloseTo(0.004 * (26 / 4.0) * 40.0, Assertions.within(1e-12));
    }

    @Test
    void when_expectedWithACommitLag_then_mRunsFromTheLagToKPlusLagMinusOne() throws Exception {
        CliRun r = run("plan", "--layout", "2d5", "--grid", "2x4", "--lost", "1", "--expected",
                "--checkpoint-interval", "4", "--commit-lag-iterations", "2", "--json");

        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.get("commitLagIterations").intValue()).isEqualTo(2);
        // a failure in the 2 iterations after checkpoint c rolls back to c-4: m = 2..5, mean 3.5
        assertThat(json.get("meanLostIterations").doubleValue()).isEqualTo(3.5);
        // partitions within distance d of partition 1 on 2x4: 1, 3, 5, 7, 8 for d = 0..4
        JsonNode dfr = json.get("dataFlowRollback");
        assertThat(dfr.get("meanConeSizePartitions").doubleValue()).isEqualTo((3 + 5 + 7 + 8) / 4.0);
        // work(m) = b(0) + ... + b(m-1): 4, 9, 16; at m = 5 the cone covers all 8, so DFR is global rollback: 5 x 8
        assertThat(dfr.get("meanRecomputedPartitionIterations").doubleValue()).isEqualTo((4 + 9 + 16 + 40) / 4.0);
        assertThat(json.get("globalRollback").get("meanRecomputedPartitionIterations").doubleValue()).isEqualTo(8 * 3.5);
    }

    @Test
    void when_expectedAsJsonWithACheckpointCost_then_theIntervalAdviceIsInTheObjectAsInTheText() throws Exception {
        String[] args = {"plan", "--layout", "2d5", "--grid", "2x4", "--expected", "--checkpoint-seconds", "0.5",
                "--nodes", "8", "--node-mtbf-seconds", "7200", "--iteration-seconds", "2"};
        CliRun text = run(args);
        String[] withJson = Arrays.copyOf(args, args.length + 1);
        withJson[args.length] = "--json";
        CliRun json = run(withJson);

        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode advice = new ObjectMapper().readTree(json.out()).get("checkpointIntervalAdvice");
        assertThat(advice).isNotNull();
        // 8 nodes of 7200 s: system MTBF 900 s; Young sqrt(2 x 0.5 x 900) = 30 s = 15 iterations of 2 s
        assertThat(advice.get("systemMtbfSeconds").doubleValue()).isEqualTo(900.0);
        assertThat(advice.get("youngSeconds").doubleValue()).isCloseTo(30.0, Assertions.within(1e-9));
        assertThat(text.out()).contains("Young sqrt(2CM) = " + String.format(Locale.ROOT, "%.4g",
                advice.get("youngSeconds").doubleValue()) + " s = " + advice.get("youngIterations").intValue()
                + " iterations, Daly = ").contains(advice.get("dalyIterations").intValue() + " iterations (planned above: K = "
                + advice.get("dalyIterations").intValue() + ")");
    }

    @Test
    void when_expectedAsText_then_tableAndRatePrinted() {
        CliRun r = run("plan", "--layout", "2d9", "--grid", "4x4", "--expected", "--checkpoint-interval", "5");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("each equally likely").contains("mean cone size [partitions]")
                .contains("savings rate:");
    }

    @Test
    void when_badArguments_then_exit2WithMessageNamingTheValue() {
        assertUsageError(new String[] {"--layout", "2d5", "--grid", "4x4x2", "--lost", "1",
                "--checkpoint-iteration", "0", "--failure-iteration", "3"}, "4x4x2", "PXxPY");
        assertUsageError(new String[] {"--layout", "1d", "--grid", "4x3", "--lost", "1",
                "--checkpoint-iteration", "0", "--failure-iteration", "3"}, "4x3", "N or Nx1");
        assertUsageError(new String[] {"--layout", "3d7", "--grid", "4x4", "--lost", "1",
                "--checkpoint-iteration", "0", "--failure-iteration", "3"}, "4x4", "PXxPYxPZ");
        assertUsageError(new String[] {"--layout", "2d5", "--grid", "0x4", "--lost", "1",
                "--checkpoint-iteration", "0", "--failure-iteration", "3"}, "size 0", ">= 1");
        assertUsageError(new String[] {"--layout", "2d5", "--grid", "2xfoo", "--lost", "1",
                "--checkpoint-iteration", "0", "--failure-iteration", "3"}, "'foo'");
        assertUsageError(new String[] {"--layout", "2d7", "--grid", "2x4", "--lost", "1",
                "--checkpoint-iteration", "0", "--failure-iteration", "3"}, "2d7", "1d, 2d5, 2d9, 3d7, global");
        assertUsageError(new String[] {"--layout", "2d5", "--grid", "2x4", "--lost", "8",
                "--checkpoint-iteration", "0", "--failure-iteration", "3"}, "partition 8", "0..7");
        assertUsageError(new String[] {"--layout", "2d5", "--grid", "2x4", "--lost", "1",
                "--checkpoint-iteration", "3", "--failure-iteration", "3"}, "--failure-iteration", "3");
        assertUsageError(new String[] {"--layout", "2d5", "--grid", "2x4", "--lost", "1",
                "--checkpoint-iteration", "-1", "--failure-iteration", "3"}, "-1");
        assertUsageError(new String[] {"--layout", "2d5", "--grid", "2x4", "--lost", "1"}, "--checkpoint-iteration");
        assertUsageError(new String[] {"--layout", "2d5", "--grid", "2x4", "--expected"}, "--checkpoint-interval");
        assertUsageError(new String[] {"--layout", "2d5", "--grid", "2x4", "--expected", "--checkpoint-interval", "0"},
                "at least 1", "0");
        assertUsageError(new String[] {"--layout", "global", "--periodic", "--grid", "4", "--lost", "1",
                "--checkpoint-iteration", "0", "--failure-iteration", "3"}, "--periodic");
        assertUsageError(new String[] {"--layout", "2d5", "--grid", "2x4", "--expected", "--checkpoint-interval", "3",
                "--idle-power-watts", "150"}, "--idle-power-watts 150.0 is not allowed above --busy-power-watts");
    }

    private static void assertUsageError(String[] args, String... messageParts) {
        String[] full = new String[args.length + 1];
        full[0] = "plan";
        System.arraycopy(args, 0, full, 1, args.length);
        CliRun r = run(full);
        assertThat(r.exitCode()).as("exit code of %s", String.join(" ", full)).isEqualTo(2);
        assertThat(r.err()).as("stderr of %s", String.join(" ", full)).contains(messageParts);
        assertThat(r.out()).isEmpty();
    }

    @Test
    void when_checkpointCostIsGiven_then_youngAndDalyIntervalsArePrintedAndDalysIsPlanned() {
        // 4 nodes of MTBF 3600 s: system MTBF 900 s; C = 0.5 s: Young sqrt(2 * 0.5 * 900) = 30 s = 300 iterations
        CliRun r = run("plan", "--layout", "2d5", "--grid", "2x4", "--lost", "1", "--expected", "--checkpoint-seconds",
                "0.5", "--nodes", "4", "--node-mtbf-seconds", "3600", "--iteration-seconds", "0.1");

        double ratio = 0.5 / 1800;
        double daly = Math.sqrt(2 * 0.5 * 900) * (1 + Math.sqrt(ratio) / 3 + ratio / 9) - 0.5;
        int dalyIterations = (int) Math.rint(daly / 0.1);
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("Young sqrt(2CM) = 30.00 s = 300 iterations")
                .contains("= " + dalyIterations + " iterations (planned above: K = " + dalyIterations + ")")
                .contains("checkpoint interval K = " + dalyIterations + ":");
    }

    /** Without --ranks-grid, plan takes dfr run's default: the paper's case above, planned on 2x4 unasked. */
    @Test
    void when_noRanksGridIsGiven_then_theRunsDefaultIsPlanned() throws Exception {
        CliRun r = run("plan", "--layout", "2d5", "--lost", "1", "--checkpoint-iteration", "0", "--failure-iteration",
                "4", "--json");

        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(ints(json.get("levels").get(0))).containsExactly(0, 1, 2, 3, 5);
        assertThat(json.get("globalRollbackPartitionIterations").longValue()).isEqualTo(24);
    }

    /** A 3-axis kernel without --ranks-grid: 2x2x2, so partition 8 does not exist, and the error says whose grid that is. */
    @Test
    void when_theDefaultGridIsQuotedInAnError_then_itIsCalledTheDefault() {
        CliRun r = run("plan", "--kernel", "heat3d7", "--cells", "16x16x16", "--lost", "8", "--checkpoint-iteration",
                "0", "--failure-iteration", "4");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--lost partition 8 is out of range: grid 2x2x2")
                .contains("(--ranks-grid was not given; 2x2x2 is the default for 3 axes)");
    }

    /** --grid still works but is not shown: help, synopsis and errors name the option --ranks-grid, as every command. */
    @Test
    void when_helpIsAsked_then_theGridOptionIsNamedRanksGridOnly() {
        CliRun r = run("plan", "--help");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("--ranks-grid=PXxPY[xPZ]").doesNotContain("--grid");
    }
}
