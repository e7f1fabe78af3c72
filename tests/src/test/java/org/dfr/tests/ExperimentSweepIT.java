package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.dfr.harness.experiment.Experiment;
import org.dfr.harness.experiment.ExperimentSpec;
import org.dfr.harness.experiment.ExperimentSweep;
import org.dfr.harness.experiment.Schedule;
import org.dfr.harness.experiment.Sweep;
import org.dfr.harness.experiment.Variant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep of the failure's iteration, from an experiment file, on a line of four ranks:
 *
 * <pre>
 *   p0 -- p1 -- p2 -- p3        jacobi2d5 on a 1x4 grid: each partition reads its left and right neighbours
 *         X                     rank 1 dies at the start of iteration m + 1 (checkpoint after iteration 0)
 *
 *   m = 1:  iteration 1: {p1}                         dfr recomputes 1 partition-iteration, global 4
 *   m = 2:  iteration 1: {p0, p1, p2}, 2: {p1}       dfr recomputes 4 partition-iterations, global 8
 * </pre>
 *
 * Each point is a whole experiment in its own directory; sweep.csv holds each point's summary.csv rows behind the
 * parameter and its value, and the recovery plot is a real image.
 */
class ExperimentSweepIT {

    @TempDir
    Path tmp;

    @Test
    void when_theFailureIterationIsSwept_then_eachPointRecomputesItsOwnCone_andTheTablesAgree() throws IOException {
        Path file = Files.writeString(tmp.resolve("sweep.yaml"), """
                kernel: jacobi2d5
                cells: [32, 32]
                ranksGrid: [1, 4]
                iterations: 4
                checkpointEvery: 8
                failures: ["1@3"]
                variants: [global, dfr]
                repetitions: 2
                warmups: 0
                sweep:
                  parameter: fail-iteration
                  values: [2, 3]
                """);
        ExperimentSpec spec = ExperimentSpec.read(file).orElse(ExperimentSpec.defaults());
        Path out = tmp.resolve("out");

        List<Integer> order = new ArrayList<>();
        ExperimentSweep.Result result = new ExperimentSweep(spec, out).specFile(file)
                .listener(new ExperimentSweep.Listener() {
                    @Override
                    public Experiment.Listener runs(int index) {
                        return new Experiment.Listener() {
                            @Override
                            public void starting(Schedule.Entry entry, int total) {
                                order.add(index);
                            }
                        };
                    }
                }).run();

        assertThat(result.anyFailed()).isFalse();
        // interleaved by default: round by round, the point that starts a round rotating
        assertThat(order).containsExactly(1, 1, 0, 0, 0, 0, 1, 1);
        assertThat(result.points()).extracting(ExperimentSweep.Point::directory)
                .containsExactly("01-fail-iteration-2", "02-fail-iteration-3");
        List<String> rows = Files.readAllLines(out.resolve("sweep.csv"));
        assertThat(rows.get(0)).isEqualTo("parameter,value,variant,metric,unit,n,mean,sd,ci95_low,ci95_high,source");
        assertThat(recomputed(rows, "2", "dfr")).isEqualTo(1.0);
        assertThat(recomputed(rows, "2", "global")).isEqualTo(4.0);
        assertThat(recomputed(rows, "3", "dfr")).isEqualTo(4.0);
        assertThat(recomputed(rows, "3", "global")).isEqualTo(8.0);
        // the sweep's table is every point's own, nothing dropped or added
        List<String> expected = new ArrayList<>(List.of(rows.get(0)));
        for (ExperimentSweep.Point p : result.points()) {
            Path dir = out.resolve(p.directory());
            assertThat(dir.resolve("index.html")).isRegularFile();
            assertThat(new ObjectMapper().readTree(dir.resolve("experiment.json").toFile()).path("failures").get(0)
                    .asText()).isEqualTo("1@" + p.value());
            Files.readAllLines(dir.resolve("summary.csv")).stream().skip(1)
                    .forEach(r -> expected.add("fail-iteration," + p.value() + "," + r));
        }
        assertThat(rows).containsExactlyElementsOf(expected);
        BufferedImage plot = ImageIO.read(out.resolve("sweep-recovery.png").toFile());
        assertThat(plot.getWidth()).isGreaterThan(500);
        // no meter: no energy plot, and the result says why
        assertThat(out.resolve("sweep-energy.png")).doesNotExist();
        assertThat(result.notes()).anyMatch(n -> n.startsWith("sweep-energy.png is not drawn"));
        JsonNode json = new ObjectMapper().readTree(out.resolve("sweep.json").toFile());
        assertThat(json.path("sweep").path("parameter").asText()).isEqualTo("fail-iteration");
        assertThat(json.path("points")).hasSize(2);
        assertThat(out.resolve("experiment-input.yaml")).hasSameTextualContentAs(file);
        assertThat(Files.readString(out.resolve("index.html"))).contains("01-fail-iteration-2/index.html");
    }

