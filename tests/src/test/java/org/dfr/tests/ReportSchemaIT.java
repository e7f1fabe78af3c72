package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.dfr.harness.Mode;
import org.dfr.harness.ProcessLauncher;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.harness.RunReports;
import org.dfr.harness.Runner;
import org.dfr.power.meter.PowerModel;
import org.dfr.recovery.FaultPlan;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.kernel.KernelChoice;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/** Real reports, written as {@code dfr run --report} writes them, validate against docs/report.schema.json. */
@Isolated // starts rank processes
class ReportSchemaIT {

    private static final Path SCHEMA = Path.of("..", "docs", "report.schema.json");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static JsonSchema schema;

    @BeforeAll
    static void loadSchema() throws IOException {
        try (InputStream in = Files.newInputStream(SCHEMA)) {
            schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(in);
        }
    }

    @Test
    void when_embeddedRunRecoversTwoFailuresWithTheModelMeter_then_itsReportIsValid(@TempDir Path tmp) throws IOException {
        RunConfig config = RunConfig.of(KernelChoice.of("heat3d7", Map.of("boundary", "periodic")),
                        List.of(9, 7, 6), List.of(2, 2, 2), 10, 3)
                .withFaults(List.of(kill(1, 4), kill(6, 8)), List.of(), Set.of());
        RunReport report = new Runner().powerModel(new PowerModel(40, 100)).run(config);

        JsonNode written = writeAndRead(report, tmp);

        assertThat(errors(written)).isEmpty();
        assertThat(written.get("kernelOptions").get("boundary").asText()).isEqualTo("periodic");
        assertThat(written.get("recoveries")).hasSize(2);
        assertThat(written.get("provenance").get("gitCommit").asText()).isNotBlank();
    }

    @Test
    void when_runIsSampledWithoutAMeter_then_itsReportKeepsThePhaseTimesAndIsValid(@TempDir Path tmp)
            throws IOException {
        RunConfig config = RunConfig.of(KernelChoice.of("jacobi2d5"), List.of(64, 64), List.of(2, 2), 20, 10)
                .withFaults(List.of(kill(1, 15)), List.of(), Set.of());
        // this machine has no RAPL and no perf power events (a VM): the source is none, sampled all the same
        RunReport report = new Runner().samples(tmp.resolve("samples.csv")).run(config);

        JsonNode written = writeAndRead(report, tmp);

        assertThat(errors(written)).isEmpty();
        JsonNode energy = written.get("energy");
        assumeTrue("none".equals(energy.get("source").asText()), "this machine has a power meter");
        assertThat(energy.get("seconds").asDouble()).isPositive();
        assertThat(energy.get("phases").get("compute").get("seconds").asDouble()).isPositive();
        assertThat(energy.get("phases").get("compute").get("joules").isNull()).isTrue();
        assertThat(energy.get("hosts").get(0).get("missedIntervals").asInt()).isZero();
    }

    @Test
    void when_processesRunStopsByTolerance_then_itsReportIsValid(@TempDir Path tmp) throws IOException {
        RunConfig config = RunConfig.of(KernelChoice.of("graph-jacobi"), List.of(200), List.of(4), 500, 10)
                .withTolerance(1e-6).withMode(Mode.PROCESSES)
                .withFaults(List.of(kill(2, 5)), List.of(), Set.of());
        RunReport report = new ProcessLauncher(new ClusterSettings()).jvmOptions(List.of("-XX:TieredStopAtLevel=1"))
                .runTimeoutMillis(120_000).run(config);

        JsonNode written = writeAndRead(report, tmp);

        assertThat(errors(written)).isEmpty();
        assertThat(written.get("stoppedBy").asText()).isEqualTo("TOLERANCE");
        assertThat(written.get("tolerance").asDouble()).isEqualTo(1e-6);
    }

    @Test
    void when_reportBreaksTheContract_then_theSchemaSaysWhere(@TempDir Path tmp) throws IOException {
        RunReport report = new Runner().run(RunConfig.of(2, 1, 9, 7, 3, 2));
        ObjectNode written = (ObjectNode) writeAndRead(report, tmp);
        assertThat(errors(written)).isEmpty();

        written.put("fieldSha256", "not-a-digest");
        written.remove("provenance");

        assertThat(errors(written)).extracting(ValidationMessage::getMessage)
                .anySatisfy(m -> assertThat(m).contains("fieldSha256"))
                .anySatisfy(m -> assertThat(m).contains("provenance"));
    }

    private static JsonNode writeAndRead(RunReport report, Path dir) throws IOException {
        Path file = dir.resolve("report.json");
        RunReports.write(report, file);
        return JSON.readTree(file.toFile());
    }

    private static Set<ValidationMessage> errors(JsonNode report) {
        return schema.validate(report);
    }

    private static FaultPlan.Kill kill(int rank, int iteration) {
        return new FaultPlan.Kill(rank, iteration, FaultPlan.Point.ITERATION_START);
    }
}
