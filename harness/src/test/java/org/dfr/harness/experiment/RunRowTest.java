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
}
