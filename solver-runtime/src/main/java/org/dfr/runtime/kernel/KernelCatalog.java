package org.dfr.runtime.kernel;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.regex.Pattern;
import org.dfr.analysis.ConeAnalyzer;
import org.dfr.analysis.InvalidDeclarationException;
import org.dfr.analysis.PartitionDependencies;
import org.dfr.runtime.PartitionKernel;
import org.dfr.runtime.ThrownAt;

/**
 * The kernels installed on a class path, found with {@link ServiceLoader}. Built-in kernels and those
 * of a user's jar ({@code --kernel-jar}) are found the same way.
 */
public final class KernelCatalog {

    /** The service file that lists kernel providers, in a jar or a class directory. */
    private static final String SERVICES = "META-INF/services/" + KernelProvider.class.getName();

    /** The kernel used when none is named. */
    public static final String DEFAULT_KERNEL = "jacobi2d5";

    private final List<KernelProvider> providers;
    private final List<String> loadErrors;
    private final ProviderListings listings;

    private KernelCatalog(List<KernelProvider> providers, List<String> loadErrors, ProviderListings listings) {
        this.providers = Collections.unmodifiableList(providers);
        this.loadErrors = List.copyOf(loadErrors);
        this.listings = listings;
    }

    /**
     * The providers visible to {@code loader}, sorted by name. A provider that cannot be loaded (a class
     * missing from a jar, a failing constructor) is left out and named in {@link #loadErrors()}; the others
     * stay usable. What {@code loader} sees beyond its parent are the user's jars ({@link #jarOf}).
     *
     * @throws IllegalArgumentException if two providers have the same name, naming the jar that lists each
     */
    public static KernelCatalog load(ClassLoader loader) {
        return load(loader, true);
    }

    /** {@link #load(ClassLoader)}; {@code addsJars}: whether what {@code loader} sees beyond its parent is the user's. */
    private static KernelCatalog load(ClassLoader loader, boolean addsJars) {
        List<KernelProvider> found = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        ProviderListings listings = ProviderListings.of(loader, SERVICES, addsJars);
        Iterator<KernelProvider> it = ServiceLoader.load(KernelProvider.class, loader).iterator();
        int linkageErrors = 0;
        while (true) {
            KernelProvider p;
            try {
                if (!it.hasNext()) {
                    break;
                }
                p = it.next();
            } catch (ServiceConfigurationError e) {
                errors.add(listings.attribute(loadError(e)));
                continue;
            } catch (LinkageError e) {
                // a provider class compiled for a newer Java, or missing a class it needs: ServiceLoader lets it
                // through unwrapped, having moved past it (two alike are two providers, not a loop)
                errors.add(listings.attribute(loadError(new ServiceConfigurationError(KernelProvider.class.getName()
                        + ": a provider could not be loaded", e))));
                if (++linkageErrors >= MAX_LINKAGE_ERRORS) {
                    errors.add("stopped after " + MAX_LINKAGE_ERRORS + " providers that could not be loaded");
                    break;
                }
                continue;
            }
            String broken = contractBroken(p);
            if (broken != null) {
                errors.add(listings.attribute(p.getClass().getName() + ": " + broken));
                continue;
            }
            for (KernelProvider q : found) {
                if (q.name().equals(p.name())) {
                    String first = q.getClass().getName();
                    String second = p.getClass().getName();
                    throw new IllegalArgumentException("two kernels are named '" + p.name() + "': " + first
                            + " (listed in " + listings.sourceOrUnknown(first) + ") and " + second + " (listed in "
                            + listings.sourceOrUnknown(second) + "); rename one, or leave one jar out");
                }
            }
            found.add(p);
        }
        errors.addAll(passedOver(loader, listings, found));
        found.sort(Comparator.comparing(KernelProvider::name));
        return new KernelCatalog(found, errors, listings);
    }

    /**
     * Classes a user's jar lists that ServiceLoader passed over without a word: a class of a named module, such as the
     * JDK's, is no provider on the class path (a walk-through listed {@code java.lang.String}, and {@code dfr kernels}
     * said nothing).
     */
    private static List<String> passedOver(ClassLoader loader, ProviderListings listings, List<KernelProvider> found) {
        Set<String> loaded = new HashSet<>();
        found.forEach(p -> loaded.add(p.getClass().getName()));
        List<String> passed = new ArrayList<>();
        for (String className : listings.listedByAddedSources()) {
            String module = loaded.contains(className) ? "" : moduleOf(className, loader);
            if (!module.isEmpty()) {
                passed.add(className + " (listed in " + listings.sourceOrUnknown(className) + "): a class of module "
                        + module + ", which ServiceLoader passes over: no provider on the class path (list your class"
                        + " that implements " + KernelProvider.class.getName() + ")");
            }
        }
        return passed;
    }

    /** The name of the module {@code className} is in; empty for the unnamed one or a class that cannot be loaded. */
    private static String moduleOf(String className, ClassLoader loader) {
        try {
            Module module = Class.forName(className, false, loader).getModule();
            return module.isNamed() ? module.getName() : "";
        } catch (ClassNotFoundException | LinkageError e) {
            return ""; // ServiceLoader's own error names it
        }
    }

