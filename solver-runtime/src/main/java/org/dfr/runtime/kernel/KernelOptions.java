package org.dfr.runtime.kernel;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The option values a kernel is built with: every declared option, given or defaulted, checked
 * against its type. Immutable; travels to rank processes as part of the run configuration.
 *
 * @param values key to canonical value, sorted by key
 */
public record KernelOptions(SortedMap<String, String> values) {

    /** No options. */
    public static final KernelOptions NONE = new KernelOptions(new TreeMap<>());

    public KernelOptions {
        values = Collections.unmodifiableSortedMap(new TreeMap<>(values));
    }

    /**
     * Resolves {@code given} against the options a kernel declares.
     *
     * @throws KernelOptionException for a key the kernel does not declare (naming those it does) or
     *         a value of the wrong type
     */
    public static KernelOptions resolve(String kernel, List<KernelOption> declared, Map<String, String> given) {
        TreeMap<String, String> out = new TreeMap<>();
        for (KernelOption o : declared) {
            out.put(o.key(), o.defaultValue());
        }
        for (Map.Entry<String, String> e : given.entrySet()) {
            KernelOption option = declared.stream().filter(o -> o.key().equals(e.getKey())).findFirst()
                    .orElseThrow(() -> new KernelOptionException("kernel " + kernel + " has no option '" + e.getKey()
                            + "'; its options are " + (declared.isEmpty() ? "none"
                            : String.join(", ", declared.stream().map(KernelOption::key).toList()))));
            out.put(e.getKey(), option.check(e.getValue()));
        }
        return new KernelOptions(out);
    }

    private String raw(String key) {
        String v = values.get(key);
        if (v == null) {
            // every declared option has a value (given or default): the kernel reads one it never declared
            throw new KernelContractException("the kernel reads option '" + key + "', which its options() do not"
                    + " declare (declared: " + values.keySet() + "): a bug in the kernel, not in the command line");
        }
        return v;
    }

    public int getInt(String key) {
        return parsed(key, "an integer", Integer::parseInt);
    }

    public double getDouble(String key) {
        return parsed(key, "a number", Double::parseDouble);
    }

    /** The value read as {@code type}; a value that is not one passed its declared type's check: the kernel's bug. */
    private <T> T parsed(String key, String type, Function<String, T> parse) {
        String v = raw(key);
        try {
            return parse.apply(v);
        } catch (NumberFormatException e) {
            throw new KernelContractException("the kernel reads option '" + key + "' as " + type + ", but its value '"
                    + v + "' is not one (its options() declare another type): a bug in the kernel", e);
        }
    }

    public boolean getBoolean(String key) {
        String v = raw(key);
        if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
            // Boolean.parseBoolean would read anything else as false, silently
            throw new KernelContractException("the kernel reads option '" + key + "' as a boolean, but its value '"
                    + v + "' is not one (its options() declare another type): a bug in the kernel");
        }
        return Boolean.parseBoolean(v);
    }

    public String getString(String key) {
        return raw(key);
    }

    /** {@code key=value,key=value}, or empty when there are none. */
    @Override
    public String toString() {
        return String.join(",", values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
    }
}
