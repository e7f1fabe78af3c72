/**
 * The 2D Jacobi problem of DESIGN.md ("The Jacobi problem") and everything needed to compute it
 * bit-for-bit reproducibly: the {@link org.dfr.jacobi.JacobiProblem problem} (boundary and initial
 * values), its {@link org.dfr.jacobi.BlockDecomposition decomposition} over a {@code PX x PY} rank grid,
 * the plain {@link org.dfr.jacobi.SequentialJacobi sequential reference}, the
 * {@link org.dfr.jacobi.JacobiKernel partition kernel} the runtime drives, an
 * {@link org.dfr.jacobi.InThreadPartitionRunner in-thread driver} for any kernel, and the
 * {@link org.dfr.jacobi.FieldDigest field digest} every run is checked against.
 *
 * <p>Every piece evaluates the stencil through {@link org.dfr.jacobi.JacobiStencil}, so the sequential
 * and the blocked computations perform identical floating-point operations on every cell. Its loop is
 * vectorised with the incubating Vector API when the JVM runs with
 * {@code --add-modules jdk.incubator.vector}, and scalar otherwise; the fields are bit for bit the same.
 */
package org.dfr.jacobi;
