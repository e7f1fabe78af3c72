package org.dfr.runtime;

import com.hazelcast.map.IMap;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A rank's checkpoints: a local copy of its own partitions, and a replicated copy of every
 * partition in an IMap with one synchronous backup ({@code set}, not {@code put}), so that the loss
 * of any single member (or, with zone-aware groups, of a host) leaves one copy.
 *
 * <p>Keys: {@code "c/p"} for the state of partition p at iteration c.
 */
public final class CheckpointStore {

    private final IMap<String, byte[]> replicated;
    private final PromotionRetry retry;
    private final TreeMap<Integer, Map<Integer, double[]>> local = new TreeMap<>();

    public CheckpointStore(IMap<String, byte[]> replicated, PromotionRetry retry) {
        this.replicated = replicated;
        this.retry = retry;
    }

    static String stateKey(int iteration, int partition) {
        return iteration + "/" + partition;
    }

    /** Keeps a local copy and writes the replicated copy of one partition's state. */
    public synchronized void write(int iteration, int partition, double[] state) {
        double[] copy = state.clone();
        local.computeIfAbsent(iteration, k -> new HashMap<>()).put(partition, copy);
        byte[] bytes = Doubles.toBytes(copy);
        retry.run(() -> replicated.set(stateKey(iteration, partition), bytes));
    }

    /** The local copy, or null when this rank did not write it. */
    public synchronized double[] local(int iteration, int partition) {
        Map<Integer, double[]> byPartition = local.get(iteration);
        return byPartition == null ? null : byPartition.get(partition);
    }

    /** The replicated copy, or null when no copy survived. */
    public double[] replicated(int iteration, int partition) {
        byte[] bytes = retry.call(() -> replicated.get(stateKey(iteration, partition)));
        return bytes == null ? null : Doubles.fromBytes(bytes);
    }

    /** Whether the replicated copy of a partition's state exists. */
    public boolean hasReplicated(int iteration, int partition) {
        return retry.call(() -> replicated.containsKey(stateKey(iteration, partition)));
    }


    /**
     * Drops every checkpoint older than {@code committed}: local copies, and replicated copies of
     * the given partitions (each rank removes what it wrote).
     */
    public synchronized void dropOlderThan(int committed, int[] partitions) {
        for (Integer old : local.headMap(committed, false).keySet().toArray(new Integer[0])) {
            for (int p : partitions) {
                String key = stateKey(old, p);
                retry.run(() -> replicated.delete(key));
            }
            local.remove(old);
        }
    }

    /** Adopts a local copy loaded from the replicated map (a replacement taking over a partition). */
    public synchronized void adoptLocal(int iteration, int partition, double[] state) {
        local.computeIfAbsent(iteration, k -> new HashMap<>()).put(partition, state.clone());
    }

}
