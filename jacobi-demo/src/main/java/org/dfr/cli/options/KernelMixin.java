package org.dfr.cli.options;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dfr.harness.KernelJars;
import org.dfr.runtime.kernel.KernelCatalog;
import org.dfr.runtime.kernel.KernelChoice;
import org.dfr.runtime.kernel.KernelProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The kernel options every command that runs or plans a kernel shares: {@code --kernel},
 * {@code --kernel-option KEY=VALUE} and {@code --kernel-jar FILE}.
 */
public final class KernelMixin {

    @Option(names = "--kernel", paramLabel = "NAME", defaultValue = KernelCatalog.DEFAULT_KERNEL,
            description = "The kernel to run (`dfr kernels` lists them). Default: ${DEFAULT-VALUE} (plan and simulate"
                    + " use a kernel only when named, with --cells).")
    String kernel;

    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--kernel-option", paramLabel = "KEY=VALUE", converter = KernelOptionArgument.Converter.class,
            description = "An option of the kernel (repeatable; `dfr kernels` lists each kernel's options).")
    List<KernelOptionArgument> kernelOptions = new ArrayList<>();

    @Option(names = "--kernel-jar", paramLabel = "FILE",
            description = "A jar with more kernel providers (repeatable), read from this path (by rank processes too).")
    List<Path> kernelJars = new ArrayList<>();

    /** The kernel as the user named it. */
    public KernelChoice choice() {
        requireKernelNamedWithJar();
        return KernelChoice.of(kernel, KernelOptionArgument.toMap(mixee, kernelOptions));
    }

    /** The extra jars, as given. */
    public List<Path> jars() {
        requireKernelNamedWithJar();
        return List.copyOf(kernelJars);
    }

    /**
     * A jar without {@code --kernel} ran the built-in default kernel, and {@code --check-reference} then passed: a
     * solver author took it for their kernel's success (a walk-through, session 43).
     */
    private void requireKernelNamedWithJar() {
        if (!kernelJars.isEmpty() && !mixee.commandLine().getParseResult().hasMatchedOption("--kernel")) {
            String line;
            try {
                line = jarWithoutKernel(kernelJars, "--kernel", KernelCatalog.DEFAULT_KERNEL);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(mixee.commandLine(), e.getMessage(), e);
            }
            throw new ParameterException(mixee.commandLine(), line);
        }
    }

    /**
     * The line for {@code jars} given without a kernel named ({@code namedBy}: where a kernel could have been named),
     * naming the jars' kernels and the one that would have run instead; for every command, experiment's too.
     *
     * @throws IllegalArgumentException for a jar's own fault (missing, no provider), which comes first
     */
    public static String jarWithoutKernel(List<Path> jars, String namedBy, String wouldRun) {
        KernelCatalog withJars = KernelJars.catalog(jars);
        List<String> fromJars = withJars.providers().stream().filter(p -> withJars.jarOf(p).isPresent())
                .map(KernelProvider::name).sorted().toList();
        return "--kernel-jar " + jars.get(0) + " is given without " + namedBy + ": name the kernel to run"
                + (fromJars.isEmpty() ? "" : " (the jar's: " + String.join(", ", fromJars) + ")") + "; without it the"
                + " built-in " + wouldRun + " would run";
    }
}
