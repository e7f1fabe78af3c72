package org.dfr.harness.experiment;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One setting of an experiment varied over values: {@code dfr experiment --sweep fail-iteration=2,4,6}, or in an
 * experiment file {@code sweep: {parameter: fail-iteration, values: [2, 4, 6]}}. Each value is a point: the whole
 * experiment (every variant, every repetition) with that value put in. With a second setting ({@link By}: {@code
 * --sweep-by ranks-per-host=2,4}, or {@code by: {parameter: ranks-per-host, values: [2, 4]}} in the file) the points
 * are the grid of both, the second setting's values inner: (2, 2), (2, 4), (4, 2), ...
 *
 * @param parameter the setting varied
 * @param values    its values, in the order the points are plotted (and run, {@link Order#SEQUENTIAL})
 * @param order     how the points' runs follow one another; {@link Order#INTERLEAVED} when not given
 * @param by        the second setting varied at every value of the first, or null: a curve per its value and
 *                  variant in the plots
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Sweep(SweepParameter parameter, List<String> values, Order order, By by) {

    /**
     * The second setting of a grid sweep.
     *
     * @param parameter the setting, another than the sweep's
     * @param values    its values, in the order of the curves
     */
    public record By(SweepParameter parameter, List<String> values) {

        public By {
            if (parameter == null) {
                throw new IllegalArgumentException("a sweep's second setting needs its parameter: one of "
                        + List.of(SweepParameter.values()));
            }
            values = checkedValues(parameter, values, "--sweep-by");
        }

        /**
         * Reads {@code PARAMETER=V1,V2,...}.
         *
         * @throws IllegalArgumentException naming what is wrong and the allowed form
         */
        public static By parse(String text) {
            int eq = text.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("sweep-by '" + text + "' is not allowed: give PARAMETER=V1,V2,...,"
                        + " e.g. ranks-per-host=2,4");
            }
            return new By(SweepParameter.parse(text.substring(0, eq)), List.of(text.substring(eq + 1).split(",", -1)));
        }

        @Override
        public String toString() {
            return parameter + "=" + String.join(",", values);
        }
    }

    /** How the runs of a sweep's points follow one another. */
    public enum Order {
        /**
         * Round by round: the warm-ups of every point, then every point's first repetition, then the second, ...
         * (the point that starts a round rotating): a drift of the machine over the sweep spreads over the points
         * instead of passing for an effect of the parameter. A point's files are written at the end.
         */
        INTERLEAVED,
        /** Each point whole, one after another: its files are there as soon as it is done. */
        SEQUENTIAL;

        @JsonValue
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        public static Order parse(String text) {
            for (Order o : values()) {
                if (o.label().equalsIgnoreCase(text.trim())) {
                    return o;
                }
            }
            throw new IllegalArgumentException("unknown sweep order '" + text + "': interleaved or sequential");
        }

        @Override
        public String toString() {
            return label();
        }
    }

    /** A sweep of one setting in the default order, {@link Order#INTERLEAVED}. */
    public Sweep(SweepParameter parameter, List<String> values) {
        this(parameter, values, null, null);
    }

    /** A sweep of one setting. */
    public Sweep(SweepParameter parameter, List<String> values, Order order) {
        this(parameter, values, order, null);
    }

    /** The most points one sweep takes: each is a whole experiment. */
    public static final int MAX_POINTS = 100;

    public Sweep {
        if (parameter == null) {
            throw new IllegalArgumentException("a sweep needs its parameter: one of "
                    + List.of(SweepParameter.values()));
        }
        values = checkedValues(parameter, values, "--sweep");
        order = order == null ? Order.INTERLEAVED : order;
        if (by != null) {
            if (by.parameter() == parameter) {
                throw new IllegalArgumentException("sweep-by " + by + " is not allowed: it varies " + parameter
                        + " again; give another setting than the sweep's");
            }
            if ((long) values.size() * by.values().size() > MAX_POINTS) {
                throw new IllegalArgumentException("sweep " + parameter + "=" + String.join(",", values) + " by " + by
                        + " is not allowed: " + values.size() * by.values().size() + " points, at most " + MAX_POINTS
                        + " (each is a whole experiment)");
            }
        }
    }

    private static List<String> checkedValues(SweepParameter parameter, List<String> values, String option) {
        if (values == null || values.size() < 2 || values.size() > MAX_POINTS) {
            throw new IllegalArgumentException(option.substring(2) + " of " + parameter + " with values " + values
                    + " is not allowed: give 2.." + MAX_POINTS + " values, e.g. " + parameter + "=V1,V2");
        }
        Set<String> seen = new HashSet<>();
        for (String v : values) {
            if (v == null || v.isBlank() || !seen.add(v.trim())) {
                throw new IllegalArgumentException(option.substring(2) + " of " + parameter + " with values " + values
                        + " is not allowed: each value once, none empty");
            }
        }
        return values.stream().map(String::trim).toList();
    }

    /** @return this sweep in {@code other} order */
    public Sweep withOrder(Order other) {
        return new Sweep(parameter, values, other, by);
    }

    /** @return this sweep with {@code second} as its second setting (null: none) */
    public Sweep withBy(By second) {
        return new Sweep(parameter, values, order, second);
    }

    /**
     * Reads {@code PARAMETER=V1,V2,...}; the values of {@code fail} may join several failures with {@code +}.
     *
     * @throws IllegalArgumentException naming what is wrong and the allowed form
     */
    public static Sweep parse(String text) {
        int eq = text.indexOf('=');
        if (eq < 0) {
            throw new IllegalArgumentException("sweep '" + text + "' is not allowed: give PARAMETER=V1,V2,..., e.g."
                    + " fail-iteration=2,4,6");
        }
        return new Sweep(SweepParameter.parse(text.substring(0, eq)), List.of(text.substring(eq + 1).split(",", -1)));
    }

    /** @return how many points the sweep has: its values, times the second setting's if any */
    public int size() {
        return values.size() * (by == null ? 1 : by.values().size());
    }

    /** @return the value of {@link #parameter} at point {@code index} (from 0) */
    public String valueAt(int index) {
        return values.get(index / (by == null ? 1 : by.values().size()));
    }

    /** @return the value of the second setting at point {@code index} (from 0), or null without one */
    public String byValueAt(int index) {
        return by == null ? null : by.values().get(index % by.values().size());
    }

    /** @return point {@code index} (from 0) for people: {@code fail-iteration=4}, or {@code fail-iteration=4 ranks-per-host=2} */
    public String pointLabel(int index) {
        return pointLabel(valueAt(index), byValueAt(index));
    }

    /** @return the point of {@code value} and {@code byValue} (null without a second setting) for people */
    public String pointLabel(String value, String byValue) {
        return parameter + "=" + value + (by == null ? "" : " " + by.parameter() + "=" + byValue);
    }

    /** @return every point's spec, in order: {@code base} with each value put in (checks each value's form) */
    public List<ExperimentSpec> points(ExperimentSpec base) {
        List<ExperimentSpec> points = new ArrayList<>();
        for (int i = 0; i < size(); i++) {
            ExperimentSpec point = parameter.apply(base, valueAt(i));
            points.add(by == null ? point : by.parameter().apply(point, byValueAt(i)));
        }
        return points;
    }

    /**
     * @return the directory of point {@code index} (from 0) under the sweep's output: its number, for the order, then
     *         its parameters and values in letters a file name takes everywhere, e.g. {@code 02-fail-iteration-4}
     *         or {@code 02-fail-iteration-2-ranks-per-host-4}
     */
    public String directory(int index) {
        String dir = String.format(Locale.ROOT, "%02d-%s-%s", index + 1, parameter.label(), fileSafe(valueAt(index)));
        return by == null ? dir : dir + "-" + by.parameter().label() + "-" + fileSafe(byValueAt(index));
    }

    private static String fileSafe(String value) {
        return value.replaceAll("[^A-Za-z0-9.]+", "_");
    }

    @Override
    public String toString() {
        return parameter + "=" + String.join(",", values) + (by == null ? "" : " by " + by);
    }
}