    /**
     * ServiceLoader's message, with its cause: "could not be instantiated" alone hid the exception the provider's
     * constructor threw, and a class compiled for a newer Java needs saying what to do.
     */
    static String loadError(ServiceConfigurationError e) {
        Throwable cause = e.getCause();
        if (cause instanceof InvocationTargetException ite && ite.getCause() != null) {
            cause = ite.getCause();
        }
        if (cause == null) {
            return e.getMessage();
        }
        String hint = cause instanceof UnsupportedClassVersionError
                ? " (compiled for a newer Java than this " + Runtime.version().feature() + ": build it with --release 17)"
                : "";
        return e.getMessage() + ": " + cause + ThrownAt.of(cause) + hint;
    }

    /** A bound on unloadable providers, should an iterator ever fail to move past one. */
    private static final int MAX_LINKAGE_ERRORS = 1000;

    /** A kernel name as the command line takes it: lowercase letters, digits and '-', starting with a letter or digit. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]*");

    /**
     * What of {@link KernelProvider}'s contract a provider breaks in its name or axes, or null: such a kernel
     * could not be named on every command line, or would be given a grid no part of dfr can lay out.
     */
    private static String contractBroken(KernelProvider p) {
        String name;
        int dimensions;
        try {
            name = p.name();
            dimensions = p.dimensions();
        } catch (RuntimeException | LinkageError e) {
            // a LinkageError: a jar built against another version of the SPI
            return "name() or dimensions() failed: " + e;
        }
        if (name == null || !NAME.matcher(name).matches()) {
            return "kernel name '" + name + "' is not allowed: lowercase letters, digits and '-'";
        }
        if (dimensions < 1 || dimensions > 3) {
            return "kernel " + name + " takes " + dimensions + " axes: a kernel takes 1, 2 or 3";
        }
        String description;
        List<KernelOption> options;
        try {
            description = p.description();
            options = p.options();
        } catch (RuntimeException | LinkageError e) {
            return "kernel " + name + ": description() or options() failed: " + e;
        }
        if (description == null || description.isBlank()) {
            return "kernel " + name + " has no description(): give one line for `dfr kernels`";
        }
        if (options == null) {
            return "kernel " + name + ": options() is null; give an empty list for none";
        }
        Set<String> keys = new HashSet<>();
        for (KernelOption o : options) {
            if (o == null) {
                return "kernel " + name + ": options() contains null";
            }
            if (!keys.add(o.key())) {
                return "kernel " + name + " declares option '" + o.key() + "' twice";
            }
        }
        return null;
    }

    /** Why providers listed on the class path could not be loaded; empty when all were. */
    public List<String> loadErrors() {
        return loadErrors;
    }

    /** The providers on this class's own class path. */
    public static KernelCatalog installed() {
        return load(KernelCatalog.class.getClassLoader(), false);
    }

    /**
     * The jar (or class directory) a provider came from when it is one of the user's ({@code --kernel-jar}); empty
     * for a kernel on dfr's own class path.
     */
    public Optional<String> jarOf(KernelProvider provider) {
        return listings.addedSourceOf(provider.getClass().getName());
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
                        + " (a jar of your own: --kernel-jar FILE)"
                        + (loadErrors.isEmpty() ? "" : "; providers that failed to load: " + String.join("; ", loadErrors))));
    }

    /**
     * Every partition has a cell: a kernel whose {@code cellsOf} said 0 failed later in the warm-up, in a message that
     * named neither the kernel nor the partition.
     */
    private static void requireCells(String name, PartitionKernel kernel) {
        for (int p = 0; p < kernel.partitionCount(); p++) {
            long cells = kernel.cellsOf(p);
            if (cells < 1) {
                throw new KernelContractException("kernel " + name + "'s cellsOf(" + p + ") returned " + cells
                        + ": every partition has at least 1 cell (a bug in the kernel, or fewer cells than partitions"
                        + " it does not refuse; docs/writing-a-kernel.md)");
            }
        }
    }

    /** Builds kernel {@code choice} for a problem of {@code cells} split as {@code ranksGrid}. */
    public KernelSetup create(KernelChoice choice, int[] cells, int[] ranksGrid) {
        KernelProvider provider = get(choice.name());
        KernelOptions options = KernelOptions.resolve(provider.name(), provider.options(), choice.options());
        try {
            KernelProblem problem = new KernelProblem(cells, ranksGrid, options);
            KernelSetup setup = provider.create(problem);
            PartitionDependencies declared = setup.dependencies();
            int expected = problem.partitionCount();
            if (declared.partitionCount() != expected) {
                // plan blamed --lost for it ("grid 4 has partitions 0..2"), run named it only as a rank's start
                throw new KernelContractException("kernel " + provider.name() + " declares "
                        + declared.partitionCount() + " partitions for --ranks-grid " + KernelProblem.join(ranksGrid)
                        + ", which has " + expected + " (a bug in the kernel, not in the command line: one partition"
                        + " per rank; docs/writing-a-kernel.md)");
            }
            if (!declared.getClass().getPackageName().equals(PartitionDependencies.class.getPackageName())) {
                // a declaration of the kernel's own making, read once now so that a broken one is named here and
                // not mid-run (dfr's own declarations check themselves when made, at no second pass's cost)
                new ConeAnalyzer(declared);
            }
            requireCells(provider.name(), setup.kernel());
            return setup;
        } catch (InvalidDeclarationException e) {
            throw new KernelContractException("kernel " + provider.name() + " declares its dependencies wrongly: "
                    + e.getMessage() + " (a bug in the kernel, not in the command line; docs/writing-a-kernel.md)", e);
        }
    }
}
