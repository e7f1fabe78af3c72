/**
 * The 2D Jacobi problem of DESIGN.md ("The Jacobi problem") and everything needed to compute it
 * bit-for-bit reproducibly: the {@link org.dfr.jacobi.JacobiProblem problem} (boundary and initial
 * values), its {@link org.dfr.jacobi.BlockDecomposition decomposition} over a {@code PX x PY} rank grid,
 * the plain {@link org.dfr.jacobi.SequentialJacobi sequential reference}, the
 * {@link org.dfr.jacobi.JacobiKernel partition kernel} the runtime drives, an
 * {@link org.dfr.jacobi.InThreadPartitionRunner in-thread driver} for any kernel, and the
 * {@link org.dfr.jacobi.FieldDigest field digest} every run is checked against.
 *
 * <p>Every piece evaluates the stencil through the same {@code JacobiStencil} loop, so the sequential
 * and the blocked computations perform identical floating-point operations on every cell.
 */
package org.dfr.jacobi;
