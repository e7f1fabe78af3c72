package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.dfr.harness.FileCheckpoints;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.harness.RunReports;
import org.dfr.harness.Runner;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.jacobi.SequentialJacobi;
import org.dfr.recovery.FaultPlan.Kill;
import org.dfr.recovery.FaultPlan.Point;
import org.dfr.runtime.CheckpointFile;
import org.dfr.runtime.CheckpointIntervalDecision;
import org.dfr.runtime.CheckpointSchedule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --checkpoint-every auto}: the interval chosen in the run from the checkpoint cost measured in it,
 * the same on every rank (the recovery restarts from a checkpoint of that interval), and recovery bit-exact.
 */
@Timeout(120)
class AutoCheckpointIntervalIT {

    private static final int NX = 37;
    private static final int NY = 29;
    /** Small against the iteration of this grid, so that the interval is a few iterations and checkpoints follow. */
    private static final double MTBF_SECONDS = 0.2;

    @Test
    void when_intervalIsAutoAndARankDies_then_theDigestIsTheReferenceAndTheIntervalIsDalysForTheMeasuredCost(
            @TempDir Path tmp) throws IOException {
        int iterations = 40;
        int t = 30;
        RunConfig config = RunConfig.of(2, 4, NX, NY, iterations, 1).withMtbfSeconds(MTBF_SECONDS)
                .withFaults(List.of(new Kill(1, t, Point.ITERATION_START)), List.of(), Set.of());

        RunReport report = new Runner().run(config);

        assertThat(report.fieldSha256()).isEqualTo(reference(iterations));
        RunReport.CheckpointInterval ci = report.checkpointInterval();
        assertFormula(ci, iterations);
        int k = ci.chosenInterval();
        assertThat(report.checkpointEvery()).isEqualTo(k);
        assertThat(ci.decidedAtIteration()).isEqualTo(CheckpointSchedule.MEASURED_ITERATIONS + 1);
        // every rank checkpointed at the multiples of k after the decision: the failure at the start of t
        // finds the newest of them whose commit (one reduction later, none with k = 1) completed
        int lag = k == 1 ? 0 : 1;
        int expected = 0;
        for (int c = ci.decidedAtIteration() + 1; c <= t - 1 - lag; c++) {
            if (c % k == 0) {
                expected = c;
            }
        }
        assertThat(report.recoveries()).hasSize(1);
        assertThat(report.recoveries().get(0).checkpointIteration()).as("checkpoint of interval %d", k)
                .isEqualTo(expected);
        assertThat(schemaErrors(report, tmp)).isEmpty();
    }

    @Test
    void when_intervalIsAutoWithAFileLevel_then_filesFollowTheChosenIntervalAndARestartFromThemIsExact(
            @TempDir Path dir) throws IOException {
        int iterations = 60;
        int fileEvery = 2;
        // an MTBF below the checkpoint's own cost: Daly's interval is then MTBF / iteration time, under
        // 27 iterations for any iteration of 8 ranks longer than 37 us, so that files at multiples of 2K
        // exist below 60 (an MTBF of 5 ms gave K = 23 on a loaded machine, and no file below 40)
        RunConfig config = RunConfig.of(2, 4, NX, NY, iterations, 1).withMtbfSeconds(0.001);

        RunReport written = new Runner().fileCheckpoints(config, dir, fileEvery, null).run(config);

        assertThat(written.fieldSha256()).isEqualTo(reference(iterations));
        RunReport.CheckpointInterval ci = written.checkpointInterval();
        int k = ci.chosenInterval();
        List<Integer> files = CheckpointFile.iterations(
                CheckpointFile.runDirectory(dir, FileCheckpoints.runKey(config)));
        // every fileEvery-th checkpoint of the agreed interval, none of the measuring iterations before it
        assertThat(files).as("file level of interval %d", k).isNotEmpty()
                .allSatisfy(c -> assertThat(c % (k * fileEvery)).as("iteration %d", c).isZero())
                .allSatisfy(c -> assertThat(c).isGreaterThan(ci.decidedAtIteration()));

        RunReport restarted = new Runner().fileCheckpoints(config, null, 1, dir).run(config);

        assertThat(restarted.restartedFromIteration()).isEqualTo(files.stream().mapToInt(Integer::intValue).max()
                .orElseThrow());
        assertThat(restarted.fieldSha256()).isEqualTo(reference(iterations));
    }

    @Test
    void when_theRootDiesInTheReductionThatDecides_then_theSurvivorsAgreeOnOneIntervalAndTheDigestIsTheReference() {
        int iterations = 16;
        int decision = CheckpointSchedule.MEASURED_ITERATIONS + 1;
        RunConfig config = RunConfig.of(2, 4, NX, NY, iterations, 1).withMtbfSeconds(MTBF_SECONDS)
                .withFaults(List.of(new Kill(0, decision, Point.DURING_REDUCTION)), List.of(), Set.of());

        RunReport report = new Runner().run(config);

        assertThat(report.fieldSha256()).isEqualTo(reference(iterations));
        RunReport.CheckpointInterval ci = report.checkpointInterval();
        assertFormula(ci, iterations);
        // rank 0 died before it could propose: a survivor's measurements were agreed on
        assertThat(ci.measuredByRank()).isNotZero();
        assertThat(ci.decidedAtIteration()).isEqualTo(decision);
    }

    private static void assertFormula(RunReport.CheckpointInterval ci, int iterations) {
        assertThat(ci).isNotNull();
        assertThat(ci.mtbfSeconds()).isEqualTo(MTBF_SECONDS);
        assertThat(ci.measuredCheckpointMillis()).isCloseTo(CheckpointIntervalDecision.costMillis(
                ci.measuredCopyMillis(), ci.measuredReplicationMillis()), within(1e-9));
        assertThat(ci.chosenInterval()).isEqualTo(CheckpointIntervalDecision.chooseInterval(
                ci.measuredCheckpointMillis(), ci.measuredIterationMillis(), MTBF_SECONDS, iterations));
        assertThat(ci.chosenInterval()).isBetween(1, iterations);
    }

    private static String reference(int iterations) {
        SequentialJacobi seq = new SequentialJacobi(new JacobiProblem(NX, NY));
        seq.iterate(iterations);
        return seq.digest();
    }

    private static Set<ValidationMessage> schemaErrors(RunReport report, Path dir)
            throws IOException {
        JsonSchema schema;
        try (InputStream in = Files.newInputStream(Path.of("..", "docs", "report.schema.json"))) {
            schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(in);
        }
        Path file = dir.resolve("report.json");
        RunReports.write(report, file);
        return schema.validate(new ObjectMapper().readTree(file.toFile()));
    }
}
