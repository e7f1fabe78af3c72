/**
 * Ranks as Hazelcast members running a {@link org.dfr.runtime.PartitionKernel}.
 *
 * <p>A {@link org.dfr.runtime.RankNode} assembles parts with one job each:
 * {@link org.dfr.runtime.Membership} (the member, losses, live ranks),
 * {@link org.dfr.runtime.Ownership} (partition to rank, the source of truth for where a partition
 * lives), {@link org.dfr.runtime.PartitionStates} and {@link org.dfr.runtime.DoubleBuffer} (the
 * owned partitions' double buffers, with the one swap), {@link org.dfr.runtime.Communicator} (halos,
 * reduction, barriers over the data plane), {@link org.dfr.runtime.Checkpointing} with
 * {@link org.dfr.runtime.CheckpointStore} (checkpoint copies and the commit protocol),
 * {@link org.dfr.runtime.IterationLoop} (the loop and convergence) and
 * {@link org.dfr.runtime.RankCounters} (statistics). {@link org.dfr.runtime.Leadership} is the one
 * rule for who leads each role (founder, root, coordinator).
 *
 * <p>Extension points see a rank through narrow interfaces: a {@link org.dfr.runtime.FailureHandler}
 * through {@link org.dfr.runtime.RecoveryView}, an {@link org.dfr.runtime.IterationHook} through
 * {@link org.dfr.runtime.RankContext}. A failed run throws {@link org.dfr.runtime.RunFailedException}
 * with its {@link org.dfr.runtime.RunFailedException.Kind kind}.
 */
package org.dfr.runtime;
