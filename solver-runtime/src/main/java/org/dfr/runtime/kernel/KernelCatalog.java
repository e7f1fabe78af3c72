package org.dfr.runtime.kernel;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The kernels installed on a class path, found with {@link ServiceLoader}. Built-in kernels and those
 * of a user's jar ({@code --kernel-jar}) are found the same way.
 */
public final class KernelCatalog {

    /** The kernel used when none is named. */
    public static final String DEFAULT_KERNEL = "jacobi2d5";

    private final List<KernelProvider> providers;

    private KernelCatalog(List<KernelProvider> providers) {
        this.providers = Collections.unmodifiableList(providers);
    }

    /** The providers visible to {@code loader}, sorted by name. */
    public static KernelCatalog load(ClassLoader loader) {
        List<KernelProvider> found = new ArrayList<>();
        try {
            for (KernelProvider p : ServiceLoader.load(KernelProvider.class, loader)) {
                if (found.stream().anyMatch(q -> q.name().equals(p.name()))) {
                    throw new IllegalArgumentException("two kernels are named '" + p.name() + "': "
                            + found.stream().filter(q -> q.name().equals(p.name())).findFirst().orElseThrow().getClass().getName()
                            + " and " + p.getClass().getName());
                }
                found.add(p);
            }
        } catch (ServiceConfigurationError e) {
            throw new IllegalArgumentException("a kernel provider cannot be loaded: " + e.getMessage(), e);
        }
        found.sort(Comparator.comparing(KernelProvider::name));
        return new KernelCatalog(found);
    }

    /** The providers on this class's own class path. */
    public static KernelCatalog installed() {
        return load(KernelCatalog.class.getClassLoader());
    }

    /** Every provider, sorted by name. */
    public List<KernelProvider> providers() {
        return providers;
    }

    /**
     * The provider named {@code name}.
     *
     * @throws IllegalArgumentException naming the unknown kernel and the installed ones
     */
    public KernelProvider get(String name) {
        return providers.stream().filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--kernel '" + name + "' is not installed; installed: "
                        + String.join(", ", providers.stream().map(KernelProvider::name).toList())
                        + " (a jar of your own: --kernel-jar FILE)"));
    }

    /** Builds kernel {@code choice} for a problem of {@code cells} split as {@code ranksGrid}. */
    public KernelSetup create(KernelChoice choice, int[] cells, int[] ranksGrid) {
        KernelProvider provider = get(choice.name());
        KernelOptions options = KernelOptions.resolve(provider.name(), provider.options(), choice.options());
        return provider.create(new KernelProblem(cells, ranksGrid, options));
    }
}
