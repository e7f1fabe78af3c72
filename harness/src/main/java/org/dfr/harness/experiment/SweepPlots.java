package org.dfr.harness.experiment;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A sweep's PNG plots: a metric per panel, the swept value on the x axis (spaced by value for a numeric parameter,
 * by position otherwise, labelled with the values), one curve per variant (per variant and value of the second
 * setting in a grid): its mean over the point's repetitions, and the 95 % interval as a vertical segment from the
 * interval's low to its high end, exactly as the point's summary.json gives it. Not XChart's error bars: they are
 * symmetric about the mean, and an interval floored at 0 (every metric here is at least 0) is not.
 *
 * <ol>
 *   <li>{@code sweep-energy.png}: the energy of the loop (start-up and finish excluded) and recovery energy (drawn when a meter or the model gave
 *       watts);</li>
 *   <li>{@code sweep-recovery.png}: recomputed work and recovery wall time;</li>
 *   <li>{@code sweep-power.png}: the idle hosts' power during the recovery, where the capping saving shows (drawn when
 *       a variant had idle hosts and watts; an energy researcher's walk-through found the study's key figure in no
 *       sweep plot).</li>
 * </ol>
 */
final class SweepPlots {

    /** A panel: a metric of summary.json, its title and unit. */
    private record Panel(String metric, String title, String unit) {
    }

    private static final List<Panel> ENERGY = List.of(
            new Panel("solver_joules", "Energy of the loop", "J"),
            new Panel("recovery_joules", "Recovery energy (death to resume)", "J"));
    private static final List<Panel> RECOVERY = List.of(
            new Panel("recomputed_partition_iterations", "Recomputed work", "partition-iterations"),
            new Panel("recovery_wall_ms", "Recovery wall (death to resume)", "ms"));
    private static final List<Panel> POWER = List.of(
            new Panel("idle_host_watts", "Idle hosts' power during the recovery", "W"));

    /** Markers and lines of the second setting's values, in order (the first is a one-setting sweep's). */
    private static final Marker[] BY_MARKERS = {SeriesMarkers.CIRCLE, SeriesMarkers.SQUARE, SeriesMarkers.DIAMOND,
        SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN, SeriesMarkers.CROSS};
    private static final BasicStroke[] BY_LINES = {SeriesLines.SOLID, SeriesLines.DASH_DASH, SeriesLines.DOT_DOT,
        SeriesLines.DASH_DOT};

    private final ExperimentSpec spec;
    private final List<ExperimentSweep.Point> points;
    private final List<String> files = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    SweepPlots(ExperimentSpec spec, List<ExperimentSweep.Point> points) {
        this.spec = spec;
        this.points = points;
    }

    List<String> files() {
        return files;
    }

    List<String> notes() {
        return notes;
    }

    void writeAll(Path out) throws IOException {
        if (ENERGY.stream().anyMatch(this::anyValue)) {
            write(out.resolve("sweep-energy.png"), ENERGY);
        } else {
            notes.add("sweep-energy.png is not drawn: no point measured any energy; give the load model's"
                    + " --idle-power-watts and --busy-power-watts, or run where RAPL is readable");
        }
        write(out.resolve("sweep-recovery.png"), RECOVERY);
        if (POWER.stream().anyMatch(this::anyValue)) {
            write(out.resolve("sweep-power.png"), POWER);
        }
    }

    private void write(Path file, List<Panel> panels) throws IOException {
        List<Chart<?, ?>> charts = new ArrayList<>();
        for (Panel p : panels) {
            charts.add(chart(p));
        }
        BitmapEncoder.saveBitmap(charts, 1, charts.size(), file.toString(), BitmapEncoder.BitmapFormat.PNG);
        files.add(file.getFileName().toString());
    }

    /** @return the panel of {@code metric} (as summary.json names it), as it is drawn */
    XYChart chart(String metric) {
        return chart(Stream.of(ENERGY, RECOVERY, POWER).flatMap(List::stream)
                .filter(p -> p.metric().equals(metric)).findFirst().orElseThrow());
    }

