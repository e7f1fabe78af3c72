package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.jacobi.SequentialJacobi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RunCommandTest {

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "--cells 0x5 --iterations 3|'0x5': every size must be >= 1",
            "--cells 37 --iterations 3|kernel jacobi2d5 takes 2 axes",
            "--cells 3x3x3x3 --iterations 3|'3x3x3x3' has 4 axes; allowed: N, AxB or AxBxC",
            "--cells 37x29 --ranks-grid 2x2x2 --iterations 3|--cells 37x29 has 2 axes but --ranks-grid 2x2x2 has 3",
            "--cells 37x29 --iterations 3 --kernel nope|--kernel 'nope' is not installed; installed: ",
            "--cells 37x29 --iterations 3 --kernel-option colour=red|kernel jacobi2d5 has no option 'colour'; its options are none",
            "--cells 37x29 --iterations 3 --kernel-jar /no/such.jar|--kernel-jar /no/such.jar: no such readable file",
            "--cells 37x29 --iterations 3 --tolerance 0|--tolerance 0.0 is not allowed: give a number > 0",
            "--cells 37x29 --iterations 0|--iterations must be >= 1, got 0",
            "--ranks-grid 40x1 --cells 37x29 --iterations 3|40",
            "--cells 37x29 --iterations 3 --fail 9@2|rank 9 does not exist; ranks are 0..7",
            "--cells 37x29 --iterations 3 --fail 1@4|iteration 4 is past the end of the run",
            "--cells 37x29 --iterations 3 --fail one@2|RANK and ITER must be integers",
            "--cells 37x29 --iterations 3 --fail-host 4@2|host 4 does not exist; hosts are 0..3",
            "--cells 37x29 --iterations 3 --mode cloud|--mode cloud is not allowed: allowed are embedded, processes",
            "--cells 37x29 --iterations 3 --strategy local|'local' is not a strategy: allowed are global, dfr",
            "--cells 37x29 --iterations 3 --checkpoint-every 0|--checkpoint-every 0 is not allowed: give a number of iterations K >= 1, or auto",
            "--cells 37x29 --iterations 3 --idle-power-watts 40|go together"})
    void when_argumentsAreBad_then_exit2WithAMessageNamingTheValue(String args, String message) {
        CliRun r = run(("run " + args).split(" "));

        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains(message);
    }

    @Test
    void when_theBasePortRangeIsInUse_then_exit2NamingThePortBeforeAnyMemberStarts() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            int base = port; // the first port of the run's range is the one in use

            CliRun r = run("run", "--cells", "37x29", "--iterations", "3", "--base-port", Integer.toString(base));

            assertThat(r.exitCode()).as(r.err()).isEqualTo(2);
            assertThat(r.err()).contains("--base-port " + base + ": port " + port + " on 127.0.0.1 is in use; the run"
                    + " needs " + base + ".." + (base + 9) + " free on every host's address");
            assertThat(r.err().strip().lines()).as("one line").hasSize(1);
        }
    }

    @Test
    void when_smallRunWithReport_then_digestEqualsReferenceAndReportHasTheDesignFields(@TempDir Path tmp) throws Exception {
        Path report = tmp.resolve("out/report.json");
        CliRun r = run("run", "--ranks-grid", "2x1", "--cells", "9x7", "--iterations", "4", "--checkpoint-every", "2",
                "--report", report.toString());

        SequentialJacobi seq = new SequentialJacobi(new JacobiProblem(9, 7));
        seq.iterate(4);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("field sha256:    " + seq.digest());
        JsonNode json = new ObjectMapper().readTree(Files.readString(report));
        assertThat(json.get("fieldSha256").asText()).isEqualTo(seq.digest());
        for (String field : new String[] {"strategy", "ranksGrid", "cells", "iterations", "checkpointEvery",
                "finalResidual", "wallMillis", "failures", "recoveries", "energy"}) {
            assertThat(json.has(field)).as("report field %s", field).isTrue();
        }
        assertThat(json.get("energy").get("source").asText()).isIn("none", "model", "rapl", "perf");
        // without a meter the console says why, as the report's detail does
        String source = json.get("energy").get("source").asText();
        String detail = json.get("energy").get("detail").asText();
        assertThat(r.out()).contains("energy source:   " + source
                + ("none".equals(source) ? " (" + detail.replaceAll(";\\s*$", "") + ")" : ""));
        try (var files = Files.list(report.getParent())) {
            assertThat(files).as("no temporary file left next to the report").containsExactly(report);
        }
    }

    @Test
    void when_theToleranceStopsTheRunBeforeAFault_then_theFaultIsNamedAsNotInjected(@TempDir Path tmp) throws Exception {
        Path report = tmp.resolve("report.json");
        CliRun r = run("run", "--kernel", "graph-jacobi", "--cells", "300", "--ranks-grid", "4", "--iterations", "5000",
                "--tolerance", "1e-6", "--fail", "1@4000", "--fail-during-recovery", "2", "--report", report.toString());

        assertThat(r.code()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(Files.readString(report));
        int stoppedAfter = json.get("iterationsRun").asInt();
        assertThat(json.get("stoppedBy").asText()).isEqualTo("TOLERANCE");
        assertThat(stoppedAfter).isLessThan(4000);
        assertThat(json.get("failures")).isEmpty();
        assertThat(r.out()).contains("not injected:    rank 1 at iteration 4000: the run stopped after iteration "
                + stoppedAfter + " (residual below --tolerance)")
                .contains("not injected:    --fail-during-recovery 2: no recovery happened");
    }

    /*
     *   host 0: ranks 0 1    host 1: ranks 2 3    host 2: spares 4 5   <- dies at iteration 3
     * A spare that adopted nothing runs no iteration: the host's death reaches it through the control board
     * (before, it survived its host and could adopt a partition on a dead machine).
     */
    @Test
    void when_aHostOfIdleSparesDies_then_itsSparesDieAtThatIteration(@TempDir Path tmp) throws Exception {
        Path report = tmp.resolve("report.json");
        CliRun r = run("run", "--ranks-grid", "2x2", "--cells", "16x16", "--iterations", "6", "--checkpoint-every", "3",
                "--spares", "2", "--ranks-per-host", "2", "--fail-host", "2@3", "--report", report.toString(),
                "--check-reference");

        assertThat(r.code()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(Files.readString(report));
        assertThat(json.get("failures")).hasSize(1);
        assertThat(json.get("failures").get(0).get("ranks").toString()).isEqualTo("[4,5]");
        assertThat(json.get("failures").get(0).get("iteration").asInt()).isEqualTo(3);
        // they owned nothing: nothing to recover. A round their loss starts at the end of the run now and then
        // recomputes nothing, and names them from the membership (the loss queue is drained when a round begins)
        for (JsonNode recovery : json.get("recoveries")) {
            assertThat(recovery.get("recomputedPartitionIterations").asLong()).isZero();
            Set<Integer> dead = new TreeSet<>();
            recovery.get("deadRanks").forEach(rank -> dead.add(rank.asInt()));
            assertThat(dead).isNotEmpty().isSubsetOf(4, 5);
            // not "t = 5; checkpoint 3; m = 1" beside "recomputed 0", which read as a recovery of the spares' work
            assertThat(r.out()).contains("recovery " + recovery.get("epoch").asInt() + ":      ranks "
                    + recovery.get("deadRanks").toString().replace(",", ", ") + " died owning no partition (spares):"
                    + " nothing was lost or recomputed").doesNotContain("m = ");
        }
        assertThat(r.out()).doesNotContain("not injected").contains("the same digest as the sequential reference");
        // the dead that no recovery names are printed, whichever they are
        Set<Integer> named = new TreeSet<>();
        json.get("recoveries").forEach(rec -> rec.get("deadRanks").forEach(rank -> named.add(rank.asInt())));
        List<Integer> unnamed = List.of(4, 5).stream().filter(rank -> !named.contains(rank)).toList();
        if (unnamed.isEmpty()) {
            assertThat(r.out()).doesNotContain("died:");
        } else {
            assertThat(r.out()).contains("died:            ranks " + unnamed + " at iteration 3: no recovery names them");
        }
    }

    /*
     * Spares 4 and 5 wait; one of them (the lowest, or the one holding a copy) adopts rank 1's partition. Spare 4
     * is to die during the recovery: it does if it adopted; if not, it took no part in it, and the output says so.
     */
    /** Rank 2 dies during the recovery of rank 1: the first recovery's cone is its plan, not work done. */
    @Test
    void when_aFailureCutsARecoveryShort_then_itsLineSaysSoAndTheNextOneSaysRecomputed() {
        CliRun r = run("run", "--ranks-grid", "2x4", "--cells", "32x32", "--iterations", "6", "--checkpoint-every", "6",
                "--fail", "1@4", "--fail-during-recovery", "2");

        assertThat(r.code()).as(r.err()).isZero();
        List<String> strategyLines = r.out().lines().filter(l -> l.startsWith("                 dfr")).toList();
        assertThat(strategyLines).as(r.out()).hasSize(2);
        assertThat(strategyLines.get(0)).contains("dfr: cut short by a failure during it (recovery 2 starts over); its"
                + " plan 9 partition-iterations");
        assertThat(strategyLines.get(1)).contains("dfr: recomputed 14 partition-iterations");
    }

    @Test
    void when_aSpareIsToDieDuringTheRecovery_then_itDiesIfItAdoptedAndIsNamedAsNotInjectedIfNot(@TempDir Path tmp)
            throws Exception {
        Path report = tmp.resolve("report.json");
        CliRun r = run("run", "--ranks-grid", "2x2", "--cells", "16x16", "--iterations", "8", "--checkpoint-every", "4",
                "--spares", "2", "--fail", "1@3", "--fail-during-recovery", "4", "--report", report.toString());

        assertThat(r.code()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(Files.readString(report));
        boolean adopted = json.get("recoveries").get(0).get("adoptions").get(0).asText().equals("1:4");
        boolean died = json.get("failures").toString().contains("\"ranks\":[4]");
        assertThat(died).as(r.out()).isEqualTo(adopted);
        String line = "not injected:    --fail-during-recovery 4: a spare that adopted no partition, so it took no part"
                + " in a recovery";
        if (adopted) {
            assertThat(r.out()).doesNotContain(line);
        } else {
            assertThat(r.out()).contains(line);
        }
    }

    @Test
    void when_modelAlphaAndIdleClockShareGiven_then_theReportsModelUsesThem(@TempDir Path tmp) throws Exception {
        Path report = tmp.resolve("report.json");
        CliRun r = run("run", "--ranks-grid", "2x1", "--cells", "9x7", "--iterations", "3", "--report", report.toString(),
                "--idle-power-watts", "40", "--busy-power-watts", "120", "--model-alpha", "2.5",
                "--model-idle-clock-share", "0.3");

        assertThat(r.code()).as(r.err()).isZero();
        JsonNode energy = new ObjectMapper().readTree(Files.readString(report)).get("energy");
        if ("model".equals(energy.get("source").asText())) {
            // the console gives the report's energy, so that nobody has to open the file for it
            assertThat(r.out()).contains(String.format(Locale.ROOT, "energy:          %.1f J without start-up",
                    energy.get("joules").asDouble())).contains(String.format(Locale.ROOT, "and %.1f J in the finish (the"
                    + " members stopping)", energy.get("phases").get("finish").get("joules").asDouble()))
                    .contains(String.format(Locale.ROOT,
                    "%.1f W per simulated host on average", energy.get("meanWatts").asDouble()));
            assertThat(energy.get("parameters").get("alpha").asDouble()).isEqualTo(2.5);
            assertThat(energy.get("parameters").get("idleClockShare").asDouble()).isEqualTo(0.3);
        } else {
            // a machine with a real energy counter uses it, and the model's constants are not reported
            assertThat(energy.get("source").asText()).isIn("rapl", "perf");
        }
    }

    @Test
    void when_reference_then_sequentialDigestIsPrinted() {
        CliRun r = run("run", "--cells", "9x7", "--iterations", "4", "--reference");

        SequentialJacobi seq = new SequentialJacobi(new JacobiProblem(9, 7));
        seq.iterate(4);
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains(seq.digest());
    }

    @Test
    void when_referenceOfAKernelWithOptions_then_itsLineNamesEveryOptionAsTheRunLineDoes() {
        CliRun reference = run("run", "--kernel", "jacobi2d9", "--cells", "9x7", "--iterations", "2", "--reference");
        CliRun ran = run("run", "--kernel", "jacobi2d9", "--cells", "9x7", "--ranks-grid", "1x1", "--iterations", "2");

        assertThat(reference.code()).as(reference.err()).isZero();
        assertThat(ran.code()).as(ran.err()).isZero();
        // the default boundary, not given, is named on both lines
        assertThat(reference.out()).contains("reference:       jacobi2d9(boundary=fixed), sequential, 9x7 cells");
        assertThat(ran.out()).contains("run:             jacobi2d9(boundary=fixed), ");
    }

    @Test
    void when_rankConfigIsWritten_then_theCheckpointDirIsLeftToTheRanksHosts(@TempDir Path tmp) throws Exception {
        Path config = tmp.resolve("ranks.json");
        Path checkpoints = tmp.resolve("on-the-cluster/ckpt");

        CliRun r = run("run", "--cells", "37x29", "--iterations", "6", "--write-rank-config", config.toString(),
                "--checkpoint-dir", checkpoints.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(new ObjectMapper().readTree(config.toFile()).toString()).contains("ckpt");
        // the ranks start on other machines: this one neither creates nor probes their directory
        assertThat(tmp.resolve("on-the-cluster")).doesNotExist();
    }

    /*
     *   file levels at 10, 20, 30 (every 2nd checkpoint of 5); rank 3 killed at 17, its partition adopted
     *   afterwards exactly two levels are left, both complete: no stray files of an older one
     */
    @Test
    void when_aRunWithFileLevelsLosesARank_then_exactlyTheTwoNewestCompleteLevelsAreLeft(@TempDir Path tmp)
            throws Exception {
        Path dir = tmp.resolve("ckpt");

        CliRun r = run("run", "--cells", "64x64", "--iterations", "40", "--checkpoint-every", "5", "--checkpoint-dir",
                dir.toString(), "--file-checkpoint-every", "2", "--fail", "3@17");

        assertThat(r.exitCode()).as(r.err()).isZero();
        Map<String, Long> filesPerLevel;
        try (var files = Files.walk(dir)) {
            filesPerLevel = files.filter(Files::isRegularFile).collect(Collectors.groupingBy(
                    f -> f.getParent().getFileName().toString(), TreeMap::new, Collectors.counting()));
        }
        assertThat(filesPerLevel).containsExactly(Map.entry("20", 8L), Map.entry("30", 8L));
    }

    /**
     * Rank 1 killed at 6 with K = 5 and no commit lag: checkpoint 5 is committed, m = 0, so the recovery recomputes no
     * level, and a rank to die after a recomputed level does not die. The reason given was "it took no part in a
     * recovery" even for the rank that adopted partition 1 (a resilience researcher's walk-through).
     */
    @Test
    void when_aRankToDieDuringRecoveryTookPartInOneWithNoLevel_then_thatIsTheReasonGiven(@TempDir Path tmp)
            throws Exception {
        Path report = tmp.resolve("r.json");
        CliRun r = run("run", "--cells", "32x32", "--iterations", "10", "--checkpoint-every", "5",
                "--commit-lag-iterations", "0", "--fail", "1@6", "--fail-during-recovery", "3", "--report",
                report.toString());

        assertThat(r.code()).as(r.err()).isZero();
        JsonNode recovery = new ObjectMapper().readTree(Files.readString(report)).get("recoveries").get(0);
        assertThat(recovery.get("lostIterations").asInt()).isZero();
        Set<Integer> participating = new TreeSet<>();
        recovery.get("participatingRanks").forEach(rank -> participating.add(rank.asInt()));
        assertThat(r.out()).contains("not injected:    --fail-during-recovery 3: " + (participating.contains(3)
                ? "the recoveries it took part in recomputed no level (m = 0)" : "it took no part in a recovery"));
    }

    @Test
    void when_theScriptGaveTheCommandsStart_then_startUpCountsFromItElseFromTheJvmsStart() {
        long jvm = 1_800_000_000_000L;

        assertThat(RunCommand.commandStartMillis("1799999999700", jvm)).isEqualTo(jvm - 300);
        assertThat(RunCommand.commandStartMillis(null, jvm)).isEqualTo(jvm);
        assertThat(RunCommand.commandStartMillis("soon", jvm)).isEqualTo(jvm);
        // after the JVM's start, or hours before it: another command's variable, inherited
        assertThat(RunCommand.commandStartMillis(Long.toString(jvm + 10), jvm)).isEqualTo(jvm);
        assertThat(RunCommand.commandStartMillis(Long.toString(jvm - 7_200_000), jvm)).isEqualTo(jvm);
    }
}
