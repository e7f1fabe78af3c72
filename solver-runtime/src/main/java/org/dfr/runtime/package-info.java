/**
 * Ranks as Hazelcast members running a {@link org.dfr.runtime.PartitionKernel}: partition ownership,
 * halo exchange, residual reduction, double buffering, checkpoints and the iteration loop.
 */
package org.dfr.runtime;
