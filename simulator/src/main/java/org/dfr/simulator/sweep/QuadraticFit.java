package org.dfr.simulator.sweep;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.fitting.PolynomialCurveFitter;
import org.apache.commons.math3.fitting.WeightedObservedPoints;

/**
 * Least-squares {@code y = a + b x + c x^2} (commons-math {@link PolynomialCurveFitter}), for DFR's energy
 * savings against the node count.
 *
 * @param label    what was fitted, e.g. {@code dfr 1D}
 * @param a        constant term
 * @param b        linear coefficient
 * @param c        quadratic coefficient
 * @param rSquared coefficient of determination on the fitted points; NaN when every point has the same value
 * @param points   number of points fitted
 */
@JsonPropertyOrder({"label", "a", "b", "c", "rSquared", "points"})
public record QuadraticFit(String label, double a, double b, double c, double rSquared, int points) {

    /**
     * Fits {@code ys} against {@code xs}, minimising relative residuals (weights {@code 1/y^2}) when every y is
     * positive, so points spanning decades (100 to 10^5 nodes) all count; plain least squares otherwise. x is
     * scaled internally by its maximum for conditioning.
     *
     * @throws IllegalArgumentException with fewer than three points
     */
    public static QuadraticFit of(String label, List<Double> xs, List<Double> ys) {
        if (xs.size() < 3 || xs.size() != ys.size()) {
            throw new IllegalArgumentException("a quadratic fit needs at least 3 points but had " + xs.size());
        }
        double scale = xs.stream().mapToDouble(Math::abs).max().orElse(1);
        boolean relative = ys.stream().allMatch(y -> y > 0);
        WeightedObservedPoints points = new WeightedObservedPoints();
        for (int i = 0; i < xs.size(); i++) {
            double y = ys.get(i);
            points.add(relative ? 1 / (y * y) : 1, xs.get(i) / scale, y);
        }
        double[] k = PolynomialCurveFitter.create(2).fit(points.toList());
        double a = k[0];
        double b = k[1] / scale;
        double c = k[2] / (scale * scale);
        double mean = ys.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        double total = 0;
        double residual = 0;
        for (int i = 0; i < xs.size(); i++) {
            double x = xs.get(i);
            double e = ys.get(i) - (a + b * x + c * x * x);
            residual += e * e;
            total += (ys.get(i) - mean) * (ys.get(i) - mean);
        }
        // R^2 of constant data (every y equal, e.g. no saving at all) is undefined, not a perfect 1
        return new QuadraticFit(label, a, b, c, total == 0 ? Double.NaN : 1 - residual / total, xs.size());
    }

    /** The fitted value at {@code x}. */
    public double at(double x) {
        return a + b * x + c * x * x;
    }

    /** {@code a + b P + c P^2} with the coefficients, for legends. */
    public String formula() {
        String r2 = Double.isNaN(rSquared) ? "undefined: the data are constant"
                : String.format(Locale.ROOT, "%.4f", rSquared)
                        + (points == 3 ? ", exact by construction: 3 points for 3 parameters" : "");
        return String.format(Locale.ROOT, "%.4g %s P %s P^2 (R^2 %s)", a, signed(b), signed(c), r2);
    }

    /** {@code + 0.45} or {@code - 1.5e-06}: "+ -1.467e-06" was hard to read. */
    private static String signed(double v) {
        return (v < 0 ? "- " : "+ ") + String.format(Locale.ROOT, "%.4g", Math.abs(v));
    }
}
