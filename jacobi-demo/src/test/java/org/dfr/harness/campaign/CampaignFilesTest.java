package org.dfr.harness.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.dfr.harness.Campaign;
import org.dfr.harness.Mode;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.runtime.kernel.KernelCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CampaignFilesTest {

    private static final List<RunConfig> BASES = Campaign.everyKernel(KernelCatalog.installed(), List.of(), 12, 4);

    @TempDir
    Path tmp;

    @Test
    void when_trialsAreWritten_then_theCsvHasOneColumnPerFactAndTheFailuresColumnHoldsOnlyTheFaults() throws IOException {
        List<TrialPlan> plans = new TrialDraw(BASES, FaultKind.ALL, 3, true, Mode.EMBEDDED).capping(true).draw(21L, 12);
        List<TrialResult> results = plans.stream().map(p -> new TrialResult(p, Outcome.OK, 1000 + p.index(), 8,
                "", List.of(), "dfr campaign --replay " + p.index(), List.of("127.0.0.1:5701"))).toList();
        Path report = tmp.resolve("c.json");

        CampaignFiles.write(report, 21L, "dfr campaign --seed 21", "embedded",
                new CampaignRunner.Result(results, false, null));

        List<String> lines = Files.readAllLines(tmp.resolve("c.csv"));
        assertThat(lines.get(0)).isEqualTo("index,outcome,kernel,strategy,spares,replacement,capped,commitLagIterations,"
                + "failures,millis,recomputedPartitionIterations,ports,problems,replay");
        List<Map<String, String>> rows;
        try (MappingIterator<Map<String, String>> it = new CsvMapper().readerForMapOf(String.class)
                .with(CsvSchema.emptySchema().withHeader()).readValues(tmp.resolve("c.csv").toFile())) {
            rows = it.readAll();
        }
        assertThat(rows).hasSize(plans.size());
        for (int i = 0; i < plans.size(); i++) {
            TrialPlan p = plans.get(i);
            Map<String, String> row = rows.get(i);
            assertThat(row.get("failures")).isEqualTo(p.faults()).doesNotContain(p.config().kernel().name());
            assertThat(row.get("kernel")).isEqualTo(p.config().kernel().name());
            assertThat(row.get("capped")).isEqualTo(Boolean.toString(p.config().capIdleHosts()));
            // the lag in force, the default one included (its cell was empty)
            assertThat(row.get("commitLagIterations")).isEqualTo(Integer.toString(
                    p.config().commitLagIterations() != null ? p.config().commitLagIterations() : 1));
            assertThat(p.describe()).isEqualTo(p.setting() + (p.faults().isEmpty() ? "" : " " + p.faults()));
        }
        assertThat(rows).anyMatch(r -> r.get("capped").equals("true")).anyMatch(r -> r.get("capped").equals("false"));
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertThat(json.get("results").get(0).get("failures").asText()).isEqualTo(plans.get(0).faults());
        assertThat(json.get("results").get(0).get("recoveries")).as("no report, no recovery").isEmpty();
    }

    /** A trial that passed keeps its recoveries: cone, c, m and timings, as its run report gave them. */
    @Test
    void when_aTrialRecovered_then_itsRecoveriesAreInTheJsonReport() throws IOException {
        TrialPlan plan = new TrialDraw(BASES, FaultKind.ALL, 3, true, Mode.EMBEDDED).draw(21L, 1).get(0);
        RunReport.Recovery recovery = new RunReport.Recovery(1, "dfr", "dfr", List.of(1), List.of(1), 10, 13, 2,
                List.of(List.of(0, 1, 2), List.of(1)), 4, List.of(0, 1), List.of(2, 3), List.of("1:0"), false, 3L,
                "same-jvm", 40L, 2L, 9L, 51L, "copies");
        TrialResult result = new TrialResult(plan, Outcome.OK, 1000, 4, "", List.of(), "dfr campaign --replay 0",
                List.of(), List.of(recovery));
        Path report = tmp.resolve("r.json");

        CampaignFiles.write(report, 21L, "dfr campaign --seed 21", "embedded",
                new CampaignRunner.Result(List.of(result), false, null));

        JsonNode written = new ObjectMapper().readTree(report.toFile()).get("results").get(0).get("recoveries").get(0);
        assertThat(written.get("checkpointIteration").asInt()).isEqualTo(10);
        assertThat(written.get("lostIterations").asInt()).isEqualTo(2);
        assertThat(written.get("levels").toString()).isEqualTo("[[0,1,2],[1]]");
        assertThat(written.get("wallMillis").asLong()).isEqualTo(51);
    }
}
