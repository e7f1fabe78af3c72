package org.dfr.runtime;

import com.hazelcast.map.IMap;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A rank's checkpoints: a local copy of its own partitions, and a replicated copy of every
 * partition in an IMap with synchronous backups ({@code set}, not {@code put}), so that the loss
 * of any single member (or, with zone-aware groups, of a host) leaves one copy.
 *
 * <p>The two halves are separate steps: {@link #writeLocal} is the only part on the computing
 * rank's critical path (one array copy); {@link #replicate} serialises that copy and writes the
 * replicated copy, on the rank's replication thread ({@link Checkpointing}).
 *
 * <p>The replicated copy's primary lives on the writing member when it owns a Hazelcast partition:
 * its key is {@code "c/p@k"} with {@code k} a partition key owned locally ({@link LocalPartitionKey}),
 * so only the backups cross the network (a third less traffic with two backups). Readers cannot
 * know {@code k}, so a small locator entry {@code "c/p"} holding the state's key is written after the
 * state, with the same backups: a state is found only through its locator, and a locator only
 * points at a state already written.
 *
 * <p>A partition whose state did not change since the checkpoint this store replicated before
 * (bitwise; a converged region, an idle rank) is not sent again: the new locator points at the
 * state already replicated, and dropping the older checkpoint keeps a state a kept locator points at.
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
    /** By partition: the iteration and state key this store replicated last (for unchanged states). */
    private final Map<Integer, Replicated> lastReplicated = new HashMap<>();
    private final AtomicLong partitionsSent = new AtomicLong();
    private final AtomicLong partitionsUnchanged = new AtomicLong();
    private final AtomicLong bytesSent = new AtomicLong();
    private int peakLocalCopies;

    private record Replicated(int iteration, String stateKey) {
    }

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

    /** Keeps a local copy and writes the replicated copy of one partition's state, at once. */
    public void write(int iteration, int partition, double[] state) {
        writeLocal(iteration, partition, state);
        replicate(iteration, partition);
    }

    /** Keeps a local copy of one partition's state (the checkpoint's cost on the computing rank). */
    public synchronized void writeLocal(int iteration, int partition, double[] state) {
        double[] copy = recycled.remove(partition);
        if (copy == null || copy.length != state.length) {
            copy = new double[state.length];
        }
        System.arraycopy(state, 0, copy, 0, state.length);
        double[] replaced = local.computeIfAbsent(iteration, k -> new HashMap<>()).put(partition, copy);
        if (replaced != null) {
            recycled.put(partition, replaced);
        }
        peakLocalCopies = Math.max(peakLocalCopies, localCopies());
    }

    /**
     * Writes the replicated copy of the local copy of {@code (iteration, partition)}; unless the state
     * equals, bit for bit, the one this store replicated before, then only the locator is written.
     *
     * @return whether the state was sent (false: unchanged, or no local copy)
     */
    public boolean replicate(int iteration, int partition) {
        double[] copy;
        double[] before;
        Replicated last;
        synchronized (this) {
            copy = local(iteration, partition);
            last = lastReplicated.get(partition);
            before = last == null || last.iteration() == iteration ? null : local(last.iteration(), partition);
        }
        if (copy == null) {
            return false;
        }
        String previous = replicatedKey(iteration, partition);
        // the older local copy stays until this one is committed, so both arrays are stable here
        if (before != null && Arrays.equals(before, copy) && last.stateKey().equals(replicatedKey(last.iteration(), partition))) {
            String shared = last.stateKey();
            retry.run(() -> replicated.set(locatorKey(iteration, partition), shared.getBytes(StandardCharsets.UTF_8)));
            deleteUnlessKept(previous, iteration, partition, shared);
            partitionsUnchanged.incrementAndGet();
            return false;
        }
        byte[] bytes;
        synchronized (this) {
            // Hazelcast serialises the value before set returns, so the buffer is free again after it
            bytes = scratch.compute(partition, (p, b) -> b != null && b.length == copy.length * Double.BYTES
                    ? b : new byte[copy.length * Double.BYTES]);
        }
        Doubles.toBytes(copy, bytes);
        String key = stateKey(iteration, partition, localKey.get());
        retry.run(() -> replicated.set(key, bytes));
        retry.run(() -> replicated.set(locatorKey(iteration, partition), key.getBytes(StandardCharsets.UTF_8)));
        // a rewrite (after a recovery, or by an adopter) may land under another key: drop the old one
        deleteUnlessKept(previous, iteration, partition, key);
        synchronized (this) {
            lastReplicated.put(partition, new Replicated(iteration, key));
        }
        partitionsSent.incrementAndGet();
        bytesSent.addAndGet(bytes.length);
        return true;
    }

    private void deleteUnlessKept(String previous, int iteration, int partition, String now) {
        if (previous != null && !previous.equals(now) && !keptStateKeys(partition, iteration).contains(previous)) {
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
    public void dropOlderThan(int committed, int[] partitions) {
        dropReplicated(dropLocalOlderThan(committed), partitions);
    }

    /** Drops the local copies older than {@code committed} and returns their iterations. */
    public synchronized List<Integer> dropLocalOlderThan(int committed) {
        List<Integer> dropped = new ArrayList<>(local.headMap(committed, false).keySet());
        for (int old : dropped) {
            local.remove(old).forEach(recycled::put);
        }
        return dropped;
    }

    /** Drops the local copies of {@code iteration} (a checkpoint abandoned before its commit). */
    public synchronized void dropLocal(int iteration) {
        Map<Integer, double[]> copies = local.remove(iteration);
        if (copies != null) {
            copies.forEach(recycled::put);
        }
        lastReplicated.values().removeIf(r -> r.iteration() == iteration);
    }

    /**
     * Deletes the replicated copies of {@code partitions} at the given iterations: their locators, and
     * their states unless a kept (local) checkpoint's locator points at the same state.
     */
    public void dropReplicated(List<Integer> iterations, int[] partitions) {
        for (int old : iterations) {
            for (int p : partitions) {
                String key = replicatedKey(old, p);
                retry.run(() -> replicated.delete(locatorKey(old, p)));
                if (key != null && !keptStateKeys(p, old).contains(key)) {
                    retry.run(() -> replicated.delete(key));
                }
            }
        }
    }

    /** State keys the locators of the kept checkpoints of {@code partition} other than {@code except} point at. */
    private Set<String> keptStateKeys(int partition, int except) {
        List<Integer> kept;
        synchronized (this) {
            kept = new ArrayList<>(local.keySet());
        }
        Set<String> keys = new HashSet<>();
        for (int c : kept) {
            if (c != except) {
                String key = replicatedKey(c, partition);
                if (key != null) {
                    keys.add(key);
                }
            }
        }
        return keys;
    }

    /** Adopts a local copy loaded from the replicated map (a replacement taking over a partition). */
    public synchronized void adoptLocal(int iteration, int partition, double[] state) {
        local.computeIfAbsent(iteration, k -> new HashMap<>()).put(partition, state.clone());
        peakLocalCopies = Math.max(peakLocalCopies, localCopies());
    }

    /** The key of the replicated state, read from its locator; null when the locator is gone. */
    String replicatedKey(int iteration, int partition) {
        byte[] locator = retry.call(() -> replicated.get(locatorKey(iteration, partition)));
        return locator == null ? null : new String(locator, StandardCharsets.UTF_8);
    }

    /** Local copies held now (one per partition and checkpoint). */
    public synchronized int localCopies() {
        int n = 0;
        for (Map<Integer, double[]> byPartition : local.values()) {
            n += byPartition.size();
        }
        return n;
    }

    /** The most local copies held at once so far. */
    public synchronized int peakLocalCopies() {
        return peakLocalCopies;
    }

    /** Partition states sent to the replicated map so far. */
    public long partitionsSent() {
        return partitionsSent.get();
    }

    /** Partition checkpoints not sent because the state equalled the one replicated before. */
    public long partitionsUnchanged() {
        return partitionsUnchanged.get();
    }

    /** Bytes of state sent to the replicated map so far (the primary's; each backup copies as many). */
    public long bytesSent() {
        return bytesSent.get();
    }
}
