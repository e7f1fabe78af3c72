package org.dfr.harness.experiment;

import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A grouped bar chart of means with each 95 % interval drawn from its low to its high end, as summary.csv gives it
 * (floored at 0 for quantities that cannot be negative).
 *
 * <p>Drawn on an {@link XYChart}, bars as filled rectangles, not as XChart's category bars: their error bars are
 * symmetric about the mean, so an interval floored at 0 was drawn with a whisker below the axis (and, where the
 * floored width was used, with its top too low).
 */
final class IntervalBars {

    /** The series name of an interval ends with this and its position (bars and sweep plots alike). */
    static final String INTERVAL = "95 % interval";
    /** Share of a group's unit width its bars take together. */
    private static final double GROUP_WIDTH = 0.8;

    /** One series of bars: its name (in the legend), colour, and statistics per group. */
    record Series(String name, Color colour, List<Stats> perGroup) {
    }

    private IntervalBars() {
    }

    /**
     * Adds {@code series} to {@code chart} over {@code groups} (x = 1, 2, ... labelled with the groups' names), the
     * y axis from 0.
     */
    static void draw(XYChart chart, List<String> groups, List<Series> series) {
        double width = GROUP_WIDTH / series.size();
        for (int j = 0; j < series.size(); j++) {
            Series s = series.get(j);
            for (int g = 0; g < groups.size(); g++) {
                Stats stats = s.perGroup().get(g);
                double mean = Double.isFinite(stats.mean()) ? stats.mean() : 0;
                double left = g + 1 - GROUP_WIDTH / 2 + j * width;
                XYSeries bar = chart.addSeries(g == 0 ? s.name() : s.name() + " " + g,
                        new double[] {left, left, left + width, left + width}, new double[] {0, mean, mean, 0});
                bar.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.PolygonArea);
                bar.setFillColor(s.colour());
                bar.setLineColor(s.colour());
                bar.setMarker(SeriesMarkers.NONE);
                bar.setLineStyle(SeriesLines.SOLID);
                bar.setShowInLegend(g == 0);
                addInterval(chart, s.name() + " " + INTERVAL + " " + g, left + width / 2,
                        new double[] {stats.ci95Low(), stats.ci95High()});
            }
        }
        labelGroups(chart, groups);
        chart.getStyler().setYAxisMin(0.0);
    }

    /**
     * Draws {@code interval} ({low, high}; nothing when either is NaN) at {@code x} as a black vertical segment, not
     * in the legend: the intervals of these bars and of the sweep plots' points ({@link SweepPlots}).
     */
    static void addInterval(XYChart chart, String name, double x, double[] interval) {
        if (!Double.isFinite(interval[0]) || !Double.isFinite(interval[1])) {
            return;
        }
        XYSeries segment = chart.addSeries(name, new double[] {x, x}, new double[] {interval[0], interval[1]});
        segment.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        segment.setMarker(SeriesMarkers.NONE);
        segment.setLineColor(Color.BLACK);
        segment.setLineStyle(SeriesLines.SOLID);
        segment.setShowInLegend(false);
    }

    /** The x axis: each group's name at its position 1, 2, ... */
    private static void labelGroups(XYChart chart, List<String> groups) {
        List<String> names = new ArrayList<>(groups);
        // XChart widens its ticks until every label it makes is unique, past the axis's ends too, and steps from the
        // axis's minimum: so the axis runs from 0 to one past the last group, whole numbers, each labelled apart (a
        // group its name, the two ends blanks of different lengths, a position past them, never drawn, its number);
        // with blank labels alike, or an axis from 0.5, the variants' names came out as no tick at all
        chart.getStyler().setxAxisTickLabelsFormattingFunction(v -> {
            long i = Math.round(v);
            if (Math.abs(v - i) > 1e-9) {
                return "";
            }
            if (i == 0) {
                return " ";
            }
            if (i == names.size() + 1) {
                return "  ";
            }
            return i >= 1 && i <= names.size() ? names.get((int) i - 1) : Long.toString(i);
        });
        chart.getStyler().setXAxisMin(0.0);
        chart.getStyler().setXAxisMax(groups.size() + 1.0);
    }
}
