package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import org.apache.commons.math3.distribution.TDistribution;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.harness.Runner;
import org.dfr.harness.experiment.Experiment;
import org.dfr.harness.experiment.ExperimentSpec;
import org.dfr.harness.experiment.RunRow;
import org.dfr.harness.experiment.Schedule;
import org.dfr.power.meter.PowerModel;
import org.dfr.power.sysfs.FakeCpufreqTree;
import org.dfr.recovery.FaultPlan;
import org.dfr.runtime.kernel.KernelChoice;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small energy experiment (2x4 ranks on 4 hosts of 2, 64x64 cells, rank 1 killed at iteration 4, the three
 * variants twice each) on the load model and a fake cpufreq tree per host: summary.json agrees with runs.csv,
 * the schedule is the seed's, the capped phase appears for the idle host, every title says "model", and the
 * PNGs are real images.
 */
class ExperimentIT {

    @TempDir
    static Path tmp;

    static Path out;
    static Experiment.Result result;
    static ExperimentSpec spec;

    @BeforeAll
    static void runExperiment() throws IOException {
        Path file = tmp.resolve("small.yaml");
        Files.writeString(file, """
                name: small
                kernel: jacobi2d5
                cells: [64, 64]
                ranksGrid: [2, 4]
                iterations: 8
                checkpointEvery: 8
                failures: ["1@4"]
                repetitions: 2
                warmups: 0
                seed: 42
                idlePowerWatts: 40
                busyPowerWatts: 120
                modelIdleClockShare: 0.25
                fakeSysfs: true
                samplePeriodMillis: 20
                """);
        spec = ExperimentSpec.read(file).orElse(ExperimentSpec.defaults());
        out = tmp.resolve("out");
        result = new Experiment(spec, out).specFile(file).run();
    }

