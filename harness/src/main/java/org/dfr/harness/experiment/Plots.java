package org.dfr.harness.experiment;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import org.dfr.power.energy.Phase;
import org.dfr.power.timeline.TimelineSample;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The experiment's PNG plots, drawn with XChart; every title names the meter ({@code model} with its
 * constants, {@code rapl}, {@code perf} or {@code none}).
 *
 * <ol>
 *   <li>{@code fig5-power.png}: power over time, one panel per host, one curve per variant (mean over the
 *       repetitions on a grid of the sampling period, error bars one standard deviation), time 0 = the failure
 *       (start of detection; the loop's start without one); the phases of the last variant's first repetition
 *       shaded;</li>
 *   <li>{@code energy.png}: energy per variant (solver total, recovery, rest) with 95 % confidence intervals;</li>
 *   <li>{@code recovery.png}: recomputed work and recovery wall time per variant with 95 % confidence intervals.</li>
 * </ol>
 */
final class Plots {

    static final Color[] VARIANT_COLORS = {new Color(200, 30, 30), new Color(30, 90, 200), new Color(20, 150, 60)};
    static final Color SHADE_DETECTION = new Color(120, 120, 120, 60);
    static final Color SHADE_RECOVERY = new Color(255, 200, 0, 60);
    static final Color SHADE_CAPPED = new Color(0, 190, 255, 70);
    /** The bars of energy.png and recovery.png, by series (not by variant: a group of bars is a variant). */
    static final Color[] ENERGY_COLORS = {new Color(80, 110, 250), new Color(255, 190, 60), new Color(160, 70, 250)};
    /** Opacity of a variant's spread band (0-255). */
    static final int BAND_ALPHA = 45;

    private final ExperimentSpec spec;
    private final String meter;
    private final List<RunRow> rows;
    private final Map<Integer, List<TimelineSample>> samples;
    private final Map<Integer, Map<String, Object>> timelines;
    private final List<String> files = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    Plots(ExperimentSpec spec, String meter, List<RunRow> rows, Map<Integer, List<TimelineSample>> samples,
          Map<Integer, Map<String, Object>> timelines) {
        this.spec = spec;
        this.meter = meter;
        this.rows = rows;
        this.samples = samples;
        this.timelines = timelines;
    }

    List<String> files() {
        return files;
    }

    /** Why a plot was left out, one sentence each (empty when every plot was drawn). */
    List<String> notes() {
        return notes;
    }

    void writeAll(Path out) throws IOException {
        if (anyWatts()) {
            power(out.resolve("fig5-power.png"));
            energy(out.resolve("energy.png"));
        } else {
            // a power axis with nothing on it reads as 0 W; better no figure and a sentence saying why
            notes.add("fig5-power.png and energy.png are not drawn: no power was measured (meter " + meter
                    + "); give the load model's --idle-power-watts and --busy-power-watts, or run where RAPL is readable");
        }
        recovery(out.resolve("recovery.png"));
    }

    private boolean anyWatts() {
        return samples.values().stream().flatMap(List::stream).anyMatch(s -> s.watts() != null);
    }

    /** The origin of a run's time axis: the start of its first failure's detection, else its loop's start. */
    private double loopStart(int run) {
        Map<String, Object> t = timelines.getOrDefault(run, Map.of());
        if (t.get("recoveries") instanceof List<?> l && !l.isEmpty() && l.get(0) instanceof Map<?, ?> r
                && r.get("detectionStartSeconds") instanceof Number n) {
            return n.doubleValue();
        }
        Object v = t.get("loopStartSeconds");
        return v instanceof Number n ? n.doubleValue() : 0;
    }

    private List<String> hosts() {
        Set<String> hosts = new TreeSet<>((a, b) -> {
            int c = Integer.compare(a.length(), b.length());
            return c != 0 ? c : a.compareTo(b);
        });
        samples.values().forEach(l -> l.forEach(s -> hosts.add(s.host())));
        return List.copyOf(hosts);
    }

    /** The sample of {@code host} covering time {@code t} (loop-relative), or null. */
    private static TimelineSample at(List<TimelineSample> series, double t) {
        for (TimelineSample s : series) {
            if (s.seconds() >= t) {
                return s;
            }
        }
        return null;
    }

    /** One host's curves: per variant, the mean and sd of its power at every x, cut where its last run ended. */
    private record HostCurves(String host, List<double[]> means, List<double[]> sds, double top) {
    }

    private HostCurves curves(String host, double[] x) {
        double top = 1;
        List<double[]> means = new ArrayList<>();
        List<double[]> sds = new ArrayList<>();
        for (Variant v : spec.variants()) {
            double[] mean = new double[x.length];
            double[] sd = new double[x.length];
            int last = 0;
            List<RunRow> of = rows.stream().filter(r -> r.variant() == v).toList();
            for (int i = 0; i < x.length; i++) {
                double[] values = new double[of.size()];
                for (int k = 0; k < of.size(); k++) {
                    int run = of.get(k).run();
                    List<TimelineSample> series = samples.getOrDefault(run, List.of()).stream()
                            .filter(s -> s.host().equals(host)).toList();
                    TimelineSample s = at(series, x[i] + loopStart(run));
                    values[k] = s == null || s.watts() == null ? Double.NaN : s.watts();
                }
                Stats st = Stats.of(values);
                if (st.n() > 0) {
                    last = i;
                }
                mean[i] = Double.isFinite(st.mean()) ? st.mean() : 0;
                sd[i] = Double.isFinite(st.sd()) ? st.sd() : 0;
                top = Math.max(top, mean[i] + sd[i]);
            }
            // a curve ends where its last run ended
            means.add(Arrays.copyOf(mean, last + 1));
            sds.add(Arrays.copyOf(sd, last + 1));
        }
        return new HostCurves(host, means, sds, top);
    }

    private void power(Path file) throws IOException {
        double step = spec.samplePeriodMillis() / 1000.0;
        double tMax = 0;
        for (Map.Entry<Integer, List<TimelineSample>> e : samples.entrySet()) {
            for (TimelineSample s : e.getValue()) {
                tMax = Math.max(tMax, s.seconds() - loopStart(e.getKey()));
            }
        }
        double tMin = -1.5;
        int points = Math.max(2, (int) Math.ceil((tMax - tMin) / step));
        double[] x = new double[points];
        for (int i = 0; i < points; i++) {
            x[i] = tMin + i * step;
        }
        List<HostCurves> curves = hosts().stream().map(h -> curves(h, x)).toList();
        // one scale for every panel, so that hosts compare at a glance
        double yMax = curves.stream().mapToDouble(HostCurves::top).max().orElse(1);
        Set<String> idleHosts = new TreeSet<>();
        rows.stream().filter(r -> r.variant() != Variant.GLOBAL).forEach(r -> idleHosts.addAll(r.idleHosts()));
        List<XYChart> charts = new ArrayList<>();
        Variant shaded = spec.variants().get(spec.variants().size() - 1);
        RunRow shadedRun = rows.stream().filter(r -> r.variant() == shaded).findFirst().orElse(null);
        for (HostCurves c : curves) {
            String role = idleHosts.contains(c.host()) ? "idle in dfr" : "participating";
            // short titles: with the meter's constants and the shaded run in it, the title ran past both ends of its
            // panel; the constants are in index.html and summary.json
            XYChart chart = new XYChartBuilder().width(900).height(420)
                    .title(c.host() + " (" + role + "): power, mean (line) +- sd (band)")
                    .xAxisTitle("s since the failure (start of detection)"
                            + (shadedRun == null ? "" : "; phases shaded from run " + shadedRun.run() + " (" + shaded + ")"))
                    .yAxisTitle("W (" + meterKind() + ")").build();
            chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
            chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
            chart.getStyler().setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 10));
            chart.getStyler().setMarkerSize(0);
            // fewer, shorter labels: 10.5, 11.5, ... ran into each other
            chart.getStyler().setXAxisDecimalPattern("0.#");
            chart.getStyler().setXAxisTickMarkSpacingHint(60);
            if (shadedRun != null) {
                List<TimelineSample> series = samples.getOrDefault(shadedRun.run(), List.of()).stream()
                        .filter(s -> s.host().equals(c.host())).toList();
                double top = yMax * 1.05;
                double origin = loopStart(shadedRun.run());
                Map<String, Object> timeline = timelines.getOrDefault(shadedRun.run(), Map.of());
                double[] range = {x[0], x[x.length - 1]};
                // the run's own phase times, not the samples': a sample is labelled by where it ends, so shading by
                // samples began a sampling period before the failure (t < 0)
                shade(chart, windows(timeline, origin, "detectionStartSeconds", "recoveryStartSeconds"), range, top,
                        "detect.+agree.", SHADE_DETECTION);
                shade(chart, windows(timeline, origin, "recoveryStartSeconds", "resumeSeconds"), range, top,
                        "recovery", SHADE_RECOVERY);
                shade(chart, cappedIntervals(series, origin), range, top, "capped", SHADE_CAPPED);
            }
            for (int k = 0; k < spec.variants().size(); k++) {
                Variant v = spec.variants().get(k);
                band(chart, v, x, c.means().get(k), c.sds().get(k), colour(v));
            }
            for (int k = 0; k < spec.variants().size(); k++) {
                Variant v = spec.variants().get(k);
                double[] y = c.means().get(k);
                XYSeries s = chart.addSeries(v.label(), Arrays.copyOf(x, y.length), y);
                s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
                s.setMarker(SeriesMarkers.NONE);
                s.setLineColor(colour(v));
            }
            chart.getStyler().setYAxisMin(0.0);
            chart.getStyler().setYAxisMax(yMax * 1.1);
            charts.add(chart);
        }
        // XChart's grid must be full: two columns for an even count, one for an odd one (3 hosts failed to draw)
        int cols = charts.size() % 2 == 0 ? 2 : 1;
        int rowsCount = charts.size() / cols;
        BitmapEncoder.saveBitmap(charts, rowsCount, cols, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        files.add(file.getFileName().toString());
    }

    /** A variant's colour is its own in every plot, whichever variants an experiment runs. */
    static Color colour(Variant v) {
        return VARIANT_COLORS[v.ordinal() % VARIANT_COLORS.length];
    }

    /**
     * The spread of one variant's curve: a closed polygon along mean + sd forwards and mean - sd (not
     * below 0 W) backwards, filled with the variant's colour, translucent so that bands of several
     * variants stay visible where they overlap.
     */
    private static void band(XYChart chart, Variant v, double[] x, double[] mean, double[] sd, Color color) {
        int n = mean.length;
        double[] bx = new double[2 * n];
        double[] by = new double[2 * n];
        for (int i = 0; i < n; i++) {
            bx[i] = x[i];
            by[i] = mean[i] + sd[i];
            bx[2 * n - 1 - i] = x[i];
            by[2 * n - 1 - i] = Math.max(0, mean[i] - sd[i]);
        }
        XYSeries s = chart.addSeries(v.label() + " sd", bx, by);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.PolygonArea);
        s.setMarker(SeriesMarkers.NONE);
        s.setFillColor(new Color(color.getRed(), color.getGreen(), color.getBlue(), BAND_ALPHA));
        s.setLineColor(new Color(0, 0, 0, 0));
        s.setShowInLegend(false);
    }

    /**
     * The spans {@code [from, to)} of every recovery of a run's timeline ({@code recoveries[].from/to}, seconds since
     * the run's start), on the plot's axis (seconds since {@code origin}).
     */
    static List<double[]> windows(Map<String, Object> timeline, double origin, String from, String to) {
        List<double[]> out = new ArrayList<>();
        if (timeline.get("recoveries") instanceof List<?> recoveries) {
            for (Object o : recoveries) {
                if (o instanceof Map<?, ?> r && r.get(from) instanceof Number a && r.get(to) instanceof Number b
                        && b.doubleValue() > a.doubleValue()) {
                    out.add(new double[] {a.doubleValue() - origin, b.doubleValue() - origin});
                }
            }
        }
        return out;
    }

    /**
     * The spans a host spent capped, on the plot's axis: each sample labelled capped covers the period since the
     * sample before it. (A cap shorter than a sampling period that no sample fell in is not drawn.)
     */
    static List<double[]> cappedIntervals(List<TimelineSample> series, double origin) {
        List<double[]> out = new ArrayList<>();
        for (int i = 1; i < series.size(); i++) {
            if (series.get(i).phase() == Phase.CAPPED) {
                double a = series.get(i - 1).seconds() - origin;
                double b = series.get(i).seconds() - origin;
                if (!out.isEmpty() && out.get(out.size() - 1)[1] >= a) {
                    out.get(out.size() - 1)[1] = b;
                } else {
                    out.add(new double[] {a, b});
                }
            }
        }
        return out;
    }

    /** Shades {@code spans} (clipped to {@code range}) from 0 to {@code top}, with a swatch named {@code name}. */
    private static void shade(XYChart chart, List<double[]> spans, double[] range, double top, String name,
                              Color color) {
        List<Double> px = new ArrayList<>();
        List<Double> py = new ArrayList<>();
        for (double[] span : spans) {
            double a = Math.max(span[0], range[0]);
            double b = Math.min(span[1], range[1]);
            if (b <= a) {
                continue;
            }
            // rectangles joined along 0 W: one polygon, whose joins have no area
            px.addAll(List.of(a, a, b, b));
            py.addAll(List.of(0.0, top, top, 0.0));
        }
        if (px.isEmpty()) {
            return;
        }
        XYSeries s = chart.addSeries(name + " ", px.stream().mapToDouble(Double::doubleValue).toArray(),
                py.stream().mapToDouble(Double::doubleValue).toArray());
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.PolygonArea);
        s.setMarker(SeriesMarkers.NONE);
        s.setFillColor(color);
        s.setLineColor(new Color(0, 0, 0, 0));
        s.setShowInLegend(false);
        // the legend draws an area series by its line, which must stay transparent (it would trace 0 W across the
        // plot): the swatch is a series of its own, one point below the axis, drawn nowhere
        XYSeries swatch = chart.addSeries(name, new double[] {px.get(0)}, new double[] {-1});
        swatch.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        swatch.setMarker(SeriesMarkers.NONE);
        swatch.setLineColor(new Color(color.getRed(), color.getGreen(), color.getBlue()));
        swatch.setLineWidth(8f);
    }

    /** The meter's kind for an axis title: {@code model}, {@code rapl}, {@code perf} or {@code none}. */
    private String meterKind() {
        return meterKind(meter);
    }

    /** The kind of the meter titled {@code title}: {@code model}, {@code rapl}, {@code perf} or {@code none}. */
    static String meterKind(String title) {
        String kind = title.split("[:(\\[ ,;]", 2)[0].trim();
        return kind.isEmpty() ? title : kind;
    }

    private void energy(Path file) throws IOException {
        BitmapEncoder.saveBitmap(energyChart(), file.toString(), BitmapEncoder.BitmapFormat.PNG);
        files.add(file.getFileName().toString());
    }

    /** energy.png's chart. */
    XYChart energyChart() {
        // the meter's kind, not its constants: with a model's they ran past the figure's edge (index.html has them)
        XYChart chart = new XYChartBuilder().width(900).height(480)
                .title("Energy of the loop (start-up and finish excluded), 95 % CI [" + meterKind() + "]")
                .xAxisTitle("variant").yAxisTitle("J").build();
        chart.getStyler().setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 12));
        // below, not beside: the title is centred over the plot
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        IntervalBars.draw(chart, variantLabels(), List.of(
                bars("solver total", ENERGY_COLORS[0], RunRow::solverJoules),
                bars("recovery (death to resume)", ENERGY_COLORS[1], RunRow::recoveryJoules),
                bars("rest", ENERGY_COLORS[2], RunRow::restJoules)));
        return chart;
    }

    private void recovery(Path file) throws IOException {
        XYChart work = new XYChartBuilder().width(640).height(420)
                .title("Recomputed work, 95 % CI [" + meterKind() + "]").xAxisTitle("variant")
                .yAxisTitle("partition-iterations").build();
        IntervalBars.draw(work, variantLabels(),
                List.of(bars("recomputed partition-iterations", ENERGY_COLORS[0], RunRow::recomputed)));
        XYChart time = new XYChartBuilder().width(640).height(420)
                .title("Recovery wall, 95 % CI [" + meterKind() + "]").xAxisTitle("variant")
                .yAxisTitle("ms, death to resume").build();
        IntervalBars.draw(time, variantLabels(),
                List.of(bars("recovery wall (death to resume)", ENERGY_COLORS[1], RunRow::recoveryWallMillis)));
        for (XYChart c : List.of(work, time)) {
            c.getStyler().setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 10));
            // one series each, named by the axis title: a legend only covered the tallest bar
            c.getStyler().setLegendVisible(false);
        }
        BitmapEncoder.saveBitmap(List.of(work, time), 1, 2, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        files.add(file.getFileName().toString());
    }

    private List<String> variantLabels() {
        return spec.variants().stream().map(Variant::label).toList();
    }

    /** A series of bars: {@code metric}'s statistics per variant, the interval floored at 0 as in summary.csv. */
    private IntervalBars.Series bars(String name, Color colour, ToDoubleFunction<RunRow> metric) {
        List<Stats> perVariant = new ArrayList<>();
        for (Variant v : spec.variants()) {
            perVariant.add(Stats.of(rows.stream().filter(r -> r.variant() == v).mapToDouble(metric).toArray())
                    .atLeastZero());
        }
        return new IntervalBars.Series(name, colour, perVariant);
    }
}
