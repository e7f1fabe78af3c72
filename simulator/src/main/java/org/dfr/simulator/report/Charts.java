package org.dfr.simulator.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.dfr.simulator.sweep.CheckpointOptimum;
import org.dfr.simulator.sweep.PointSummary;
import org.dfr.simulator.sweep.QuadraticFit;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The simulator's PNG plots (XChart): the paper's Fig. 6 a/b/c per decomposition, and the checkpoint sweep. */
public final class Charts {

    private static final int WIDTH = 900;
    private static final int HEIGHT = 600;

    private Charts() {
    }

    /** Fig. 6a: recomputed iterations per node against nodes, one series per strategy (mean, sd bars). */
    public static void recomputed(Path file, String title, List<PointSummary> points, List<String> strategies, boolean logX) {
        boolean logY = spansDecades(points, strategies, PointSummary::recomputedPerNodeMean);
        XYChart chart = chart(logY ? title + " (log scale, no error bars)" : title, "nodes",
                "recomputed iterations per node", logX);
        // global's tens of thousands flattened DFR and the message log onto the axis (a walk-through)
        chart.getStyler().setYAxisLogarithmic(logY);
        for (String s : strategies) {
            if (logY) {
                addSeries(chart, s, points, s, PointSummary::recomputedPerNodeMean, null);
            } else {
                addSeries(chart, s, points, s, PointSummary::recomputedPerNodeMean, PointSummary::recomputedPerNodeSd);
            }
        }
        save(chart, file);
    }

    /**
     * Whether {@code strategies}' values in {@code points} are all positive and span two decades or more: a linear
     * axis then shows the small ones as zero. (Error bars are left out on a log axis, where a mean minus its
     * deviation can be below zero.)
     */
    static boolean spansDecades(List<PointSummary> points, List<String> strategies, ToDoubleFunction<PointSummary> value) {
        double[] values = points.stream().filter(p -> strategies.contains(p.strategy())).mapToDouble(value).toArray();
        if (values.length == 0 || Arrays.stream(values).anyMatch(v -> !(v > 0))) {
            return false;
        }
        return Arrays.stream(values).max().orElseThrow() / Arrays.stream(values).min().orElseThrow() >= 100;
    }

    /** Fig. 6c: simulated runtime against nodes, one series per strategy. */
    public static void runtime(Path file, String title, List<PointSummary> points, List<String> strategies, boolean logX) {
        XYChart chart = chart(title, "nodes", "runtime (h)", logX);
        for (String s : strategies) {
            addSeries(chart, s, points, s, PointSummary::runtimeHoursMean, PointSummary::runtimeHoursSd);
        }
        save(chart, file);
    }

    /** Fig. 6b: DFR's energy saving against global rollback, with the fitted quadratic and its coefficients. */
    public static void energySaving(Path file, String title, List<PointSummary> points, QuadraticFit fit, boolean logX) {
        XYChart chart = chart(title, "nodes", "energy saved by DFR vs global (MJ)", logX);
        boolean logY = logX && points.stream().filter(p -> p.strategy().equals("dfr"))
                .allMatch(p -> p.savingVsGlobalMegajoulesMean() > 0);
        chart.getStyler().setYAxisLogarithmic(logY);
        if (!logY) {
            // XChart's own pattern wrote ".08" beside "0.1" on one axis
            chart.getStyler().setYAxisDecimalPattern("0.###");
        }
        if (logY) {
            List<PointSummary> dfr = points.stream().filter(p -> p.strategy().equals("dfr"))
                    .sorted(Comparator.comparingInt(PointSummary::nodes)).toList();
            chart.addSeries("dfr (mean over seeds)", dfr.stream().mapToDouble(PointSummary::nodes).toArray(),
                    dfr.stream().mapToDouble(PointSummary::savingVsGlobalMegajoulesMean).toArray());
        } else {
            addSeries(chart, "dfr (mean, sd over seeds)", points, "dfr", PointSummary::savingVsGlobalMegajoulesMean,
                    PointSummary::savingVsGlobalMegajoulesSd);
        }
        if (fit != null) {
            double[] xs = points.stream().filter(p -> p.strategy().equals("dfr")).mapToDouble(PointSummary::nodes)
                    .sorted().toArray();
            int samples = 200;
            double[] fx = new double[samples];
            double[] fy = new double[samples];
            double lo = xs[0];
            double hi = xs[xs.length - 1];
            int kept = 0;
            for (int i = 0; i < samples; i++) {
                double u = i / (samples - 1.0);
                double x = logX ? lo * Math.pow(hi / lo, u) : lo + (hi - lo) * u;
                double y = fit.at(x);
                if (!logY || y > 0) {
                    fx[kept] = x;
                    fy[kept++] = y;
                }
            }
            XYSeries f = chart.addSeries("fit " + fit.formula(), Arrays.copyOf(fx, kept),
                    Arrays.copyOf(fy, kept));
            f.setMarker(SeriesMarkers.NONE);
        }
        save(chart, file);
    }

