package org.dfr.cli.options;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dfr.runtime.kernel.KernelCatalog;
import org.dfr.runtime.kernel.KernelChoice;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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
        return KernelChoice.of(kernel, KernelOptionArgument.toMap(mixee, kernelOptions));
    }

    /** The extra jars, as given. */
    public List<Path> jars() {
        return List.copyOf(kernelJars);
    }
}
