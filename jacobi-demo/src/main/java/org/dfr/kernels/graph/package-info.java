/**
 * The {@code graph-jacobi} kernel: Jacobi iteration for {@code (L + I) x = b} on the generated graph of
 * DESIGN.md, partitioned into vertex ranges, with partition dependencies declared from the cut edges of the
 * graph ({@link org.dfr.kernels.graph.GraphJacobiProvider}).
 */
package org.dfr.kernels.graph;