    /** Runtime against the checkpoint interval, with each strategy's simulated optimum and Young/Daly's interval. */
    public static void checkpointInterval(Path file, String title, List<PointSummary> points, List<String> strategies,
                                          List<CheckpointOptimum> optima) {
        XYChart chart = chart(title, "checkpoint interval K (iterations)", "runtime (h)", false);
        // below the plot: inside, the legend covered the Young/Daly line and the optima near the small intervals
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
        double lo = points.stream().mapToDouble(p -> p.runtimeHoursMean() - p.runtimeHoursSd()).min().orElse(0);
        double hi = points.stream().mapToDouble(p -> p.runtimeHoursMean() + p.runtimeHoursSd()).max().orElse(1);
        for (String s : strategies) {
            List<PointSummary> mine = points.stream().filter(p -> p.strategy().equals(s)).toList();
            double[] x = mine.stream().mapToDouble(PointSummary::checkpointEvery).toArray();
            double[] y = mine.stream().mapToDouble(PointSummary::runtimeHoursMean).toArray();
            double[] e = mine.stream().mapToDouble(PointSummary::runtimeHoursSd).toArray();
            chart.addSeries(s, x, y, e);
        }
        for (CheckpointOptimum o : optima) {
            XYSeries best = chart.addSeries(String.format(Locale.ROOT, "%s simulated optimum K=%d", o.strategy(),
                    o.simulatedBestK()), new double[] {o.simulatedBestK()}, new double[] {o.simulatedBestRuntimeHours()});
            best.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            best.setMarker(SeriesMarkers.DIAMOND);
        }
        if (!optima.isEmpty()) {
            double k = optima.get(0).youngDalyIterations();
            XYSeries young = chart.addSeries(String.format(Locale.ROOT, "Young/Daly sqrt(2 C M) = %.1f s = %.2f iterations",
                    optima.get(0).youngDalySeconds(), k), new double[] {k, k}, new double[] {lo, hi});
            young.setMarker(SeriesMarkers.NONE);
        }
        save(chart, file);
    }

    private static XYChart chart(String title, String x, String y, boolean logX) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(x).yAxisTitle(y).build();
        Styler.LegendPosition position = Styler.LegendPosition.InsideNW;
        chart.getStyler().setLegendPosition(position);
        chart.getStyler().setXAxisLogarithmic(logX);
        chart.getStyler().setErrorBarsColorSeriesColor(true);
        chart.getStyler().setXAxisDecimalPattern(logX ? "0" : "#");
        return chart;
    }

    private static void addSeries(XYChart chart, String name, List<PointSummary> points, String strategy,
                                  ToDoubleFunction<PointSummary> mean, ToDoubleFunction<PointSummary> sd) {
        List<PointSummary> mine = points.stream().filter(p -> p.strategy().equals(strategy))
                .sorted(Comparator.comparingInt(PointSummary::nodes)).toList();
        if (mine.isEmpty()) {
            return;
        }
        double[] x = mine.stream().mapToDouble(PointSummary::nodes).toArray();
        double[] y = mine.stream().mapToDouble(mean).toArray();
        if (sd == null) {
            chart.addSeries(name, x, y);
        } else {
            chart.addSeries(name, x, y, mine.stream().mapToDouble(sd).toArray());
        }
    }

    private static void save(XYChart chart, Path file) {
        try {
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
