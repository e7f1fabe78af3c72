package org.dfr.simulator;

/** Argument checks shared by the model records; every message names the value and what is allowed. */
final class Checks {

    private Checks() {
    }

    static void positive(String name, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be finite and > 0 but was " + value);
        }
    }

    static void nonNegative(String name, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be finite and >= 0 but was " + value);
        }
    }

    static void atLeast(String name, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + " but was " + value);
        }
    }

    static void probability(String name, double value) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(name + " must be between 0 and 1 but was " + value);
        }
    }
}
