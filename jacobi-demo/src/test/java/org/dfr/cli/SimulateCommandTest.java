package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.dfr.simulator.report.CsvFiles;
import org.dfr.simulator.sweep.KernelSeedRow;
import org.dfr.simulator.sweep.KernelStrategySummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulateCommandTest {

    @Test
    void when_aSmallSweepIsSimulated_then_csvRowsAndReadablePlotsAreWritten(@TempDir Path dir) throws Exception {
        CliRun r = CliRun.of("simulate", "--preset", "custom", "--nodes", "16,32", "--dimensions", "1", "--seeds", "2",
                "--iterations", "120", "--mtbf-hours", "2", "--skip-checkpoint-sweep", "--out", dir.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("tasks/s");
        List<String> points = Files.readAllLines(dir.resolve("points.csv"));
        // a header and one row per (node count, strategy) at least
        assertThat(points.size()).isGreaterThanOrEqualTo(1 + 2 * 3);
        // Jackson quoted every string longer than 24 characters, headers too: only what needs quotes is quoted
        assertThat(points.get(0)).contains(",recomputedPerRecoveryMean,").doesNotContain("\"");
        // two node counts are too few for the quadratic fit of the saving: said, not silently left out
        assertThat(r.out()).contains("no fits.csv: fitting a + b P + c P^2 to DFR's saving needs 3 or more node counts");
        assertThat(dir.resolve("fits.csv")).doesNotExist();
        BufferedImage plot = ImageIO.read(dir.resolve("recomputed-1d.png").toFile());
        assertThat(plot.getWidth()).isGreaterThan(200);
        assertThat(plot.getHeight()).isGreaterThan(200);
        // a drawn plot is not one colour
        assertThat(plot.getRGB(plot.getWidth() / 2, plot.getHeight() / 2)).withFailMessage("the plot looks empty")
                .isNotEqualTo(plot.getRGB(2, 2));
    }

    /**
     * At 32 and 2000 nodes with a 3-minute MTBF the runs stop at --max-failures before they complete: their figures
     * stay in points.csv, but not in the plots or the fit (global's recomputation at 10^5 nodes read 0, drawn as a
     * line falling to 0, and fitted with the others).
     */
    @Test
    void when_runsStopAtTheFailureCap_then_theirNodeCountsAreLeftOutOfThePlotsAndFits(@TempDir Path dir) throws Exception {
        CliRun r = CliRun.of("simulate", "--preset", "custom", "--nodes", "8,16,32,2000", "--dimensions", "1", "--seeds",
                "1", "--iterations", "60", "--mtbf-hours", "0.05", "--skip-checkpoint-sweep", "--threads", "1",
                "--max-failures", "300", "--out", dir.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("so their figures are of partial runs (in points.csv; left out of the plots and"
                + " fits): global at 32 nodes (1D)").contains("global at 2000 nodes (1D)")
                .contains("needs 3 or more node counts per dimension whose runs all completed");
        assertThat(dir.resolve("fits.csv")).doesNotExist();
        assertThat(Files.readString(dir.resolve("points.csv"))).contains(",2000,");
    }

    @Test
    void when_theSweptIntervalsAllLieOnOneSideOfTheOptimum_then_theOptimumIsSaidToBeAtTheEdge(@TempDir Path dir) {
        CliRun r = CliRun.of("simulate", "--preset", "custom", "--nodes", "16", "--dimensions", "1", "--seeds", "2",
                "--iterations", "120", "--mtbf-hours", "2", "--checkpoint-sweep", "1,2", "--checkpoint-sweep-nodes", "16",
                "--out", dir.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        // two intervals: an optimum at K = 2 may lie beyond the sweep and is flagged; K = 1 is the smallest interval
        // there is, so an optimum there is not
        List<String> optima = r.out().lines().filter(l -> l.contains("simulated optimum K=")).toList();
        assertThat(optima).isNotEmpty().allSatisfy(line -> {
            if (line.contains("optimum K=2 ")) {
                assertThat(line).contains("at the edge of the sweep 1..2 (widen --checkpoint-sweep)");
            } else {
                assertThat(line).contains("optimum K=1 ").doesNotContain("at the edge");
            }
        });
    }

    @Test
    void when_aKernelIsSimulated_then_everyStrategyIsCompared_andDfrRecomputesLessThanGlobal() {
        CliRun r = CliRun.of("simulate", "--kernel", "heat1d3", "--cells", "400", "--ranks-grid", "100", "--seeds", "2",
                "--iterations", "300", "--mtbf-hours", "5");

        assertThat(r.exitCode()).as(r.err()).isZero();
        double global = recomputed(r.out(), "global");
        double dfr = recomputed(r.out(), "dfr");
        assertThat(global).isPositive();
        assertThat(dfr).isPositive().isLessThan(global);
        assertThat(r.out()).contains("message-log");
    }

    @Test
    void when_aKernelIsSimulatedWithOut_then_everySeedsRowAndTheSummaryAreWrittenAndAgreeWithTheTable(@TempDir Path dir) {
        CliRun r = CliRun.of("simulate", "--kernel", "heat1d3", "--cells", "200", "--ranks-grid", "50", "--seeds", "3",
                "--iterations", "120", "--mtbf-hours", "3", "--out", dir.toString());

        assertThat(r.exitCode()).as(r.err()).isZero();
        List<KernelSeedRow> rows = CsvFiles.read(dir.resolve(SimulateCommand.KERNEL_SEEDS_CSV), KernelSeedRow.class);
        List<KernelStrategySummary> summary = CsvFiles.read(dir.resolve(SimulateCommand.KERNEL_SUMMARY_CSV),
                KernelStrategySummary.class);
        assertThat(rows).hasSize(3 * 3).allSatisfy(row -> {
            assertThat(row.kernel()).isEqualTo("heat1d3");
            assertThat(row.partitions()).isEqualTo(50);
            assertThat(row.completed()).isTrue();
        });
        assertThat(rows).extracting(KernelSeedRow::seed).containsOnly(1L, 2L, 3L);
        // the strategies of one seed met the same failures
        for (long seed = 1; seed <= 3; seed++) {
            long s = seed;
            assertThat(rows.stream().filter(row -> row.seed() == s).map(KernelSeedRow::failures).distinct()).hasSize(1);
        }
        assertThat(summary).extracting(KernelStrategySummary::strategy).containsExactly("global", "dfr", "message-log");
        for (KernelStrategySummary each : summary) {
            double mean = rows.stream().filter(row -> row.strategy().equals(each.strategy()))
                    .mapToDouble(KernelSeedRow::recomputedPerNode).average().orElseThrow();
            assertThat(each.seeds()).isEqualTo(3);
            assertThat(each.recomputedPerNodeMean()).isCloseTo(mean, within(1e-9));
            assertThat(recomputed(r.out(), each.strategy())).isCloseTo(mean, within(1e-4));
            assertThat(each.recomputedPerNodeCi95()).isNotNull().isGreaterThanOrEqualTo(0);
        }
        assertThat(r.out()).contains("wrote " + dir.resolve(SimulateCommand.KERNEL_SEEDS_CSV));
        try (var left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(
                    SimulateCommand.KERNEL_SEEDS_CSV, SimulateCommand.KERNEL_SUMMARY_CSV);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void when_aKernelsOutIsAFile_then_oneLineAndExitCode2BeforeAnySimulation(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("taken"), "x");

        CliRun r = CliRun.of("simulate", "--kernel", "heat1d3", "--cells", "200", "--ranks-grid", "50", "--out",
                file.toString());

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--out " + file).doesNotContain("Exception");
        assertThat(r.out()).doesNotContain("strategy");
    }

    /**
     * An experiment's directory (runs.csv beside its settings) is no place for a simulation's 14 files: refused in one
     * line before any work. The same simulation run again into its own output replaces it.
     */
    @Test
    void when_outHoldsFilesNotOfASimulation_then_oneLineAndExitCode2_andItsOwnOutputIsReplaced(@TempDir Path dir)
            throws Exception {
        Path experiment = Files.createDirectories(dir.resolve("experiment"));
        Files.writeString(experiment.resolve("runs.csv"), "run,variant\n");
        Path simulation = dir.resolve("simulation");
        String[] sweep = {"simulate", "--preset", "custom", "--nodes", "16", "--dimensions", "1", "--seeds", "1",
            "--iterations", "60", "--mtbf-hours", "2", "--skip-checkpoint-sweep", "--out"};

        CliRun refused = CliRun.of(with(sweep, experiment.toString()));
        CliRun first = CliRun.of(with(sweep, simulation.toString()));
        CliRun again = CliRun.of(with(sweep, simulation.toString()));

        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err().strip()).contains("--out " + experiment + " holds runs.csv").doesNotContain("\n")
                .doesNotContain("Exception");
        try (var left = Files.list(experiment)) {
            assertThat(left.map(p -> p.getFileName().toString())).containsExactly("runs.csv");
        }
        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(simulation.resolve("points.csv")).exists();
    }

    private static String[] with(String[] args, String last) {
        String[] all = java.util.Arrays.copyOf(args, args.length + 1);
        all[args.length] = last;
        return all;
    }

    @Test
    void when_aKernelsRunsWillStopAtTheFailureCap_then_aWarningSaysSoFirst() {
        // 400 partitions, a node MTBF of 0.1 h: the machine fails every 0.9 s, an iteration takes 11 s
        CliRun r = CliRun.of("simulate", "--kernel", "heat1d3", "--cells", "400", "--ranks-grid", "400", "--seeds", "1",
                "--iterations", "20", "--mtbf-hours", "0.1", "--max-failures", "30");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("dfr simulate: warning: at 400 nodes a node fails every 0.900 s on average")
                .contains("whatever the strategy, more than --max-failures 30").contains("a smaller --ranks-grid");
        assertThat(r.out()).containsPattern("(?m)^ *global +[0-9.]+ +30\\.00 ");
    }

    private static double recomputed(String out, String strategy) {
        return out.lines().map(String::trim).filter(l -> l.startsWith(strategy + " ")).findFirst()
                .map(l -> Double.parseDouble(l.split("\\s+")[1])).orElseThrow();
    }
}