    @Test
    void when_aSequentialSweepIsInterruptedInItsSecondPoint_then_sweepCsvHoldsTheFirstPointWhole() throws IOException {
        ExperimentSpec spec = ExperimentSpec.builder().cells(List.of(32, 32)).ranksGrid(List.of(1, 4)).iterations(4)
                .checkpointEvery(8).failures(List.of("1@3")).variants(List.of(Variant.DFR)).repetitions(1).warmups(0)
                .sweep(Sweep.parse("checkpoint-every=8,2").withOrder(Sweep.Order.SEQUENTIAL)).build()
                .orElse(ExperimentSpec.defaults());
        Path out = tmp.resolve("interrupted");
        ExperimentSweep sweep = new ExperimentSweep(spec, out).listener(new ExperimentSweep.Listener() {
            @Override
            public Experiment.Listener runs(int index) {
                return new Experiment.Listener() {
                    @Override
                    public void starting(Schedule.Entry entry, int total) {
                        if (index == 1) {
                            throw new IllegalStateException("interrupted in point 2");
                        }
                    }
                };
            }
        });

        assertThatThrownBy(sweep::run).hasMessage("interrupted in point 2");

        List<String> rows = Files.readAllLines(out.resolve("sweep.csv"));
        List<String> first = Files.readAllLines(out.resolve("01-checkpoint-every-8/summary.csv"));
        assertThat(rows).hasSize(first.size()).allSatisfy(r -> assertThat(r).satisfiesAnyOf(
                h -> assertThat(h).startsWith("parameter,value,"), h -> assertThat(h).startsWith("checkpoint-every,8,")));
        assertThat(out.resolve("index.html")).doesNotExist();
        assertThat(out.resolve("02-checkpoint-every-2/summary.json")).doesNotExist();
    }

    /*
     * The same line swept over the failure's iteration by the run's length: the cone depends on m alone, so each
     * column of the grid recomputes what the one-setting sweep above does, and each point runs its own length.
     */
    @Test
    void when_aGridIsSwept_then_eachPairIsAPointAndSweepCsvNamesBothValues() throws IOException {
        ExperimentSpec spec = ExperimentSpec.builder().cells(List.of(32, 32)).ranksGrid(List.of(1, 4)).iterations(4)
                .checkpointEvery(8).failures(List.of("1@3")).variants(List.of(Variant.DFR)).repetitions(1).warmups(0)
                .sweep(Sweep.parse("fail-iteration=2,3").withBy(Sweep.By.parse("iterations=4,5"))).build()
                .orElse(ExperimentSpec.defaults());
        Path out = tmp.resolve("grid");

        ExperimentSweep.Result result = new ExperimentSweep(spec, out).run();

        assertThat(result.anyFailed()).isFalse();
        assertThat(result.points()).extracting(ExperimentSweep.Point::directory).containsExactly(
                "01-fail-iteration-2-iterations-4", "02-fail-iteration-2-iterations-5",
                "03-fail-iteration-3-iterations-4", "04-fail-iteration-3-iterations-5");
        List<String> rows = Files.readAllLines(out.resolve("sweep.csv"));
        assertThat(rows.get(0)).isEqualTo("parameter,value,by_parameter,by_value,variant,metric,unit,n,mean,sd,ci95_low,"
                + "ci95_high,source");
        for (ExperimentSweep.Point p : result.points()) {
            JsonNode point = new ObjectMapper().readTree(out.resolve(p.directory()).resolve("experiment.json").toFile());
            assertThat(point.path("failures").get(0).asText()).isEqualTo("1@" + p.value());
            assertThat(point.path("iterations").asInt()).isEqualTo(Integer.parseInt(p.byValue()));
            String prefix = "fail-iteration," + p.value() + ",iterations," + p.byValue() + ",dfr,"
                    + "recomputed_partition_iterations,";
            assertThat(rows).filteredOn(r -> r.startsWith(prefix)).singleElement()
                    .satisfies(r -> assertThat(Double.parseDouble(r.split(",")[8]))
                            .isEqualTo(p.value().equals("2") ? 1.0 : 4.0));
        }
        assertThat(ImageIO.read(out.resolve("sweep-recovery.png").toFile()).getWidth()).isGreaterThan(500);
        JsonNode json = new ObjectMapper().readTree(out.resolve("sweep.json").toFile());
        assertThat(json.path("sweep").path("by").path("parameter").asText()).isEqualTo("iterations");
        assertThat(json.path("points").get(1).path("byValue").asText()).isEqualTo("5");
        assertThat(Files.readString(out.resolve("index.html"))).contains("<th>iterations</th>");
    }

    private static double recomputed(List<String> rows, String value, String variant) {
        String prefix = "fail-iteration," + value + "," + variant + ",recomputed_partition_iterations,";
        return rows.stream().filter(r -> r.startsWith(prefix)).map(r -> r.split(",")[6]).mapToDouble(Double::parseDouble)
                .findFirst().orElseThrow(() -> new AssertionError("no row " + prefix));
    }
}
