package org.dfr.harness.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import org.dfr.power.energy.Phase;
import org.dfr.power.timeline.TimelineSample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

class PlotsTest {

    /**
     * fig5-power.png shades a run's phases from its own times: detection from the failure (t = 0, the axis's
     * origin) on, not from the sample before it, which is labelled by where it ends.
     * <pre>
     *   run time (s):   10.0 detection   10.3 agreement   10.5 recovery   11.2 resume
     *   axis (s):        0.0                               0.5             1.2
     * </pre>
     */
    @Test
    void when_aRunsPhasesAreShaded_then_theSpansAreItsOwnTimesFromTheFailureOn() {
        Map<String, Object> timeline = Map.of("recoveries", List.of(Map.of("detectionStartSeconds", 10.0,
                "agreementStartSeconds", 10.3, "recoveryStartSeconds", 10.5, "resumeSeconds", 11.2)));

        assertThat(Plots.windows(timeline, 10.0, "detectionStartSeconds", "recoveryStartSeconds"))
                .singleElement().satisfies(w -> assertThat(w).containsExactly(0.0, 0.5));
        assertThat(Plots.windows(timeline, 10.0, "recoveryStartSeconds", "resumeSeconds"))
                .singleElement().satisfies(w -> assertThat(w[0]).isEqualTo(0.5))
                .satisfies(w -> assertThat(w[1]).isCloseTo(1.2, offset(1e-9)));
    }

    /** Samples every 0.1 s; those at 10.6 and 10.7 s are labelled capped: the host was capped over (10.5, 10.7]. */
    @Test
    void when_samplesAreLabelledCapped_then_theShadedSpanCoversTheirPeriods() {
        List<TimelineSample> series = new ArrayList<>();
        for (int i = 100; i <= 110; i++) {
            Phase phase = i == 106 || i == 107 ? Phase.CAPPED : Phase.RECOVERY_IDLE;
            series.add(new TimelineSample(i * 100L, i * 0.1, "host1", phase, 50.0, null, null));
        }

        List<double[]> capped = Plots.cappedIntervals(series, 10.0);

        assertThat(capped).singleElement().satisfies(w -> {
            assertThat(w[0]).isCloseTo(0.5, offset(1e-9));
            assertThat(w[1]).isCloseTo(0.7, offset(1e-9));
        });
    }

    /**
     * Three hosts, one run per variant: 3 panels, which XChart's merge refused in a 2-column grid (the experiment
     * failed after every run had finished).
     */
    @Test
    void when_theHostCountIsOdd_then_fig5PowerStacksOnePanelPerHost(@TempDir Path out) throws Exception {
        ExperimentSpec spec = ExperimentSpec.builder().variants(List.of(Variant.GLOBAL, Variant.DFR))
                .samplePeriodMillis(100L).build().orElse(ExperimentSpec.defaults());
        List<String> hosts = List.of("host0", "host1", "host2");
        List<RunRow> rows = new ArrayList<>();
        Map<Integer, List<TimelineSample>> samples = new HashMap<>();
        for (int run = 0; run < 2; run++) {
            Variant v = run == 0 ? Variant.GLOBAL : Variant.DFR;
            rows.add(new RunRow(run, v, 0, "model", 1000, 300, 20, 5, 40, 200, v == Variant.GLOBAL ? 24 : 9,
                    v == Variant.GLOBAL ? Set.of() : Set.of("host2"), Set.of("host0", "host1"), 40, 120, 40, 0,
                    Map.of(), "digest", 0.01));
            List<TimelineSample> series = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                for (String h : hosts) {
                    Phase phase = i < 10 ? Phase.COMPUTE : i < 15 ? Phase.DETECTION : i < 20 ? Phase.RECOVERY_ACTIVE
                            : Phase.COMPUTE;
                    // host2 draws more than the others: one scale for all panels must still fit it
                    series.add(new TimelineSample(i * 100L, i * 0.1, h, phase, h.equals("host2") ? 200.0 : 100.0,
                            "model", "test"));
                }
            }
            samples.put(run, series);
        }

        Plots plots = new Plots(spec, "model", rows, samples, Map.of());
        plots.writeAll(out);

        assertThat(plots.files()).contains("fig5-power.png", "energy.png", "recovery.png");
        BufferedImage fig5 = ImageIO.read(out.resolve("fig5-power.png").toFile());
        assertThat(fig5.getWidth()).isEqualTo(900);
        assertThat(fig5.getHeight()).isEqualTo(3 * 420);
    }

    @Test
    void when_aVariantRunsAlone_then_itKeepsItsOwnColour() {
        assertThat(Plots.colour(Variant.DFR)).isNotEqualTo(Plots.colour(Variant.GLOBAL));
        assertThat(Plots.colour(Variant.DFR_CAPPING)).isNotEqualTo(Plots.colour(Variant.DFR))
                .isNotEqualTo(Plots.colour(Variant.GLOBAL));
        assertThat(Plots.colour(Variant.GLOBAL)).isEqualTo(Plots.VARIANT_COLORS[0]);
    }

    /**
     * Two runs of dfr, 10 J and 110 J of the loop: the 95 % interval of the mean, 60 +- 635, is floored at 0 as in
     * summary.csv. XChart's category error bars drew it symmetric, from -575 J (below the axis) to 695 J; energy.png
     * now draws [0, 695] as it is.
     *
     *   J
     *   695 -  |
     *          |
     *    60 - [#]
     *     0 +--+------
     *         dfr
     */
    @Test
    void when_anIntervalIsFlooredAtZero_then_energyPngDrawsItFromZeroToItsHighEnd() {
        ExperimentSpec spec = ExperimentSpec.builder().variants(List.of(Variant.DFR)).build()
                .orElse(ExperimentSpec.defaults());
        List<RunRow> rows = List.of(row(0, 10), row(1, 110));
        Stats expected = Stats.of(new double[] {10, 110}).atLeastZero();

        XYChart chart = new Plots(spec, "model", rows, Map.of(), Map.of()).energyChart();

        XYSeries interval = chart.getSeriesMap().get("solver total " + IntervalBars.INTERVAL + " 0");
        assertThat(interval).isNotNull();
        assertThat(expected.ci95Low()).isZero();
        assertThat(interval.getYData()).containsExactly(0.0, expected.ci95High());
        assertThat(Arrays.stream(chart.getSeriesMap().get("solver total").getYData()).max().orElseThrow())
                .as("the bar's top, the mean").isEqualTo(60.0);
        assertThat(chart.getStyler().getxAxisTickLabelsFormattingFunction().apply(1.0)).isEqualTo("dfr");
    }

    private static RunRow row(int run, double solverJoules) {
        return new RunRow(run, Variant.DFR, run, "model", 1000, solverJoules, 20, 5, solverJoules / 10, 200, 9,
                Set.of("host1"), Set.of("host0"), 40, 120, 40, 0, Map.of(), "digest", 0.01);
    }
}
