package org.dfr.runtime;

import com.hazelcast.map.IMap;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * A rank's checkpoints: a local copy of its own partitions, and a replicated copy of every
 * partition in an IMap with synchronous backups ({@code set}, not {@code put}), so that the loss
 * of any single member (or, with zone-aware groups, of a host) leaves one copy.
 *
 * <p>The replicated copy's primary lives on the writing member when it owns a Hazelcast partition:
 * its key is {@code "c/p@k"} with {@code k} a partition key owned locally ({@link LocalPartitionKey}),
 * so only the backups cross the network (a third less traffic with two backups). Readers cannot
 * know {@code k}, so a small locator entry {@code "c/p"} holding {@code k} is written after the
 * state, with the same backups: a state is found only through its locator, and a locator only
 * points at a state already written.
 */
public final class CheckpointStore {

    private final IMap<String, byte[]> replicated;
    private final PromotionRetry retry;
    private final Supplier<String> localKey;
    private final TreeMap<Integer, Map<Integer, double[]>> local = new TreeMap<>();
    /**
     * Arrays of dropped local copies, and the byte buffer of the last write, by partition: a
     * checkpoint of 16 MiB per rank otherwise allocates two fresh arrays, which the collector then
     * copies into the old generation (most of the cost of a checkpoint with the parallel collector).
     */
    private final Map<Integer, double[]> recycled = new HashMap<>();
    private final Map<Integer, byte[]> scratch = new HashMap<>();

    /**
     * @param replicated the checkpoint map, partitioned by
     *                   {@link com.hazelcast.partition.strategy.StringPartitioningStrategy}
     * @param localKey   a partition key owned by this member, or null when it owns none (the state
     *                   then goes wherever its own key hashes)
     */
    public CheckpointStore(IMap<String, byte[]> replicated, PromotionRetry retry, Supplier<String> localKey) {
        this.replicated = replicated;
        this.retry = retry;
        this.localKey = localKey;
    }

    static String locatorKey(int iteration, int partition) {
        return iteration + "/" + partition;
    }

    static String stateKey(int iteration, int partition, String partitionKey) {
        // without '@' the whole key picks the partition, as for any other key
        return partitionKey == null ? locatorKey(iteration, partition) + "/state"
                : locatorKey(iteration, partition) + "@" + partitionKey;
    }

    /** Keeps a local copy and writes the replicated copy of one partition's state. */
    public synchronized void write(int iteration, int partition, double[] state) {
        double[] copy = recycled.remove(partition);
        if (copy == null || copy.length != state.length) {
            copy = new double[state.length];
        }
        System.arraycopy(state, 0, copy, 0, state.length);
        double[] replaced = local.computeIfAbsent(iteration, k -> new HashMap<>()).put(partition, copy);
        if (replaced != null) {
            recycled.put(partition, replaced);
        }
        // Hazelcast serialises the value before set returns, so the buffer is free again after it
        byte[] bytes = scratch.compute(partition, (p, b) -> b != null && b.length == state.length * Double.BYTES
                ? b : new byte[state.length * Double.BYTES]);
        Doubles.toBytes(copy, bytes);
        String partitionKey = localKey.get();
        byte[] locator = partitionKey == null ? new byte[0] : partitionKey.getBytes(StandardCharsets.UTF_8);
        String key = stateKey(iteration, partition, partitionKey);
        // a rewrite (after a recovery, or by an adopter) may land under another key: drop the old one
        String previous = replicatedKey(iteration, partition);
        retry.run(() -> replicated.set(key, bytes));
        retry.run(() -> replicated.set(locatorKey(iteration, partition), locator));
        if (previous != null && !previous.equals(key)) {
            retry.run(() -> replicated.delete(previous));
        }
    }

    /** The local copy, or null when this rank did not write it. */
    public synchronized double[] local(int iteration, int partition) {
        Map<Integer, double[]> byPartition = local.get(iteration);
        return byPartition == null ? null : byPartition.get(partition);
    }

    /** The replicated copy, or null when no copy survived. */
    public double[] replicated(int iteration, int partition) {
        String key = replicatedKey(iteration, partition);
        if (key == null) {
            return null;
        }
        byte[] bytes = retry.call(() -> replicated.get(key));
        return bytes == null ? null : Doubles.fromBytes(bytes);
    }

    /** Whether the replicated copy of a partition's state exists. */
    public boolean hasReplicated(int iteration, int partition) {
        String key = replicatedKey(iteration, partition);
        return key != null && retry.call(() -> replicated.containsKey(key));
    }

    /**
     * Drops every checkpoint older than {@code committed}: local copies, and replicated copies of
     * the given partitions (each rank removes what it wrote).
     */
    public synchronized void dropOlderThan(int committed, int[] partitions) {
        for (Integer old : local.headMap(committed, false).keySet().toArray(new Integer[0])) {
            for (int p : partitions) {
                String key = replicatedKey(old, p);
                if (key != null) {
                    retry.run(() -> replicated.delete(key));
                }
                retry.run(() -> replicated.delete(locatorKey(old, p)));
            }
            local.remove(old).forEach(recycled::put);
        }
    }

    /** Adopts a local copy loaded from the replicated map (a replacement taking over a partition). */
    public synchronized void adoptLocal(int iteration, int partition, double[] state) {
        local.computeIfAbsent(iteration, k -> new HashMap<>()).put(partition, state.clone());
    }

    /** The key of the replicated state, read from its locator; null when the locator is gone. */
    String replicatedKey(int iteration, int partition) {
        byte[] locator = retry.call(() -> replicated.get(locatorKey(iteration, partition)));
        if (locator == null) {
            return null;
        }
        return stateKey(iteration, partition,
                locator.length == 0 ? null : new String(locator, StandardCharsets.UTF_8));
    }
}
