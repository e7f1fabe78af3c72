package org.dfr.runtime.kernel;

import java.util.List;

/**
 * The kernel SPI: names a kernel, describes its options and builds it for a problem size.
 *
 * <p>Providers are found with {@link java.util.ServiceLoader}: a jar lists its providers in
 * {@code META-INF/services/org.dfr.runtime.kernel.KernelProvider}. Built-in kernels and a user's
 * kernels are found the same way ({@link KernelCatalog}); the parts that run kernels (the harness,
 * rank processes, the command line) know them only through this interface.
 *
 * <p>Implementations are stateless and have a public no-argument constructor.
 */
public interface KernelProvider {

    /** The kernel's name on the command line ({@code --kernel NAME}): lowercase letters, digits and '-'. */
    String name();

    /** One line saying what the kernel computes. */
    String description();

    /**
     * How many axes {@code --cells} and {@code --ranks-grid} have for this kernel (1, 2 or 3). A graph
     * kernel takes 1: its vertex count and its partition count.
     */
    int dimensions();

    /** The options the kernel takes ({@code --kernel-option KEY=VALUE}), with their defaults; may be empty. */
    List<KernelOption> options();

    /**
     * Builds the kernel for {@code problem}.
     *
     * @throws IllegalArgumentException naming the bad value when the problem does not suit this kernel
     *         (wrong number of axes, more partitions than cells, a bad option value)
     */
    KernelSetup create(KernelProblem problem);
}
