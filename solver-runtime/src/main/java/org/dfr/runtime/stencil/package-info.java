/**
 * A reusable block-decomposed stencil kernel for 1, 2 or 3 axes.
 *
 * <p>A solver author gives a {@link org.dfr.analysis.BlockLayout} (cells and how they split), a
 * {@link org.dfr.analysis.CellStencil} (the cells one update reads), a {@link org.dfr.runtime.stencil.StencilBoundary}
 * (Dirichlet values or periodic), the initial values ({@link org.dfr.runtime.stencil.CellFunction}) and a
 * {@link org.dfr.runtime.stencil.StencilArithmetic} (the update itself; {@link org.dfr.runtime.stencil.LinearStencil}
 * for "offsets and weights"). {@link org.dfr.runtime.stencil.StencilKernel} then provides the ghost frames, the
 * halos (edges and corners exactly where the stencil reads them) and the dependencies, derived from the
 * cell stencil by {@link org.dfr.analysis.DependencyDeclarations#stencil(org.dfr.analysis.CellStencil,
 * org.dfr.analysis.BlockLayout, boolean)}; {@link org.dfr.runtime.stencil.StencilReference} is the sequential
 * whole-domain computation, {@link org.dfr.runtime.stencil.StencilDigest} the field digest and
 * {@link org.dfr.runtime.stencil.StencilSetup} bundles them as a {@link org.dfr.runtime.kernel.KernelSetup}.
 *
 * <p>Global cell coordinates are 1-based as in DESIGN.md: the interior along an axis of {@code N} cells is
 * {@code 1..N}. Axes a problem does not use read as coordinate 1.
 */
package org.dfr.runtime.stencil;