    private static List<Map<String, String>> csv(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        String[] header = lines.get(0).split(",", -1);
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split(",", -1);
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.length; i++) {
                row.put(header[i], cells[i]);
            }
            rows.add(row);
        }
        return rows;
    }

    @Test
    void summaryStatisticsAreThoseOfTheRunsRows() throws IOException {
        assertThat(result.failures()).isEmpty();
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertThat(summary.path("provenance").path("jvm").asText()).isNotEmpty();
        List<Map<String, String>> runs = csv(out.resolve("runs.csv"));
        assertThat(runs).hasSize(6);
        for (String variant : List.of("global", "dfr", "dfr+capping")) {
            for (String metric : List.of("solver_joules", "recovery_joules", "recovery_wall_ms",
                    "recomputed_partition_iterations", "idle_host_watts", "participating_host_watts")) {
                double[] values = runs.stream().filter(r -> r.get("variant").equals(variant))
                        .map(r -> r.get(metric.equals("recovery_wall_ms") ? "recovery_wall_ms" : metric))
                        .filter(s -> !s.isEmpty()).mapToDouble(Double::parseDouble).toArray();
                JsonNode stats = summary.path("variants").path(variant).path("metrics").path(metric);
                assertThat(stats.path("n").asInt()).as(variant + " " + metric).isEqualTo(values.length);
                if (values.length == 0) {
                    continue;
                }
                double mean = (values[0] + values[values.length - 1]) / 2;
                assertThat(values).hasSize(2);
                double sd = Math.abs(values[0] - values[1]) / Math.sqrt(2);
                double half = new TDistribution(1).inverseCumulativeProbability(0.975) * sd / Math.sqrt(2);
                assertThat(stats.path("mean").asDouble()).as(variant + " " + metric).isCloseTo(mean, within(1e-5));
                assertThat(stats.path("sd").asDouble()).isCloseTo(sd, within(1e-5));
                if (sd > 0) {
                    // every metric is at least 0: the interval is floored there (t reached below 0 J with 2 runs)
                    assertThat(stats.path("ci95").get(0).asDouble()).isCloseTo(Math.max(0, mean - half), within(1e-4));
                    assertThat(stats.path("ci95").get(1).asDouble()).isCloseTo(mean + half, within(1e-4));
                }
            }
        }
        // the recovery is the cone of the plan in both dfr variants, everything under global rollback
        assertThat(summary.path("variants").path("dfr").path("metrics").path("recomputed_partition_iterations")
                .path("mean").asDouble()).isLessThan(summary.path("variants").path("global").path("metrics")
                .path("recomputed_partition_iterations").path("mean").asDouble());
    }

    @Test
    void recoveryEnergyOverRecoveryWallIsAPowerTheHostsCanDraw() throws IOException {
        // 4 hosts of at most 120 W: the joules and the milliseconds of a recovery cover the same window (death to
        // resume); the milliseconds from detection only made this 1.5 to 2 times the hosts' maximum
        for (Map<String, String> run : csv(out.resolve("runs.csv"))) {
            double joules = Double.parseDouble(run.get("recovery_joules"));
            double seconds = Double.parseDouble(run.get("recovery_wall_ms")) / 1000;
            assertThat(seconds).as("run %s", run.get("run")).isPositive();
            // sampled energy is cut at sample boundaries (20 ms here): allow one period on either side
            assertThat(joules / (seconds + 0.04)).as("run %s: W", run.get("run")).isLessThanOrEqualTo(4 * 120.0);
        }
    }

    @Test
    void theSameSeedGivesTheSameSchedule() throws IOException {
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        List<Schedule.Entry> expected = Schedule.of(spec);
        assertThat(Schedule.of(ExperimentSpec.read(out.resolve("experiment.json")))).isEqualTo(expected);
        JsonNode schedule = summary.path("schedule");
        assertThat(schedule.size()).isEqualTo(expected.size());
        List<Map<String, String>> runs = csv(out.resolve("runs.csv"));
        for (int i = 0; i < expected.size(); i++) {
            assertThat(schedule.get(i).path("variant").asText()).isEqualTo(expected.get(i).variant().label());
            assertThat(runs.get(i).get("variant")).isEqualTo(expected.get(i).variant().label());
            assertThat(runs.get(i).get("run")).isEqualTo(Integer.toString(expected.get(i).index()));
        }
        // the same failure in every run: the same recomputed work within a variant
        for (String variant : List.of("global", "dfr", "dfr+capping")) {
            assertThat(runs.stream().filter(r -> r.get("variant").equals(variant))
                    .map(r -> r.get("recomputed_partition_iterations")).distinct()).hasSize(1);
        }
    }

    @Test
    void modelEverywhereAndTheIdleHostIsCappedOnlyWithCapping() throws IOException {
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertThat(summary.path("meter").path("source").asText()).isEqualTo("model");
        assertThat(summary.path("meter").path("title").asText()).startsWith("model: P_idle=40.0 W, P_busy=120.0 W");
        assertThat(Files.readString(out.resolve("index.html"))).contains("[model: P_idle=40.0 W");
        assertThat(Files.readAllLines(out.resolve("summary.csv")).subList(1, 5)).allMatch(l -> l.endsWith(",model"));
        assertThat(Files.exists(out.resolve("experiment-input.yaml"))).isTrue();
        List<Map<String, String>> samples = csv(out.resolve("samples.csv"));
        Set<String> cappedHosts = new HashSet<>();
        Set<String> cappedVariants = new HashSet<>();
        for (Map<String, String> s : samples) {
            assertThat(s.get("source")).isEqualTo("model");
            if (s.get("phase").equals("capped")) {
                cappedHosts.add(s.get("host"));
                cappedVariants.add(s.get("variant"));
            }
        }
        // while idle: P_idle uncapped; capped to 1.2 of 2.6 GHz, 40 * (0.75 + 0.25 * 1.2 / 2.6) by the model's law
        JsonNode variants = summary.path("variants");
        assertThat(variants.path("dfr").path("metrics").path("idle_phase_watts").path("mean").asDouble())
                .isCloseTo(40.0, within(1e-6));
        assertThat(variants.path("dfr+capping").path("metrics").path("idle_phase_watts").path("mean").asDouble())
                .isCloseTo(40 * (0.75 + 0.25 * 1.2 / 2.6), within(1e-6));
        double capSaving = 100 * 0.25 * (1 - 1.2 / 2.6);
        assertThat(summary.path("cappingVsDfr").path("savingPercent").asDouble()).isCloseTo(capSaving, within(1e-4));
        // the saving over the repetitions' pairs (dfr and dfr+capping of the same round), with its interval: the
        // same in every pair, so an interval of no width
        JsonNode saving = summary.path("cappingVsDfr");
        assertThat(saving.path("pairs").asInt()).isEqualTo(2);
        assertThat(saving.path("savingPercentSd").asDouble()).isCloseTo(0, within(1e-6));
        assertThat(saving.path("savingPercentCi95").get(0).asDouble()).isCloseTo(capSaving, within(1e-4));
        assertThat(saving.path("savingPercentCi95").get(1).asDouble()).isCloseTo(capSaving, within(1e-4));
        assertThat(Files.readAllLines(out.resolve("summary.csv")))
                .anyMatch(l -> l.startsWith("dfr+capping,idle_phase_saving_vs_dfr_percent,%,2,"));
        // the capped window of this tiny run lasts a few sampling periods at most, and under load none
        // may fall in it; the timeline's idle power above already proves the phase was capped
        assertThat(cappedVariants).isSubsetOf("dfr+capping");
        assertThat(cappedHosts).isSubsetOf("host3");
        // the long phases are always sampled; the short ones (a checkpoint of 64x64 cells, a detection)
        // may fall between two samples of this tiny run
        assertThat(samples.stream().map(s -> s.get("phase")).distinct()).contains("start-up", "compute", "finish")
                .containsAnyOf("detection", "agreement", "recovery-active", "recovery-idle", "capped")
                .isSubsetOf("start-up", "compute", "checkpoint", "detection", "agreement", "recovery-active",
                        "recovery-idle", "capped", "finish");
    }

    @Test
    void plotsAreImages() throws IOException {
        BufferedImage fig5 = ImageIO.read(out.resolve("fig5-power.png").toFile());
        assertThat(fig5.getWidth()).isEqualTo(1800);
        assertThat(fig5.getHeight()).isEqualTo(840);
        assertThat(colours(fig5)).isGreaterThan(20);
        assertThat(hasColour(fig5, 20, 150, 60)).as("the dfr+capping curve").isTrue();
        assertThat(hasColour(fig5, 200, 30, 30)).as("the global curve").isTrue();
        BufferedImage energy = ImageIO.read(out.resolve("energy.png").toFile());
        assertThat(energy.getWidth()).isEqualTo(900);
        assertThat(energy.getHeight()).isEqualTo(480);
        assertThat(colours(energy)).isGreaterThan(5);
        BufferedImage recovery = ImageIO.read(out.resolve("recovery.png").toFile());
        assertThat(recovery.getWidth()).isEqualTo(1280);
        assertThat(recovery.getHeight()).isEqualTo(420);
        assertThat(colours(recovery)).isGreaterThan(5);
    }

    /**
     * 2x4, rank 1 killed at 7 after checkpoint 0: m = 6 reaches every partition, so dfr is global rollback and no host
     * idles; and a sysfs tree with no cpufreq policy, so the capping variant caps nothing. Both used to finish without
     * a word (idle-host figures "n/a", capped 0 s).
     */
    @Test
    void when_dfrRanGlobalRollbackAndCappingCouldCapNothing_then_theNotesSaySo() throws IOException {
        Path file = tmp.resolve("notes.yaml");
        Path emptyTree = Files.createDirectories(tmp.resolve("no-cpufreq"));
        Files.writeString(file, """
                name: notes
                kernel: jacobi2d5
                cells: [32, 32]
                ranksGrid: [2, 4]
                iterations: 8
                checkpointEvery: 8
                failures: ["1@7"]
                variants: [dfr, dfr+capping]
                repetitions: 1
                warmups: 0
                idlePowerWatts: 40
                busyPowerWatts: 120
                samplePeriodMillis: 20
                sysfsRoot: %s
                """.formatted(emptyTree));

        Experiment.Result r = new Experiment(ExperimentSpec.read(file).orElse(ExperimentSpec.defaults()),
                tmp.resolve("notes")).specFile(file).run();

        assertThat(r.failures()).isEmpty();
        assertThat(r.notes()).anySatisfy(n -> assertThat(n).startsWith("dfr: in runs [")
                .contains("the cone covered every partition: dfr ran global rollback, and no host was idle (m = 6)"));
        assertThat(r.notes()).anySatisfy(n -> assertThat(n).startsWith("dfr+capping: in runs [")
                .contains("no host could be capped: the runs went on uncapped"));
        assertThat(Files.readString(tmp.resolve("notes").resolve("summary.json"))).contains("no host could be capped");
    }

    @Test
    void when_noMeterAndAKernelOption_then_theOptionIsUsed_andNoPowerPlots_andTheIndexAndResultSayWhy() throws IOException {
        Path file = tmp.resolve("no-meter.yaml");
        Files.writeString(file, """
                name: no-meter
                kernel: heat1d3
                kernelOptions: {boundary: periodic}
                cells: [64]
                ranksGrid: [4]
                iterations: 6
                checkpointEvery: 6
                failures: ["0@3"]
                variants: [dfr]
                repetitions: 1
                warmups: 0
                samplePeriodMillis: 20
                """);
        Path noMeter = tmp.resolve("no-meter");

        Experiment.Result r = new Experiment(ExperimentSpec.read(file).orElse(ExperimentSpec.defaults()), noMeter).specFile(file).run();

        assertThat(r.failures()).isEmpty();
        // the kernel's option reached the runs: partition 0's cone wraps, level 1 = {3, 0, 1}, level 2 = {0}
        // (with the fixed boundary it would be {0, 1} and {0}: 3)
        assertThat(csv(noMeter.resolve("runs.csv"))).singleElement()
                .satisfies(row -> assertThat(Double.parseDouble(row.get("recomputed_partition_iterations"))).isEqualTo(4.0));
        // no load model given: only a machine with readable RAPL (not this VM, not CI) would measure anything
        assumeThat(r.summary()).extractingByKey("meter").asString().contains("source=none");
        assertThat(noMeter.resolve("recovery.png")).exists();
        assertThat(noMeter.resolve("fig5-power.png")).doesNotExist();
        assertThat(noMeter.resolve("energy.png")).doesNotExist();
        assertThat(r.notes()).singleElement().asString()
                .startsWith("fig5-power.png and energy.png are not drawn: no power was measured (meter none");
        assertThat(Files.readString(noMeter.resolve("index.html")))
                .contains("fig5-power.png and energy.png are not drawn").doesNotContain("<img src=\"fig5-power.png\"");
        // the figures of the experiment with a meter are all drawn, with nothing to explain
        assertThat(result.notes()).isEmpty();
        assertThat(noMeter.resolve("samples.csv")).exists();
        assertThat(noMeter.resolve("samples.csv.part")).doesNotExist();
    }

    @Test
    void when_interruptedAfterTheFirstRun_then_onlyAPartialSamplesFileAndNoSummary() throws IOException {
        Path file = tmp.resolve("interrupted.yaml");
        Files.writeString(file, """
                name: interrupted
                cells: [32, 32]
                ranksGrid: [2, 2]
                iterations: 4
                checkpointEvery: 4
                failures: ["1@2"]
                variants: [global, dfr]
                repetitions: 1
                warmups: 0
                samplePeriodMillis: 20
                """);
        Path interrupted = tmp.resolve("interrupted");
        Experiment experiment = new Experiment(ExperimentSpec.read(file).orElse(ExperimentSpec.defaults()), interrupted).specFile(file)
                .listener(new Experiment.Listener() {
                    @Override
                    public void finished(Schedule.Entry entry, RunRow row) {
                        throw new IllegalStateException("interrupted after run " + entry.index());
                    }
                });

        assertThatThrownBy(experiment::run).hasMessage("interrupted after run 1");

        assertThat(interrupted.resolve("samples.csv")).doesNotExist();
        assertThat(Files.readAllLines(interrupted.resolve("samples.csv.part")))
                .first().asString().startsWith("run,variant,repetition,warmup,loop_seconds,");
        assertThat(Files.readString(interrupted.resolve("samples.csv.part"))).endsWith("\n");
        assertThat(interrupted.resolve("runs.csv")).doesNotExist();
        assertThat(interrupted.resolve("summary.json")).doesNotExist();
        assertThat(interrupted.resolve("index.html")).doesNotExist();
    }

    @Test
    void runWritesItsTimeSeriesWithTheDocumentedHeader() throws IOException {
        Path fake = FakeCpufreqTree.create(tmp.resolve("run-sysfs"), 4, 1_200_000, 2_600_000);
        Path csv = tmp.resolve("run-samples.csv");
        RunConfig config = RunConfig.of(
                        KernelChoice.of("jacobi2d5"), List.of(64, 64), List.of(2, 4), 8, 8)
                .withFaults(List.of(FaultPlan.parseKill("1@4")), List.of(), Set.of())
                .withCapping(true, fake, tmp.resolve("run-journals")).withSamplePeriodMillis(20L);
        RunReport report = new Runner()
                .powerModel(new PowerModel(40, 120)).samples(csv).run(config);
        List<Map<String, String>> rows = csv(csv);
        assertThat(Files.readAllLines(csv).get(0))
                .isEqualTo("timestamp,epoch_millis,seconds,host,phase,watts,source,source_detail");
        for (Map<String, String> r : rows) {
            assertThat(Instant.parse(r.get("timestamp")).toEpochMilli())
                    .isEqualTo(Long.parseLong(r.get("epoch_millis")));
            assertThat(r.get("source")).isEqualTo("model");
            assertThat(r.get("source_detail")).isEqualTo("model(P_idle=40.0 W; P_busy=120.0 W)");
        }
        assertThat(rows.stream().map(r -> r.get("host")).distinct()).containsExactly("host0", "host1", "host2", "host3");
        assertThat(rows.stream().filter(r -> r.get("host").equals("host3")).map(r -> r.get("phase")))
                .contains("start-up", "finish").last().isEqualTo("finish");
        Map<String, Object> energy = report.energy();
        assertThat(energy.get("source")).isEqualTo("model");
        assertThat(((Map<?, ?>) energy.get("startUp")).get("joules")).isInstanceOf(Number.class);
        // a phase without time is left out: in one JVM the survivors learn of a death when it happens (session 38), and
        // a detection of 0 ms has no phase
        boolean detectionTookTime = report.recoveries().get(0).detectionMillis() > 0;
        for (Object host : (List<?>) energy.get("hosts")) {
            Map<?, ?> phases = (Map<?, ?>) ((Map<?, ?>) host).get("phases");
            assertThat(phases.containsKey("start-up")).isFalse();
            assertThat(phases.containsKey("compute")).isTrue();
            if (detectionTookTime) {
                assertThat(phases.containsKey("detection")).isTrue();
            }
            assertThat(phases.containsKey("agreement")).isTrue();
        }
        assertThat(((List<?>) ((Map<?, ?>) energy.get("timeline")).get("recoveries"))).hasSize(1);
    }

    private static int colours(BufferedImage image) {
        Set<Integer> seen = new HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 3) {
            for (int x = 0; x < image.getWidth(); x += 3) {
                seen.add(image.getRGB(x, y));
            }
        }
        return seen.size();
    }

    private static boolean hasColour(BufferedImage image, int r, int g, int b) {
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y);
                if (Math.abs(((rgb >> 16) & 255) - r) < 8 && Math.abs(((rgb >> 8) & 255) - g) < 8
                        && Math.abs((rgb & 255) - b) < 8) {
                    return true;
                }
            }
        }
        return false;
    }
}
