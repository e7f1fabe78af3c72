package org.dfr.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.dfr.harness.KernelJars;
import org.dfr.runtime.kernel.KernelCatalog;
import org.dfr.runtime.kernel.KernelOption;
import org.dfr.runtime.kernel.KernelProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code dfr kernels}: the installed kernels, one line each, with their axes and options. */
@Command(name = "kernels", mixinStandardHelpOptions = true,
        description = {"Lists the installed kernels (built-in and from --kernel-jar) with a one-line description, the"
                + " axes --cells and --ranks-grid take, and each option with its allowed values and default."},
        footer = {"", "Examples:", "  dfr kernels", "  dfr kernels --kernel-jar my-kernels.jar"})
public final class KernelsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--kernel-jar", paramLabel = "FILE", description = "Also list the kernels of this jar (repeatable).")
    List<Path> kernelJars = new ArrayList<>();

    @Override
    public Integer call() {
        KernelCatalog catalog;
        try {
            catalog = KernelJars.catalog(kernelJars);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        PrintWriter out = spec.commandLine().getOut();
        for (KernelProvider p : catalog.providers()) {
            out.printf(Locale.ROOT, "%-14s %d ax%s  %s%s%s%n", p.name(), p.dimensions(), p.dimensions() == 1 ? "is" : "es",
                    p.description(), p.name().equals(KernelCatalog.DEFAULT_KERNEL) ? " (default)" : "",
                    catalog.jarOf(p).map(jar -> " [from " + jar + "]").orElse(""));
            for (KernelOption o : p.options()) {
                out.printf(Locale.ROOT, "%-14s   --kernel-option %s=<%s> (default %s): %s%n", "", o.key(), o.expected(),
                        o.defaultValue(), o.description());
            }
        }
        for (String error : catalog.loadErrors()) {
            out.println("not loaded:     " + error);
        }
        out.flush();
        return catalog.loadErrors().isEmpty() ? 0 : 1;
    }
}
