package org.dfr.cli.options;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dfr.runtime.kernel.KernelCatalog;
import org.dfr.runtime.kernel.KernelChoice;
import picocli.CommandLine.Option;

/**
 * The kernel options every command that runs or plans a kernel shares: {@code --kernel},
 * {@code --kernel-option KEY=VALUE} and {@code --kernel-jar FILE}.
 */
public final class KernelMixin {

    @Option(names = "--kernel", paramLabel = "NAME", defaultValue = KernelCatalog.DEFAULT_KERNEL,
            description = "The kernel to run (`dfr kernels` lists them). Default: ${DEFAULT-VALUE}.")
    String kernel;

    @Option(names = "--kernel-option", paramLabel = "KEY=VALUE",
            description = "An option of the kernel (repeatable; `dfr kernels` lists each kernel's options).")
    Map<String, String> kernelOptions = new LinkedHashMap<>();

    @Option(names = "--kernel-jar", paramLabel = "FILE",
            description = "A jar with more kernel providers (repeatable); rank processes get it on their class path.")
    List<Path> kernelJars = new ArrayList<>();

    /** The kernel as the user named it. */
    public KernelChoice choice() {
        return KernelChoice.of(kernel, kernelOptions);
    }

    /** The extra jars, as given. */
    public List<Path> jars() {
        return List.copyOf(kernelJars);
    }
}
