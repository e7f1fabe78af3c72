package org.dfr.cli.bench;

import java.util.Locale;

/**
 * Two sizes written {@code AxB}, as {@code --cells 4096x4096} or {@code --ranks-grid 2x4}.
 *
 * @param first  the size along x, at least 1
 * @param second the size along y, at least 1
 */
public record SizePair(int first, int second) {

    public SizePair {
        if (first < 1 || second < 1) {
            throw new IllegalArgumentException("sizes must be >= 1, got " + first + "x" + second);
        }
    }

    /**
     * Parses {@code AxB}.
     *
     * @param option the option being parsed, named in the error message
     * @throws IllegalArgumentException naming the option, the bad text and the allowed form
     */
    public static SizePair parse(String option, String text) {
        return parse(option, text, "AxB (e.g. 4096x4096)");
    }

    /**
     * Parses {@code AxB}.
     *
     * @param option the option being parsed, named in the error message
     * @param form how the message writes the allowed form, as {@code NXxNY}
     * @throws IllegalArgumentException naming the option, the bad text and the allowed form
     */
    public static SizePair parse(String option, String text, String form) {
        String[] parts = text.trim().toLowerCase(Locale.ROOT).split("x", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException(option + " '" + text + "' is not of the form " + form);
        }
        int a;
        int b;
        try {
            a = Integer.parseInt(parts[0].trim());
            b = Integer.parseInt(parts[1].trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " '" + text + "' is not of the form " + form
                    + " with whole numbers");
        }
        if (a < 1 || b < 1) {
            throw new IllegalArgumentException(option + " '" + text + "': both sizes must be >= 1");
        }
        return new SizePair(a, b);
    }

    /** {@code first * second}. */
    public long product() {
        return (long) first * second;
    }

    @Override
    public String toString() {
        return first + "x" + second;
    }
}
