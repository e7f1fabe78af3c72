/**
 * The kernel SPI. A {@link org.dfr.runtime.kernel.KernelProvider} names a kernel, declares its options
 * and builds a {@link org.dfr.runtime.kernel.KernelSetup} for a
 * {@link org.dfr.runtime.kernel.KernelProblem}: the {@link org.dfr.runtime.PartitionKernel} the runtime
 * runs, its declared dependencies (the source of every recovery cone), the sequential whole-domain
 * {@link org.dfr.runtime.kernel.ReferenceSolver} and the field digest. Providers are discovered with
 * {@link java.util.ServiceLoader} ({@link org.dfr.runtime.kernel.KernelCatalog}); nothing that runs kernels
 * names one.
 */
package org.dfr.runtime.kernel;
