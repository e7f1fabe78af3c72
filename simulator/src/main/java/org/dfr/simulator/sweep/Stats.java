package org.dfr.simulator.sweep;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;

/** Sample mean, standard deviation and Student-t confidence half-width. */
public final class Stats {

    private Stats() {
    }

    /** Mean of the values (0 for none). */
    public static double mean(double[] values) {
        return summary(values).getMean();
    }

    /** Sample standard deviation (0 for fewer than two values). */
    public static double sd(double[] values) {
        return values.length < 2 ? 0 : summary(values).getStandardDeviation();
    }

    /**
     * Half-width of the two-sided confidence interval of the mean at {@code level} (e.g. 0.99), Student-t with
     * {@code n-1} degrees of freedom; infinite for fewer than two values.
     */
    public static double confidenceHalfWidth(double[] values, double level) {
        if (values.length < 2) {
            return Double.POSITIVE_INFINITY;
        }
        SummaryStatistics s = summary(values);
        double t = new TDistribution(values.length - 1).inverseCumulativeProbability(0.5 + level / 2);
        return t * s.getStandardDeviation() / Math.sqrt(values.length);
    }

    private static SummaryStatistics summary(double[] values) {
        SummaryStatistics s = new SummaryStatistics();
        for (double v : values) {
            s.addValue(v);
        }
        return s;
    }
}
