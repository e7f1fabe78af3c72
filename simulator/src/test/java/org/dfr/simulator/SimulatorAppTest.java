package org.dfr.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dfr.simulator.report.CsvFiles;
import org.dfr.simulator.sweep.PointSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulatorAppTest {

    @Test
    void when_no_failure_happens_at_a_point_then_a_note_says_its_rows_are_failure_free(@TempDir Path dir)
            throws Exception {
        // 4 nodes of 10^6 hours each, 50 iterations: no failure in any seed
        SimulateOptions options = SimulateOptions.defaults().toBuilder().preset("custom")
                .nodes(List.of(4)).dimensions(List.of(1)).seeds(2).iterations(50).mtbfHours(1e6)
                .skipCheckpointSweep(true).threads(2).out(dir).build();
        ByteArrayOutputStream text = new ByteArrayOutputStream();

        SimulatorApp.Report report = SimulatorApp.run(options, new PrintStream(text, true, StandardCharsets.UTF_8));

        assertThat(report.points()).allSatisfy(p -> assertThat(p.failuresMean()).isZero());
        assertThat(text.toString(StandardCharsets.UTF_8)).contains("note: no failure happened in any seed at 4 nodes (1D)"
                + " in 50 iterations");
    }

    @Test
    void when_the_nodes_are_swept_in_2d_then_the_checkpoint_sweep_is_2d_too(@TempDir Path dir) throws Exception {
        SimulateOptions options = SimulateOptions.defaults().toBuilder().preset("custom")
                .nodes(List.of(16)).dimensions(List.of(2)).seeds(2).iterations(200)
                .mtbfHours(2).checkpointSweep(List.of(2, 4)).checkpointSweepNodes(64).threads(2).out(dir).build();
        ByteArrayOutputStream text = new ByteArrayOutputStream();

        SimulatorApp.run(options, new PrintStream(text, true, StandardCharsets.UTF_8));

        assertThat(CsvFiles.read(dir.resolve("checkpoint-interval.csv"), PointSummary.class))
                .isNotEmpty().allSatisfy(p -> assertThat(p.dimensions()).isEqualTo(2));
        assertThat(text.toString(StandardCharsets.UTF_8)).contains("checkpoint interval, 2D, 64 nodes");
    }

    @Test
    void when_a_small_custom_sweep_runs_then_csv_and_png_files_describe_every_point(@TempDir Path dir) throws Exception {
        SimulateOptions options = SimulateOptions.defaults().toBuilder().preset("custom")
                .nodes(List.of(16, 32, 64, 128)).dimensions(List.of(1, 2)).seeds(3).iterations(300)
                .mtbfHours(2).checkpointSweep(List.of(2, 4, 8)).checkpointSweepNodes(32).threads(2).out(dir).build();
        ByteArrayOutputStream text = new ByteArrayOutputStream();

        SimulatorApp.Report report = SimulatorApp.run(options, new PrintStream(text, true, StandardCharsets.UTF_8));

        List<PointSummary> rows = CsvFiles.read(dir.resolve("points.csv"), PointSummary.class);
        assertThat(rows).hasSize(4 * 2 * 3).isEqualTo(report.points());
        assertThat(rows).allSatisfy(r -> assertThat(r.failuresMean()).isPositive());
        for (int d = 1; d <= 2; d++) {
            for (String name : List.of("recomputed-", "energy-saving-", "runtime-")) {
                Path png = dir.resolve(name + d + "d.png");
                assertThat(Files.size(png)).isGreaterThan(1000);
            }
        }
        assertThat(report.fits()).hasSize(2);
        assertThat(CsvFiles.read(dir.resolve("checkpoint-interval.csv"), PointSummary.class)).hasSize(3 * 3);
        assertThat(report.optima()).allSatisfy(o -> assertThat(o.simulatedBestK()).isIn(2, 4, 8));
        assertThat(Files.size(dir.resolve("checkpoint-interval.png"))).isGreaterThan(1000);
        assertThat(text.toString(StandardCharsets.UTF_8)).contains("tasks/s per core");
        assertThat(report.tasksSimulated()).isGreaterThan((4L * 2 + 3) * 3 * 3 * 300 * 16);
    }

    @Test
    void when_global_and_dfr_compete_at_growing_scale_then_global_recomputation_per_node_grows_and_dfr_stays_flat(
            @TempDir Path dir) {
        SimulateOptions options = SimulateOptions.defaults().toBuilder().preset("custom")
                .nodes(List.of(50, 400)).dimensions(List.of(1)).seeds(6).iterations(500).mtbfHours(20)
                .skipCheckpointSweep(true).threads(2).out(dir).build();

        List<PointSummary> rows = SimulatorApp.run(options, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8)).points();

        PointSummary global50 = find(rows, "global", 50);
        PointSummary global400 = find(rows, "global", 400);
        PointSummary dfr50 = find(rows, "dfr", 50);
        PointSummary dfr400 = find(rows, "dfr", 400);
        assertThat(global400.recomputedPerNodeMean()).isGreaterThan(4 * global50.recomputedPerNodeMean());
        assertThat(dfr400.recomputedPerNodeMean()).isLessThan(2 * dfr50.recomputedPerNodeMean() + 0.05);
        assertThat(dfr400.savingVsGlobalMegajoulesMean()).isGreaterThan(10 * dfr50.savingVsGlobalMegajoulesMean());
    }

    private static PointSummary find(List<PointSummary> rows, String strategy, int nodes) {
        return rows.stream().filter(r -> r.strategy().equals(strategy) && r.nodes() == nodes).findFirst().orElseThrow();
    }

    @Test
    void when_an_option_is_bad_then_the_message_names_the_value_and_what_is_allowed() {
        SimulateOptions.Builder b = SimulateOptions.defaults().toBuilder();

        assertThatThrownBy(() -> b.preset("fig7").build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fig7").hasMessageContaining("paper-fig6, quick, custom");
        assertThatThrownBy(() -> SimulateOptions.defaults().toBuilder().dimensions(List.of(4)).build())
                .hasMessageContaining("1, 2 or 3").hasMessageContaining("4");
        assertThatThrownBy(() -> SimulateOptions.defaults().toBuilder().seeds(0).build())
                .hasMessageContaining("seeds").hasMessageContaining("0");
        assertThatThrownBy(() -> SimulateOptions.defaults().toBuilder().taskJitter(1.5).build())
                .hasMessageContaining("taskJitter").hasMessageContaining("1.5");
        assertThatThrownBy(() -> SimulateOptions.defaults().toBuilder().preset("custom").build())
                .hasMessageContaining("nodes");
        assertThatThrownBy(() -> Strategy.parse("replay")).hasMessageContaining("replay")
                .hasMessageContaining("global, dfr, message-log");
    }

    @Test
    void when_the_paper_preset_is_resolved_then_it_covers_100_to_1000_and_the_extended_points() {
        SimulateOptions options = SimulateOptions.defaults();

        assertThat(options.resolvedNodes()).startsWith(100, 200, 300).contains(1000, 10_000, 100_000).hasSize(12);
        assertThat(options.resolvedDimensions()).containsExactly(1, 2, 3);
        assertThat(options.seeds()).isEqualTo(10);
        assertThat(options.checkpointEvery()).isEqualTo(6);
        assertThat(options.failureModel().nodeMtbfSeconds()).isEqualTo(360_000.0);
        assertThat(options.resolvedCheckpointSweep()).contains(1, 6, 16);
    }

    /** Every run stops at its failure cap: no rate of 0 tasks/s, which read as a broken simulator, but why. */
    @Test
    void when_everyRunStopsAtTheFailureCap_then_theSummaryLineSaysSoInsteadOfARate(@TempDir Path dir) throws Exception {
        SimulateOptions options = SimulateOptions.defaults().toBuilder().preset("custom")
                .nodes(List.of(1000)).dimensions(List.of(1)).seeds(1).iterations(300).mtbfHours(0.01)
                .skipCheckpointSweep(true).maxFailures(1).threads(2).out(dir).build();
        ByteArrayOutputStream text = new ByteArrayOutputStream();

        SimulatorApp.Report report = SimulatorApp.run(options, new PrintStream(text, true, StandardCharsets.UTF_8));

        assertThat(report.tasksSimulated()).isZero();
        assertThat(text.toString(StandardCharsets.UTF_8))
                .contains("simulated no run to its end (each stopped at --max-failures)").doesNotContain("tasks/s");
    }
}
