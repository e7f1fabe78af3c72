package org.dfr.runtime.kernel;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Which kernel a run uses, as the user named it: {@code --kernel NAME} and its
 * {@code --kernel-option KEY=VALUE}s (checked against the provider's declared options when the kernel
 * is built, see {@link KernelCatalog#create}).
 *
 * @param name the provider's {@link KernelProvider#name()}
 * @param options the options given (not the defaulted ones), sorted by key
 */
public record KernelChoice(String name, SortedMap<String, String> options) {

    /** The default kernel with no options. */
    public static final KernelChoice DEFAULT = new KernelChoice(KernelCatalog.DEFAULT_KERNEL, new TreeMap<>());

    public KernelChoice {
        Objects.requireNonNull(name);
        options = Collections.unmodifiableSortedMap(new TreeMap<>(options == null ? Map.of() : options));
    }

    /** Kernel {@code name} without options. */
    public static KernelChoice of(String name) {
        return new KernelChoice(name, new TreeMap<>());
    }

    /** Kernel {@code name} with {@code options}. */
    public static KernelChoice of(String name, Map<String, String> options) {
        return new KernelChoice(name, new TreeMap<>(options));
    }

    /** {@code name} or {@code name(key=value,...)}. */
    @Override
    public String toString() {
        return options.isEmpty() ? name
                : name + "(" + String.join(",", options.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList()) + ")";
    }
}
