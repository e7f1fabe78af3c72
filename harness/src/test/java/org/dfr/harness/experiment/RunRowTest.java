package org.dfr.harness.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dfr.harness.RunReport;
import org.dfr.harness.RunReports;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunRowTest {

    /**
     * A run whose cluster took 3 s to shut down (a member's shutdown waiting for a migration in flight): its finish
     * phase is reported apart, not counted in the solver's energy that the variants are compared on.
     */
    @Test
    void when_aRunsFinishPhaseTookEnergy_then_theSolverEnergyLeavesItOutAndFinishJoulesHasIt(@TempDir Path tmp)
            throws Exception {
        Path file = Files.writeString(tmp.resolve("report.json"), """
                {"wallMillis": 500, "ranksPerHost": 2, "fieldSha256": "abc", "recoveries": [],
                 "energy": {"source": "model", "joules": 500.0,
                   "startUp": {"seconds": 4.0, "joules": 160.0, "hosts": {}},
                   "hosts": [
                     {"host": "host0", "phases": {"compute": {"seconds": 1.0, "joules": 120.0},
                                                  "finish": {"seconds": 3.1, "joules": 124.0}}},
                     {"host": "host1", "phases": {"compute": {"seconds": 1.0, "joules": 120.0},
                                                  "finish": {"seconds": 3.4, "joules": 136.0}}}]}}
                """);
        RunReport report = RunReports.read(file);

        RunRow row = RunRow.of(1, Variant.DFR, 1, report);

        assertThat(row.finishJoules()).isCloseTo(260.0, within(1e-9));
        assertThat(row.solverJoules()).isCloseTo(240.0, within(1e-9));
        assertThat(row.startUpJoules()).isCloseTo(160.0, within(1e-9));
        assertThat(row.restJoules()).isCloseTo(240.0, within(1e-9));
    }

    /**
     * The coordinator saw every rank resumed 100 ms after detection; the energy timeline's window (from the
     * ranks' own events) is 171 ms long: the row's recovery milliseconds are the window the recovery joules cover.
     */
    @Test
    void when_theTimelineHasTheRecoveryWindow_then_recoveryWallIsThatWindowElseTheReportsDetectionPlusWall(
            @TempDir Path tmp) throws Exception {
        String recovery = """
                {"epoch": 1, "deadRanks": [1], "recomputedPartitionIterations": 3, "participatingRanks": [0, 1],
                 "idleRanks": [2, 3], "detectionMillis": 1, "agreementMillis": 60, "wallMillis": 100}""";
        String hosts = """
                "hosts": [{"host": "host0", "phases": {"agreement": {"seconds": 0.06, "joules": 2.4},
                                                      "recovery-active": {"seconds": 0.11, "joules": 13.2}}}]""";
        RunReport withTimeline = RunReports.read(Files.writeString(tmp.resolve("timeline.json"), """
                {"wallMillis": 500, "ranksPerHost": 2, "fieldSha256": "abc", "recoveries": [%s],
                 "energy": {"source": "model", "joules": 100.0, %s,
                   "timeline": {"recoveries": [{"detectionStartSeconds": 2.0, "agreementStartSeconds": 2.001,
                                                "recoveryStartSeconds": 2.061, "resumeSeconds": 2.171}]}}}
                """.formatted(recovery, hosts)));
        RunReport withoutTimeline = RunReports.read(Files.writeString(tmp.resolve("plain.json"), """
                {"wallMillis": 500, "ranksPerHost": 2, "fieldSha256": "abc", "recoveries": [%s],
                 "energy": {"source": "model", "joules": 100.0, %s}}
                """.formatted(recovery, hosts)));

        assertThat(RunRow.of(1, Variant.DFR, 1, withTimeline).recoveryWallMillis()).isEqualTo(171.0);
        assertThat(RunRow.of(1, Variant.DFR, 1, withoutTimeline).recoveryWallMillis()).isEqualTo(101.0);
        assertThat(RunRow.of(1, Variant.DFR, 1, withTimeline).recoveryJoules()).isCloseTo(15.6, within(1e-9));
    }
}
