package org.dfr.harness.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

/** The sweep plots' x axis and the points' intervals, from summaries written by hand. */
class SweepPlotsTest {

    private static final String RECOMPUTED = "recomputed_partition_iterations";

    /**
     * Counts two apart: XChart's own ticks were 2.2, 2.4, ...; the ticks between two counts now have no label, and
     * the axis ends on counts (with ends that format alike, as "" and "" did, XChart draws a single tick).
     */
    @Test
    void when_theSweptSettingIsACount_then_onlyWholeTicksAreLabelled() {
        XYChart chart = plotsOf("fail-iteration=2,4").chart(RECOMPUTED);

        Function<Double, String> label = chart.getStyler().getxAxisTickLabelsFormattingFunction();
        assertThat(label).isNotNull();
        assertThat(label.apply(2.0)).isEqualTo("2");
        assertThat(label.apply(3.0)).isEqualTo("3");
        assertThat(label.apply(2.2)).isEmpty();
        assertThat(chart.getStyler().getXAxisMin()).isEqualTo(1.0);
        assertThat(chart.getStyler().getXAxisMax()).isEqualTo(5.0);
        assertThat(label.apply(chart.getStyler().getXAxisMin())).isNotEqualTo(label.apply(chart.getStyler().getXAxisMax()));
    }

    @Test
    void when_theSweptSettingIsFractional_then_xChartLabelsItsOwnTicks() {
        XYChart chart = plotsOf("model-alpha=0.5,2").chart(RECOMPUTED);

        assertThat(chart.getStyler().getxAxisTickLabelsFormattingFunction()).isNull();
        assertThat(chart.getStyler().getXAxisMin()).isNull();
    }

    @Test
    void when_aPointHasTwoOrMoreRuns_then_itsIntervalIsTheSummarysAndNoneBelowTwo() {
        ExperimentSweep.Point twoRuns = point("2", stats(3.0, 1.5, 4.5));
        ExperimentSweep.Point oneRun = point("4", stats(9.0, null, null));

        assertThat(twoRuns.interval(Variant.DFR, RECOMPUTED)).containsExactly(1.5, 4.5);
        assertThat(twoRuns.mean(Variant.DFR, RECOMPUTED)).isEqualTo(3.0);
        assertThat(oneRun.interval(Variant.DFR, RECOMPUTED)).containsExactly(Double.NaN, Double.NaN);
        assertThat(oneRun.mean(Variant.DFR, RECOMPUTED)).isEqualTo(9.0);
        // a variant not run at the point
        assertThat(twoRuns.interval(Variant.GLOBAL, RECOMPUTED)).containsExactly(Double.NaN, Double.NaN);
    }

    /**
     * An interval floored at 0 is not symmetric about its mean: XChart's error bars drew mean +- half its width,
     * [-1.5, 7.5] for [0, 9] about 3 (the top too low, the bottom below 0). Each interval is now its own segment.
     */
    @Test
    void when_anIntervalIsFlooredAtZero_then_itIsDrawnFromZeroToItsHighEnd() {
        Sweep s = Sweep.parse("fail-iteration=2,4");
        List<ExperimentSweep.Point> points = List.of(point("2", stats(3.0, 0.0, 9.0)), point("4", stats(5.0, null, null)));
        XYChart chart = new SweepPlots(specOf(s), points).chart(RECOMPUTED);

        List<XYSeries> intervals = chart.getSeriesMap().values().stream()
                .filter(series -> series.getName().contains(IntervalBars.INTERVAL)).toList();
        assertThat(intervals).hasSize(1);
        assertThat(intervals.get(0).getYData()).containsExactly(0.0, 9.0);
        assertThat(intervals.get(0).isShowInLegend()).isFalse();
        XYSeries means = chart.getSeriesMap().get(Variant.DFR.label());
        assertThat(means.getYData()).containsExactly(3.0, 5.0);
        assertThat(means.getExtraValues()).as("no symmetric error bars").isNull();
    }

    /** Values that are no numbers: the positions are the ticks, and the axis title says which value each is. */
    @Test
    void when_theSweptValuesAreNoNumbers_then_theAxisTitleNamesEachPosition() {
        XYChart chart = plotsOf("fail=1@4,1@4+6@4").chart(RECOMPUTED);

        assertThat(chart.getXAxisTitle()).isEqualTo("fail (1: 1@4, 2: 1@4+6@4)");
        Function<Double, String> label = chart.getStyler().getxAxisTickLabelsFormattingFunction();
        assertThat(label.apply(1.0)).isEqualTo("1");
        assertThat(label.apply(2.0)).isEqualTo("2");
        assertThat(label.apply(1.5)).isEmpty();
    }

    @Test
    void when_aVariantHadIdleHostsWithWatts_then_sweepPowerPngIsDrawn_andNotWithoutThem(@TempDir Path dir)
            throws Exception {
        Sweep s = Sweep.parse("fail-iteration=2,4");
        List<ExperimentSweep.Point> withWatts = new ArrayList<>();
        List<ExperimentSweep.Point> without = new ArrayList<>();
        for (String value : s.values()) {
            withWatts.add(pointWith(value, Map.of(RECOMPUTED, stats(1.0, 0.5, 1.5), "idle_host_watts",
                    stats(52, 50.0, 54.0))));
            without.add(pointWith(value, Map.of(RECOMPUTED, stats(1.0, 0.5, 1.5))));
        }

        new SweepPlots(specOf(s), withWatts).writeAll(Files.createDirectories(dir.resolve("with")));
        new SweepPlots(specOf(s), without).writeAll(Files.createDirectories(dir.resolve("without")));

        assertThat(ImageIO.read(dir.resolve("with/sweep-power.png").toFile()).getWidth()).isGreaterThan(500);
        assertThat(dir.resolve("without/sweep-power.png")).doesNotExist();
    }

    private static SweepPlots plotsOf(String sweep) {
        Sweep s = Sweep.parse(sweep);
        List<ExperimentSweep.Point> points = new ArrayList<>();
        for (String value : s.values()) {
            points.add(point(value, stats(1.0, 0.5, 1.5)));
        }
        return new SweepPlots(specOf(s), points);
    }

    private static ExperimentSpec specOf(Sweep s) {
        return ExperimentSpec.builder().variants(List.of(Variant.GLOBAL, Variant.DFR)).sweep(s).build()
                .orElse(ExperimentSpec.defaults());
    }

    private static ExperimentSweep.Point point(String value, Map<String, Object> dfrStats) {
        return pointWith(value, Map.of(RECOMPUTED, dfrStats));
    }

    /** A point whose dfr variant has {@code metrics}' statistics (by summary.json's metric names). */
    private static ExperimentSweep.Point pointWith(String value, Map<String, Map<String, Object>> metrics) {
        Map<String, Object> summary = Map.of("variants", Map.of(Variant.DFR.label(), Map.of("metrics", metrics)));
        return new ExperimentSweep.Point(value, null, value,
                new Experiment.Result(Path.of(value), List.of(), summary, List.of(), List.of()));
    }

    /** summary.json's statistics of one metric; a null bound as it writes them below two runs */
    private static Map<String, Object> stats(double mean, Double low, Double high) {
        return Map.of("mean", mean, "ci95", Arrays.asList(low, high));
    }
}
