package org.dfr.runtime.kernel;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One option a kernel declares: {@code --kernel-option KEY=VALUE} on the command line.
 *
 * @param key the option's name: lowercase letters, digits and '-'
 * @param type what values it takes; values are checked against it before the kernel sees them
 * @param defaultValue the value when the option is not given, in the same textual form
 * @param allowed for {@link Type#CHOICE}: the allowed values; empty otherwise
 * @param description one line
 */
public record KernelOption(String key, Type type, String defaultValue, List<String> allowed, String description) {

    /** What values an option takes. */
    public enum Type {
        INT, DOUBLE, BOOLEAN, CHOICE, TEXT
    }

    public KernelOption {
        Objects.requireNonNull(key);
        Objects.requireNonNull(type);
        Objects.requireNonNull(defaultValue);
        allowed = List.copyOf(allowed);
        Objects.requireNonNull(description);
        if (!key.matches("[a-z][a-z0-9-]*")) {
            throw new IllegalArgumentException("kernel option key '" + key + "' must be lowercase letters, digits and '-'");
        }
        if (type == Type.CHOICE && !allowed.contains(defaultValue)) {
            throw new IllegalArgumentException("kernel option " + key + ": default '" + defaultValue
                    + "' is not among " + allowed);
        }
    }

    /** An integer option. */
    public static KernelOption ofInt(String key, int defaultValue, String description) {
        return new KernelOption(key, Type.INT, Integer.toString(defaultValue), List.of(), description);
    }

    /** A floating-point option. */
    public static KernelOption ofDouble(String key, double defaultValue, String description) {
        return new KernelOption(key, Type.DOUBLE, Double.toString(defaultValue), List.of(), description);
    }

    /** A true/false option. */
    public static KernelOption ofBoolean(String key, boolean defaultValue, String description) {
        return new KernelOption(key, Type.BOOLEAN, Boolean.toString(defaultValue), List.of(), description);
    }

    /** An option taking one of {@code allowed}. */
    public static KernelOption ofChoice(String key, String defaultValue, List<String> allowed, String description) {
        return new KernelOption(key, Type.CHOICE, defaultValue, allowed, description);
    }

    /**
     * Checks {@code value} against this option's type.
     *
     * @return the value in canonical form (e.g. {@code "TRUE"} becomes {@code "true"})
     * @throws KernelOptionException naming the key, the value and what is allowed
     */
    public String check(String value) {
        String v = value.trim();
        try {
            switch (type) {
                case INT -> {
                    return Integer.toString(Integer.parseInt(v));
                }
                case DOUBLE -> {
                    double d = Double.parseDouble(v);
                    if (!Double.isFinite(d)) {
                        throw new NumberFormatException();
                    }
                    return Double.toString(d);
                }
                case BOOLEAN -> {
                    if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
                        return v.toLowerCase(Locale.ROOT);
                    }
                    throw new NumberFormatException();
                }
                case CHOICE -> {
                    if (allowed.contains(v)) {
                        return v;
                    }
                    throw new NumberFormatException();
                }
                default -> {
                    return v;
                }
            }
        } catch (NumberFormatException e) {
            if (type == Type.INT && v.matches("[-+]?\\d+")) {
                // an integer all the same: "is not allowed: an integer" read as a contradiction
                throw new KernelOptionException("kernel option " + key + "=" + value + " is not allowed: an integer"
                        + " from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE);
            }
            throw new KernelOptionException("kernel option " + key + "=" + value + " is not allowed: " + expected());
        }
    }

    /** What values are allowed, for messages and listings. */
    public String expected() {
        return switch (type) {
            case INT -> "an integer";
            case DOUBLE -> "a finite number";
            case BOOLEAN -> "true or false";
            case CHOICE -> "one of " + String.join(", ", allowed);
            case TEXT -> "any text";
        };
    }
}
