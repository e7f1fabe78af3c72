package org.dfr.harness.experiment;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One setting of an experiment varied over values: {@code dfr experiment --sweep fail-iteration=2,4,6}, or in an
 * experiment file {@code sweep: {parameter: fail-iteration, values: [2, 4, 6]}}. Each value is a point: the whole
 * experiment (every variant, every repetition) with that value put in.
 *
 * @param parameter the setting varied
 * @param values    its values, in the order the points are plotted (and run, {@link Order#SEQUENTIAL})
 * @param order     how the points' runs follow one another; {@link Order#INTERLEAVED} when not given
 */
public record Sweep(SweepParameter parameter, List<String> values, Order order) {

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

    /** A sweep in the default order, {@link Order#INTERLEAVED}. */
    public Sweep(SweepParameter parameter, List<String> values) {
        this(parameter, values, null);
    }

    /** The most points one sweep takes: each is a whole experiment. */
    public static final int MAX_POINTS = 100;

    public Sweep {
        if (parameter == null) {
            throw new IllegalArgumentException("a sweep needs its parameter: one of "
                    + List.of(SweepParameter.values()));
        }
        if (values == null || values.size() < 2 || values.size() > MAX_POINTS) {
            throw new IllegalArgumentException("sweep of " + parameter + " with values " + values + " is not allowed:"
                    + " give 2.." + MAX_POINTS + " values, e.g. " + parameter + "=V1,V2");
        }
        Set<String> seen = new HashSet<>();
        for (String v : values) {
            if (v == null || v.isBlank() || !seen.add(v.trim())) {
                throw new IllegalArgumentException("sweep of " + parameter + " with values " + values + " is not"
                        + " allowed: each value once, none empty");
            }
        }
        values = values.stream().map(String::trim).toList();
        order = order == null ? Order.INTERLEAVED : order;
    }

    /** @return this sweep in {@code other} order */
    public Sweep withOrder(Order other) {
        return new Sweep(parameter, values, other);
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

    /** @return every point's spec, in order: {@code base} with each value put in (checks each value's form) */
    public List<ExperimentSpec> points(ExperimentSpec base) {
        List<ExperimentSpec> points = new ArrayList<>();
        for (String v : values) {
            points.add(parameter.apply(base, v));
        }
        return points;
    }

    /**
     * @return the directory of point {@code index} (from 0) under the sweep's output: its number, for the order, then
     *         its parameter and value in letters a file name takes everywhere, e.g. {@code 02-fail-iteration-4}
     */
    public String directory(int index) {
        String value = values.get(index).replaceAll("[^A-Za-z0-9.]+", "_");
        return String.format(Locale.ROOT, "%02d-%s-%s", index + 1, parameter.label(), value);
    }

    @Override
    public String toString() {
        return parameter + "=" + String.join(",", values);
    }
}