    private XYChart chart(Panel panel) {
        Sweep sweep = spec.sweep();
        boolean grid = sweep.by() != null;
        XYChart chart = new XYChartBuilder().width(560).height(grid ? 520 : 420)
                .title(panel.title() + ", 95 % CI [" + meterKind() + "]").xAxisTitle(xAxisTitle(sweep))
                .yAxisTitle(panel.unit()).build();
        chart.getStyler().setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 10));
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        // a grid's legend names a variant and a value per curve: one curve a line, or it runs off the panel
        chart.getStyler().setLegendLayout(grid ? Styler.LegendLayout.Vertical : Styler.LegendLayout.Horizontal);
        chart.getStyler().setYAxisMin(0.0);
        List<String> values = sweep.values();
        double[] x = xValues();
        // a curve per variant (and per value of the second setting), each a little beside the value, so that intervals
        // of equal means do not hide one another: 1.5 % of the axis's span per curve (the tick still names the value)
        List<String> byValues = sweep.by() == null ? Collections.singletonList(null) : sweep.by().values();
        int curves = spec.variants().size() * byValues.size();
        double lowest = Arrays.stream(x).min().orElse(0);
        double highest = Arrays.stream(x).max().orElse(1);
        double span = highest - lowest;
        double shift = 0.015 * (span > 0 ? span : 1);
        if (!sweep.parameter().numeric() || Arrays.stream(x).allMatch(v -> v == Math.rint(v))) {
            // counts (iterations, ranks per host, ...), and the positions of values that are no numbers: a tick
            // between two of them names no setting, so it has no label (XChart's own ticks on a span of 2 were 2.2,
            // 2.4, ...)
            chart.getStyler().setxAxisTickLabelsFormattingFunction(v -> Math.abs(v - Math.rint(v)) < 1e-9
                    ? String.valueOf(Math.round(v)) : "");
            // and the axis ends on counts: XChart draws one tick alone when both ends format alike ("" and "")
            double outermost = (curves - 1) / 2.0 * shift + shift / 2;
            chart.getStyler().setXAxisMin(Math.floor(lowest - outermost));
            chart.getStyler().setXAxisMax(Math.ceil(highest + outermost));
        }
        int curve = 0;
        for (int b = 0; b < byValues.size(); b++) {
            String byValue = byValues.get(b);
            for (Variant v : spec.variants()) {
                double offset = (curve - (curves - 1) / 2.0) * shift;
                List<Double> xs = new ArrayList<>();
                List<Double> means = new ArrayList<>();
                List<double[]> intervals = new ArrayList<>();
                for (ExperimentSweep.Point p : points) {
                    if (!Objects.equals(p.byValue(), byValue)) {
                        continue;
                    }
                    double mean = p.mean(v, panel.metric());
                    if (Double.isFinite(mean)) {
                        xs.add(x[values.indexOf(p.value())] + offset);
                        means.add(mean);
                        intervals.add(p.interval(v, panel.metric()));
                    }
                }
                curve++;
                if (xs.isEmpty()) {
                    continue;
                }
                // the variant's colour as everywhere; the second setting's value in the marker and the line
                String name = byValue == null ? v.label() : v.label() + ", " + sweep.by().parameter() + "=" + byValue;
                XYSeries s = chart.addSeries(name, xs, means);
                Color c = Plots.colour(v);
                s.setMarker(BY_MARKERS[b % BY_MARKERS.length]);
                s.setLineStyle(BY_LINES[b % BY_LINES.length]);
                s.setLineColor(c);
                s.setMarkerColor(c);
                for (int i = 0; i < xs.size(); i++) {
                    IntervalBars.addInterval(chart, name + " " + IntervalBars.INTERVAL + " " + i, xs.get(i),
                            intervals.get(i));
                }
            }
        }
        return chart;
    }

    /**
     * The x axis's title: the parameter, and for values that are no numbers (failures, grids), which value each
     * position stands for. Not the values as tick labels: XChart widens its ticks until every label it makes, on the
     * axis and past its ends, is unique, and labels that named only the positions of values, blank elsewhere, came
     * out as no tick at all.
     */
    static String xAxisTitle(Sweep sweep) {
        if (sweep.parameter().numeric()) {
            return sweep.parameter().label();
        }
        List<String> values = sweep.values();
        StringBuilder title = new StringBuilder(sweep.parameter().label()).append(" (");
        for (int i = 0; i < values.size(); i++) {
            title.append(i == 0 ? "" : ", ").append(i + 1).append(": ").append(values.get(i));
        }
        return title.append(')').toString();
    }

    /** The x of each value of the swept parameter: the value when numeric, else its position from 1. */
    private double[] xValues() {
        List<String> values = spec.sweep().values();
        double[] x = new double[values.size()];
        for (int i = 0; i < x.length; i++) {
            x[i] = spec.sweep().parameter().numeric() ? Double.parseDouble(values.get(i)) : i + 1;
        }
        return x;
    }

    private boolean anyValue(Panel panel) {
        return points.stream().anyMatch(p -> spec.variants().stream()
                .anyMatch(v -> Double.isFinite(mean(p, v, panel.metric()))));
    }

    /** @return the mean of {@code metric} for {@code variant} at {@code point}; NaN if none */
    static double mean(ExperimentSweep.Point point, Variant variant, String metric) {
        return statsOf(point, variant, metric).get("mean") instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /**
     * @return the 95 % interval of {@code metric}'s mean for {@code variant} at {@code point} as {@code {low, high}};
     *         both NaN when the summary gives none (fewer than two runs, or nothing measured)
     */
    static double[] interval(ExperimentSweep.Point point, Variant variant, String metric) {
        return intervalOf(statsOf(point, variant, metric));
    }

    private static double[] intervalOf(Map<String, Object> stats) {
        if (stats.get("ci95") instanceof List<?> ci
                && ci.get(0) instanceof Number lo && ci.get(1) instanceof Number hi) {
            return new double[] {lo.doubleValue(), hi.doubleValue()};
        }
        return new double[] {Double.NaN, Double.NaN};
    }

    /** @return summary.json's statistics of {@code metric} for {@code variant} at {@code point}, empty if none */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> statsOf(ExperimentSweep.Point point, Variant variant, String metric) {
        Map<String, Object> variants = (Map<String, Object>) point.result().summary().get("variants");
        if (variants.get(variant.label()) instanceof Map<?, ?> entry
                && ((Map<String, Object>) entry.get("metrics")).get(metric) instanceof Map<?, ?> stats) {
            return (Map<String, Object>) stats;
        }
        return Map.of();
    }

    /** The meter's kind for a title ({@code model}, {@code rapl}, {@code perf}, {@code none}): its constants are long. */
    private String meterKind() {
        return Plots.meterKind(meterTitle());
    }

    private String meterTitle() {
        return ExperimentSweep.meterTitle(points);
    }
}
