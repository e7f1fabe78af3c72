package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.dfr.harness.experiment.ExperimentSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code dfr experiment} prints at the end, against the files it wrote. */
class ExperimentCommandTest {

    /** One row of the sweep's console table: value, variant, solver J (low..high), recovery J (low..high), ... */
    private static final Pattern SWEEP_ROW = Pattern.compile(
            "^(\\d+)\\s+(global|dfr)\\s+([\\d.]+) \\(([\\d.]+)\\.\\.([\\d.]+)\\)\\s+([\\d.]+) \\(([\\d.]+)\\.\\.([\\d.]+)\\)"
                    + "\\s+\\S+\\s+[\\d.]+\\s+([\\d.]+)\\s+0$");

    /**
     * A sweep of the failure's iteration on two ranks, one per host, two measured runs per variant:
     * <pre>
     *   p0 -- p1      rank 1 dies at iteration 2 or 3, K = 2
     * </pre>
     * The console's table gives each point's mean and 95 % interval of the energies, the same figures sweep.csv holds,
     * and the recomputed work of each strategy.
     */
    @Test
    void when_aKernelOfOtherAxesIsGivenAlone_then_theDefaultCellsAndRanksAreShapedToIt() {
        ExperimentSpec defaults = ExperimentSpec.defaults(); // 256x256 on 2x4

        ExperimentSpec oneAxis = ExperimentCommand.shapedToKernel(
                defaults.toBuilder().kernel("heat1d3").build(), false, false);
        ExperimentSpec threeAxes = ExperimentCommand.shapedToKernel(
                defaults.toBuilder().kernel("heat3d7").build(), false, false);

        assertThat(oneAxis.cells()).containsExactly(65536);
        assertThat(oneAxis.ranksGrid()).containsExactly(8);
        assertThat(threeAxes.cells()).containsExactly(40, 40, 40);
        assertThat(threeAxes.ranksGrid()).containsExactly(2, 2, 2);
    }

    @Test
    void when_theCellsOrRanksWereGiven_then_theyAreKept() {
        ExperimentSpec given = ExperimentSpec.defaults().toBuilder().kernel("heat1d3").cells(List.of(300)).build();

        ExperimentSpec shaped = ExperimentCommand.shapedToKernel(given, true, false);

        assertThat(shaped.cells()).containsExactly(300);
        assertThat(shaped.ranksGrid()).containsExactly(8);
        // a grid given for 2 axes stays, for the spec's check to refuse with the kernel's axes
        assertThat(ExperimentCommand.shapedToKernel(given, true, true).ranksGrid()).containsExactly(2, 4);
    }

    @Test
    void when_aSweepRepeatsEachRun_then_itsTablePrintsTheIntervalsOfSweepCsv(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("sweep");
        CliRun run = CliRun.of("experiment", "--cells", "16x16", "--ranks-grid", "1x2", "--ranks-per-host", "1",
                "--iterations", "4", "--fail", "1@3", "--checkpoint-every", "2", "--repetitions", "2", "--warmups", "0",
                "--variants", "global,dfr", "--idle-power-watts", "40", "--busy-power-watts", "80",
                "--sweep", "fail-iteration=2,3", "--out", out.toString());

        assertThat(run.code()).as(run.err()).isZero();
        // the header names no failure the sweep replaced: 1@3 is no point's
        assertThat(run.out().lines().findFirst()).get().asString().contains("[16, 16] cells on [1, 2] ranks, 4 iterations,"
                + " failures (swept),").doesNotContain("1@3");
        // every run in one table: 2 points x 2 variants x 2 repetitions, each with its point's value
        List<String> runs = Files.readAllLines(out.resolve("sweep-runs.csv"));
        assertThat(runs.get(0)).startsWith("parameter,value,run,variant,repetition,warmup,");
        assertThat(runs.subList(1, runs.size())).hasSize(8)
                .filteredOn(l -> l.startsWith("fail-iteration,3,")).hasSize(4);
        Map<String, String[]> csv = new HashMap<>();
        List<String> lines = Files.readAllLines(out.resolve("sweep.csv"));
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            csv.put(f[1] + "," + f[2] + "," + f[3], f); // value, variant, metric
        }
        Map<String, Double> recomputed = new HashMap<>();
        int rows = 0;
        for (String line : run.out().split("\n")) {
            Matcher m = SWEEP_ROW.matcher(line);
            if (!m.find()) {
                continue;
            }
            rows++;
            String key = m.group(1) + "," + m.group(2);
            assertInterval(m.group(3), m.group(4), m.group(5), csv.get(key + ",solver_joules"));
            assertInterval(m.group(6), m.group(7), m.group(8), csv.get(key + ",recovery_joules"));
            recomputed.put(key, Double.parseDouble(m.group(9)));
        }
        assertThat(rows).as(run.out()).isEqualTo(4);
        // m = 0: the failed partition alone against both; m = 1: the cone covers both partitions under either strategy
        assertThat(recomputed).containsEntry("2,dfr", 1.0).containsEntry("2,global", 2.0)
                .containsEntry("3,dfr", 4.0).containsEntry("3,global", 4.0);
    }

    private static void assertInterval(String mean, String low, String high, String[] csvRow) {
        assertThat(csvRow).isNotNull();
        // sweep.csv: parameter,value,variant,metric,unit,n,mean,sd,ci95_low,ci95_high,source
        assertThat(mean).isEqualTo(oneDecimal(csvRow[6]));
        assertThat(low).isEqualTo(oneDecimal(csvRow[8]));
        assertThat(high).isEqualTo(oneDecimal(csvRow[9]));
        // two runs may cost the same to a tenth of a joule on a quiet machine: the interval then prints as one value
        assertThat(Double.parseDouble(mean)).isBetween(Double.parseDouble(low), Double.parseDouble(high));
    }

    private static String oneDecimal(String value) {
        return String.format(Locale.ROOT, "%.1f", Double.parseDouble(value));
    }
}
