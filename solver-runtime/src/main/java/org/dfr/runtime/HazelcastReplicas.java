package org.dfr.runtime;

import com.hazelcast.map.IMap;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Checkpoint copies in the checkpoint map, with its synchronous backups ({@code set}, not {@code put}),
 * so that the loss of any single member (or, with zone-aware groups, of a host) leaves one copy;
 * Hazelcast restores the backups after a loss.
 *
 * <p>The copy's primary lives on the writing member when it owns a Hazelcast partition: its key is
 * {@code "c/p@k"} with {@code k} a partition key owned locally ({@link LocalPartitionKey}), so only the
 * backups cross the network (a third less traffic with two backups). Readers cannot know {@code k}:
 * they find the key through the locator ({@link CheckpointStore}).
 */
public final class HazelcastReplicas implements ReplicaStore {

    private final IMap<String, byte[]> map;
    private final PromotionRetry retry;
    private final Supplier<String> localKey;
    /**
     * The byte buffer of the last write, by partition: a checkpoint of 16 MiB per rank otherwise
     * allocates a fresh array, which the collector then copies into the old generation.
     */
    private final Map<Integer, byte[]> scratch = new HashMap<>();

    /**
     * @param map      the checkpoint map, partitioned by
     *                 {@link com.hazelcast.partition.strategy.StringPartitioningStrategy}
     * @param localKey a partition key owned by this member, or null when it owns none (the state then
     *                 goes wherever its own key hashes)
     */
    public HazelcastReplicas(IMap<String, byte[]> map, PromotionRetry retry, Supplier<String> localKey) {
        this.map = map;
        this.retry = retry;
        this.localKey = localKey;
    }

    static String stateKey(int iteration, int partition, String partitionKey) {
        // without '@' the whole key picks the partition, as for any other key
        return partitionKey == null ? CheckpointStore.stateKeyPrefix(iteration, partition) + "/state"
                : CheckpointStore.stateKeyPrefix(iteration, partition) + "@" + partitionKey;
    }

    @Override
    public ReplicaRef write(int iteration, int partition, double[] state) {
        byte[] bytes;
        synchronized (scratch) {
            // Hazelcast serialises the value before set returns, so the buffer is free again after it
            bytes = scratch.compute(partition, (p, b) -> b != null && b.length == state.length * Double.BYTES
                    ? b : new byte[state.length * Double.BYTES]);
        }
        Doubles.toBytes(state, bytes);
        String key = stateKey(iteration, partition, localKey.get());
        retry.run(() -> map.set(key, bytes));
        return ReplicaRef.inMap(iteration, partition, key);
    }

    @Override
    public double[] read(ReplicaRef ref) {
        byte[] bytes = retry.call(() -> map.get(ref.key()));
        return bytes == null ? null : Doubles.fromBytes(bytes);
    }

    @Override
    public boolean holds(ReplicaRef ref) {
        return retry.call(() -> map.containsKey(ref.key()));
    }

    /** Always: Hazelcast restores a lost backup by itself. */
    @Override
    public boolean intact(ReplicaRef ref) {
        return true;
    }

    @Override
    public void delete(ReplicaRef ref) {
        retry.run(() -> map.delete(ref.key()));
    }
}
