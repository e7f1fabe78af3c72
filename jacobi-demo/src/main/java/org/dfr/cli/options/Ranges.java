package org.dfr.cli.options;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * picocli converters for numbers with a range, so that a bad value is refused while the command line is
 * parsed, in a message picocli starts with the option's name ({@code Invalid value for option
 * '--mtbf-hours': '0': give a number > 0}), instead of by a library record that only knows its field.
 */
public final class Ranges {

    private Ranges() {
    }

    /** An integer of at least 1 (counts, intervals, node counts). */
    public static final class AtLeastOne implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return integerAtLeast(value, 1);
        }
    }

    /** An integer of at least 0 (0 usually meaning "the default" or "none"). */
    public static final class NonNegativeInteger implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return integerAtLeast(value, 0);
        }
    }

    /**
     * Hazelcast's heartbeat timeout in milliseconds: whole seconds from 1 s on, since Hazelcast counts seconds (1500
     * was silently cut to 1 s).
     */
    public static final class HeartbeatMillis implements ITypeConverter<Long> {
        /** The largest timeout: whole seconds that fit Hazelcast's int of milliseconds. */
        public static final long MAX_MILLIS = Integer.MAX_VALUE / 1000 * 1000L;

        @Override
        public Long convert(String value) {
            long ms;
            try {
                ms = Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' is not a number of milliseconds");
            }
            if (ms < 1000 || ms > MAX_MILLIS || ms % 1000 != 0) {
                throw new TypeConversionException(value + " is not allowed: 1000.." + MAX_MILLIS
                        + " in steps of 1000 (Hazelcast counts whole seconds)");
            }
            return ms;
        }
    }

    /** Worker threads: 0 (every core) up to {@link #MAX} (a pool cannot have many more). */
    public static final class Threads implements ITypeConverter<Integer> {
        /** The most worker threads asked for. */
        public static final int MAX = 1024;

        @Override
        public Integer convert(String value) {
            int t = integerAtLeast(value, 0);
            if (t > MAX) {
                throw new TypeConversionException("'" + value + "': give 0 (every core) to " + MAX);
            }
            return t;
        }
    }

    /** A decomposition's number of axes: 1, 2 or 3. */
    public static final class Dimensions implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int d = integerAtLeast(value, 1);
            if (d > 3) {
                throw new TypeConversionException("'" + value + "': give 1, 2 or 3");
            }
            return d;
        }
    }

    /** A finite number above 0 (times, bandwidths, MTBFs). */
    public static final class Positive extends FiniteNumber {
        public Positive() {
            super("a number > 0");
        }

        @Override
        boolean allows(double v) {
            return v > 0;
        }
    }

    /** A finite number of at least 0 (powers, energies, sizes, delays). */
    public static final class NonNegative extends FiniteNumber {
        public NonNegative() {
            super("a number >= 0");
        }

        @Override
        boolean allows(double v) {
            return v >= 0;
        }
    }

    /** A share in [0, 1): 0 inclusive, 1 exclusive (a relative spread). */
    public static final class Fraction extends FiniteNumber {
        public Fraction() {
            super("a number in [0, 1)");
        }

        @Override
        boolean allows(double v) {
            return v >= 0 && v < 1;
        }
    }

    /** A finite number in the range {@link #allows} accepts, which the message names as {@code allowed}. */
    abstract static class FiniteNumber implements ITypeConverter<Double> {
        private final String allowed;

        FiniteNumber(String allowed) {
            this.allowed = allowed;
        }

        abstract boolean allows(double v);

        @Override
        public Double convert(String value) {
            double v;
            try {
                v = Double.parseDouble(value.strip());
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + value + "' is not a number: give " + allowed);
            }
            if (!Double.isFinite(v)) {
                throw new TypeConversionException("'" + value + "' is not a finite number: give " + allowed);
            }
            if (!allows(v)) {
                throw new TypeConversionException("'" + value + "': give " + allowed);
            }
            return v;
        }
    }

    private static int integerAtLeast(String value, int min) {
        int v;
        try {
            v = Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + value + "' is not an integer: give an integer >= " + min);
        }
        if (v < min) {
            throw new TypeConversionException("'" + value + "': give an integer >= " + min);
        }
        return v;
    }
}
