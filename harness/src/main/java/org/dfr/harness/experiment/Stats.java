package org.dfr.harness.experiment;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;

/**
 * Mean, sample standard deviation and the two-sided 95 % confidence interval of the mean (Student's t with
 * {@code n - 1} degrees of freedom), by commons-math. Missing values (NaN) are left out; {@code sd} and the
 * interval are NaN below two values.
 */
public record Stats(int n, double mean, double sd, double ci95Low, double ci95High) {

    /** @return the statistics of the finite values among {@code values} */
    public static Stats of(double[] values) {
        DescriptiveStatistics d = new DescriptiveStatistics();
        for (double v : values) {
            if (Double.isFinite(v)) {
                d.addValue(v);
            }
        }
        int n = (int) d.getN();
        if (n == 0) {
            return new Stats(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        double mean = d.getMean();
        if (n < 2) {
            return new Stats(n, mean, Double.NaN, Double.NaN, Double.NaN);
        }
        double sd = d.getStandardDeviation();
        double half = new TDistribution(n - 1).inverseCumulativeProbability(0.975) * sd / Math.sqrt(n);
        return new Stats(n, mean, sd, mean - half, mean + half);
    }

    /**
     * These statistics of a quantity that cannot be negative (energy, power, time, work): the interval's lower end
     * floored at 0. Student's t is symmetric, and with few repetitions it reached below 0 J and 0 ms.
     */
    public Stats atLeastZero() {
        return Double.isFinite(ci95Low) && ci95Low < 0 ? new Stats(n, mean, sd, 0, ci95High) : this;
    }

    /** @return half the width of the interval (0 when unknown) */
    public double halfWidth() {
        return Double.isFinite(ci95High) ? (ci95High - ci95Low) / 2 : 0;
    }
}
