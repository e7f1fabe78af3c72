/**
 * The built-in kernels, each a {@link org.dfr.runtime.kernel.KernelProvider} listed in
 * {@code META-INF/services}: {@code jacobi2d5} (the default), {@code jacobi2d9}, {@code heat3d7},
 * {@code heat1d3} and {@code graph-jacobi}. Their exact arithmetic and digests are in docs/design.md.
 */
package org.dfr.kernels;
