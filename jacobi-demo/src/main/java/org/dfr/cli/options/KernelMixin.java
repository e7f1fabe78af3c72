package org.dfr.cli.options;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
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
            KernelCatalog withJars;
            try {
                withJars = KernelJars.catalog(kernelJars); // a jar's own fault (missing, no provider) comes first
            } catch (IllegalArgumentException e) {
                throw new ParameterException(mixee.commandLine(), e.getMessage(), e);
            }
            Set<String> builtIn = KernelCatalog.installed().providers().stream().map(KernelProvider::name)
                    .collect(Collectors.toSet());
            List<String> fromJars = withJars.providers().stream().map(KernelProvider::name)
                    .filter(n -> !builtIn.contains(n)).sorted().toList();
            throw new ParameterException(mixee.commandLine(), "--kernel-jar " + kernelJars.get(0) + " is given without"
                    + " --kernel: name the kernel to run" + (fromJars.isEmpty() ? "" : " (the jar's: "
                    + String.join(", ", fromJars) + ")") + "; without --kernel the built-in "
                    + KernelCatalog.DEFAULT_KERNEL + " would run");
        }
    }
}
