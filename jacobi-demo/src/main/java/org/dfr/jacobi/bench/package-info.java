/**
 * Quick in-process measurements for the {@code bench} command: a STREAM-like
 * {@link org.dfr.jacobi.bench.MemoryBandwidth memory bandwidth} and the
 * {@link org.dfr.jacobi.bench.SequentialJacobiTiming throughput of the sequential kernel}, so the
 * kernel can be reported as a fraction of the bandwidth bound (16 bytes moved per cell update).
 * Careful measurements belong to the JMH benchmarks in module {@code benchmarks}.
 */
package org.dfr.jacobi.bench;
