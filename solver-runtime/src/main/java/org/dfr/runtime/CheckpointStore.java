package org.dfr.runtime;

import com.hazelcast.map.IMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A rank's checkpoints: a local copy of its own partitions, and replicated copies of every partition
 * on other hosts ({@link ReplicaStore}: the checkpoint map's backups, or holder ranks over the data
 * plane), so that the loss of any single member, or of a host, leaves one copy.
 *
 * <p>The two halves are separate steps: {@link #holdLocal} is the only part on the computing
 * rank's critical path (it keeps the state buffer itself, no copy: {@link DoubleBuffer#hold});
 * {@link #replicate} writes the replicated copies of it, on the rank's replication thread
 * ({@link Checkpointing}). {@link #writeLocal} keeps a copy instead.
 *
 * <p>Readers find the copies of checkpoint {@code c} of partition {@code p} through the partition's
 * locator entry {@code "locators/p"} in the checkpoint map ({@link PartitionLocators}, with the map's backups),
 * written after the copies are in place: a locator only points at copies already written. One entry per
 * partition, read by nobody but recoveries: the owner knows what it wrote ({@link #forgetOwnLocators} after a
 * recovery). It is written only when it does not say already where a checkpoint's copies are: a ref of copies
 * held by ranks stands for the later checkpoints too ({@link PartitionLocators#standsForLater}), so while the
 * holders live and the state changes, the entry is written once, not once per checkpoint. A locator per
 * checkpoint, read back by its writer and deleted at the next commit, took five operations of the map per
 * partition and checkpoint, two of them with backups, and in processes mode half of a checkpoint's cost; one write
 * per checkpoint still took a third (docs/bench.md, sessions 21 and 22). An older checkpoint's ref stays in the
 * entry until the next write; nobody asks for it: a recovery reads the committed checkpoint.
 *
 * <p>A partition whose state did not change since the checkpoint this store replicated before
 * (bitwise; a converged region, an idle rank) is not sent again while its copies are intact: the new
 * locator points at the copies already replicated, and dropping the older checkpoint keeps copies a
 * kept locator points at.
 */
public final class CheckpointStore {

    private final IMap<String, byte[]> locators;
    private final PromotionRetry retry;
    private final ReplicaStore copies;
    private final TreeMap<Integer, Map<Integer, double[]>> local = new TreeMap<>();
    /** The double buffers the local copies kept by {@link #holdLocal} belong to, by array identity. */
    private final Map<double[], DoubleBuffer> lenders = new IdentityHashMap<>();
    /** By partition: the iteration and copies this store replicated last (for unchanged states). */
    private final Map<Integer, Replicated> lastReplicated = new HashMap<>();
    /** By partition: what this store knows of the locator entry of a partition it owns ({@link #publish}). */
    private final Map<Integer, Own> ownLocators = new ConcurrentHashMap<>();
    private final AtomicLong partitionsSent = new AtomicLong();
    private final AtomicLong partitionsUnchanged = new AtomicLong();
    private final AtomicLong bytesSent = new AtomicLong();
    private final AtomicLong locatorWritesSaved = new AtomicLong();
    private int peakLocalCopies;

    private record Replicated(int iteration, ReplicaRef ref) {
    }

    /**
     * A partition's locator entry as this store knows it: the bytes the map holds (written last by this store, or
     * read when it had not written it: an adopter), null when it holds none, and what they say; whether this store
     * wrote them; and the refs of the checkpoints this store keeps, without those dropped since (they leave the map's
     * entry at the next write).
     */
    private record Own(byte[] inMap, PartitionLocators entry, boolean written, NavigableMap<Integer, ReplicaRef> refs) {
    }

    /**
     * @param locators the checkpoint map, which holds the locators
     * @param copies   where the states are copied to
     */
    public CheckpointStore(IMap<String, byte[]> locators, PromotionRetry retry, ReplicaStore copies) {
        this.locators = locators;
        this.retry = retry;
        this.copies = copies;
    }

    /** A store whose copies live in the checkpoint map too ({@link HazelcastReplicas}). */
    public CheckpointStore(IMap<String, byte[]> replicated, PromotionRetry retry, Supplier<String> localKey) {
        this(replicated, retry, new HazelcastReplicas(replicated, retry, localKey));
    }

    /**
     * The key of a partition's locator entry in the checkpoint map ({@link HazelcastConfigs#CHECKPOINT_MAP}); public
     * for tests that stage the loss of an entry with the members that held it.
     */
    public static String locatorKey(int partition) {
        return "locators/" + partition;
    }

    /** The start of the key of a state in the checkpoint map ({@link HazelcastReplicas}). */
    static String stateKeyPrefix(int iteration, int partition) {
        return iteration + "/" + partition;
    }

    /** Keeps a local copy and writes the replicated copy of one partition's state, at once. */
    public void write(int iteration, int partition, double[] state) {
        writeLocal(iteration, partition, state);
        replicate(iteration, partition);
    }

    /** Keeps a copy of one partition's state as its local copy (the ranks hold their buffers instead: {@link #holdLocal}). */
    public synchronized void writeLocal(int iteration, int partition, double[] state) {
        keep(iteration, partition, state.clone());
    }

    /**
     * Keeps buffer {@code index} of a partition's double buffer as its local copy of checkpoint
     * {@code iteration}, without copying it: the buffer is {@link DoubleBuffer#hold held} until the copy is
     * dropped, then given back.
     */
    public synchronized void holdLocal(int iteration, int partition, DoubleBuffer buffers, int index) {
        // maybe dropped as an older checkpoint's copy and not yet given back by its holders: kept from then on
        double[] held = LentArrays.hold(() -> buffers.hold(index));
        lenders.put(held, buffers);
        keep(iteration, partition, held);
    }

    private void keep(int iteration, int partition, double[] copy) {
        double[] replaced = local.computeIfAbsent(iteration, k -> new HashMap<>()).put(partition, copy);
        if (replaced != null && replaced != copy) {
            discard(replaced);
        }
        peakLocalCopies = Math.max(peakLocalCopies, localCopies());
    }

    /**
     * A dropped local copy: back to the double buffer it was held from, which writes into it again
     * instead of allocating (a copy of its own, {@link #writeLocal} or an adopted one, is left to the collector);
     * once no holder in this JVM keeps it as its copy ({@link LentArrays}).
     */
    private void discard(double[] copy) {
        DoubleBuffer lender = lenders.remove(copy);
        if (lender != null) {
            LentArrays.whenFree(copy, () -> lender.release(copy));
        }
    }

    /**
     * The local copy of {@code (iteration, partition)}, counted as lent ({@link LentArrays#take}) until the caller
     * {@link LentArrays#giveBack gives it back}: dropped meanwhile (a recovery abandons the checkpoint), it is not
     * written again before the holders it is being lent to gave it back; or null.
     */
    private synchronized double[] borrowLocal(int iteration, int partition) {
        double[] copy = local(iteration, partition);
        if (copy != null) {
            LentArrays.take(copy);
        }
        return copy;
    }

    /**
     * Writes the replicated copies of the local copy of {@code (iteration, partition)}; unless the state
     * equals, bit for bit, the one this store replicated before and its copies are intact, then only
     * the locator is written.
     *
     * @return whether the state was sent (false: unchanged, or no local copy)
     */
    public boolean replicate(int iteration, int partition) {
        double[] copy;
        double[] before;
        Replicated last;
        synchronized (this) {
            copy = borrowLocal(iteration, partition);
            last = lastReplicated.get(partition);
            before = last == null || last.iteration() == iteration ? null : local(last.iteration(), partition);
        }
        if (copy == null) {
            return false;
        }
        try {
            return replicate(iteration, partition, copy, before, last);
        } finally {
            LentArrays.giveBack(copy);
        }
    }

    private boolean replicate(int iteration, int partition, double[] copy, double[] before, Replicated last) {
        ReplicaRef previous = ownRef(iteration, partition);
        // the older local copy stays until this one is committed, so neither array is written here but for the
        // ghost frame of a held one, into which the next iteration unpacks its halos: at worst an unchanged
        // state is sent again
        if (before != null && Arrays.equals(before, copy) && last.ref().equals(ownRef(last.iteration(), partition))
                && copies.intact(last.ref())) {
            ReplicaRef shared = last.ref();
            publish(iteration, partition, shared);
            deleteUnlessKept(previous, iteration, partition, shared);
            partitionsUnchanged.incrementAndGet();
            return false;
        }
        ReplicaRef ref = copies.write(iteration, partition, copy);
        publish(iteration, partition, ref);
        // a rewrite (after a recovery, or by an adopter) may land elsewhere: drop the old copies
        deleteUnlessKept(previous, iteration, partition, ref);
        synchronized (this) {
            lastReplicated.put(partition, new Replicated(iteration, ref));
        }
        partitionsSent.incrementAndGet();
        bytesSent.addAndGet((long) copy.length * Double.BYTES);
        return true;
    }

    /**
     * Places new copies of checkpoint {@code iteration} of those of {@code partitions} whose copies are not
     * intact (a holder died), from the local copies, and points their locators at them.
     *
     * @return how many partitions' copies were placed again
     */
    public int repair(int iteration, int[] partitions) {
        int repaired = 0;
        for (int p : partitions) {
            double[] copy = borrowLocal(iteration, p);
            if (copy == null) {
                continue;
            }
            try {
                ReplicaRef ref = ownRef(iteration, p);
                if (ref == null || copies.intact(ref)) {
                    continue;
                }
                ReplicaRef fresh = copies.write(iteration, p, copy);
                publish(iteration, p, fresh);
                deleteUnlessKept(ref, iteration, p, fresh);
                synchronized (this) {
                    lastReplicated.put(p, new Replicated(iteration, fresh));
                }
                repaired++;
            } finally {
                LentArrays.giveBack(copy);
            }
        }
        return repaired;
    }

    /**
     * Writes the partition's locator entry: {@code ref} for checkpoint {@code iteration}, and the refs of the other
     * checkpoints this store keeps a local copy of (the committed one, or the one in flight).
     */
    private void publish(int iteration, int partition, ReplicaRef ref) {
        Set<Integer> kept;
        synchronized (this) {
            kept = new HashSet<>(local.keySet());
        }
        Own own = own(partition);
        NavigableMap<Integer, ReplicaRef> refs = new TreeMap<>();
        for (int c : kept) {
            ReplicaRef r = ownRef(c, partition); // an adopter's view: the adopted checkpoint through the entry's floor
            if (r != null) {
                refs.put(c, r);
            }
        }
        refs.put(iteration, ref);
        if (own.written() && ref.equals(own.entry().ref(iteration))) {
            // the entry says so already: the copies went to the holders of the checkpoint before. Only over an entry
            // this store wrote: an adopter's first write replaces the former owner's entry, so that the former owner,
            // found dead but alive, cannot write over it (below)
            ownLocators.put(partition,
                    new Own(own.inMap(), own.entry(), true, Collections.unmodifiableNavigableMap(refs)));
            locatorWritesSaved.incrementAndGet();
            return;
        }
        PartitionLocators entry = new PartitionLocators(refs);
        byte[] next = entry.toBytes();
        String key = locatorKey(partition);
        // only if the map holds what this store last saw: a rank that lost the partition to an adopter while it
        // was still replicating (found dead, but alive) must not overwrite the adopter's entry
        boolean swapped = retry.call(() -> own.inMap() == null ? locators.putIfAbsent(key, next) == null
                : locators.replace(key, own.inMap(), next));
        if (!swapped && !Arrays.equals(locatorBytes(partition), next)) { // not an applied write retried
            throw new IllegalStateException("the locator entry of partition " + partition + " was written by another"
                    + " rank: this rank no longer owns the partition");
        }
        ownLocators.put(partition, new Own(next, entry, true, entry.refs()));
    }

    /** This store's view of the partition's locator entry: what it wrote, else what the map holds. */
    private Own own(int partition) {
        Own own = ownLocators.get(partition);
        if (own == null) {
            byte[] inMap = locatorBytes(partition);
            PartitionLocators entry = inMap == null ? new PartitionLocators(Collections.emptyNavigableMap())
                    : PartitionLocators.fromBytes(inMap);
            own = new Own(inMap, entry, false, entry.refs());
            ownLocators.put(partition, own);
        }
        return own;
    }

    /** Where the copies of a checkpoint of a partition this store writes are, or null. */
    private ReplicaRef ownRef(int iteration, int partition) {
        Own own = own(partition);
        ReplicaRef ref = own.refs().get(iteration);
        // a view read from the map (an adopter's, or this store's after a recovery): what the entry says, floors
        // included, so that the adopted checkpoint's copies, and those of one a recovery abandoned, are deleted when
        // dropped; left with the holders, they would push the committed copies out (HeldReplicas.KEPT_PER_PARTITION)
        return ref != null || own.written() ? ref : own.entry().ref(iteration);
    }

    /**
     * Forgets what this store wrote into the locator entries: after a recovery, which may have given a partition
     * to another owner (who writes its entry from then on) and back.
     */
    public void forgetOwnLocators() {
        ownLocators.clear();
    }

    private void deleteUnlessKept(ReplicaRef previous, int iteration, int partition, ReplicaRef now) {
        if (previous != null && !previous.equals(now) && !keptRefs(partition, iteration).contains(previous)) {
            // a rewrite of the same checkpoint may have landed on a holder of the previous copies again
            copies.delete(previous.withoutCopiesOf(now));
        }
    }

    /** The local copy, or null when this rank did not write it. */
    public synchronized double[] local(int iteration, int partition) {
        Map<Integer, double[]> byPartition = local.get(iteration);
        return byPartition == null ? null : byPartition.get(partition);
    }

    /**
     * The replicated copy, or null when no copy survived: this rank's own held copy first (without the
     * locator), then the holders its locator names, then, with the locator lost, a search of the live ranks.
     */
    public double[] replicated(int iteration, int partition) {
        return readReplicated(iteration, partition, true);
    }

    /**
     * {@link #replicated}, but only where this rank holds the copy or its locator names holders: no search of the
     * live ranks for a copy whose locator was lost (which waits for their answers). For a state that can be rebuilt
     * otherwise (where the run started).
     */
    public double[] replicatedIfLocated(int iteration, int partition) {
        return readReplicated(iteration, partition, false);
    }

    private double[] readReplicated(int iteration, int partition, boolean searchWhenUnlocated) {
        double[] held = copies.readHeld(iteration, partition);
        if (held != null) {
            return held;
        }
        ReplicaRef ref = searchWhenUnlocated ? locatedRef(iteration, partition) : replicatedRef(iteration, partition);
        return ref == null ? null : copies.read(ref);
    }

    /**
     * The complete copies of other ranks' checkpoints this rank holds, read without any locator: what it names in its
     * recovery status ({@link ReplicaStore#intactHeldCopies}).
     */
    public List<HeldCopy> heldCopies() {
        return copies.intactHeldCopies();
    }

    /**
     * The ranks its locator names as holding copies of checkpoint {@code iteration} of {@code partition}: empty
     * when the copies are the checkpoint map's backups, or no locator is found (nobody is asked).
     */
    public List<Integer> copyHolders(int iteration, int partition) {
        ReplicaRef ref = replicatedRef(iteration, partition);
        return ref == null ? List.of() : ref.holders();
    }

    /** Whether the replicated copy of a partition's state exists. */
    public boolean hasReplicated(int iteration, int partition) {
        ReplicaRef ref = locatedRef(iteration, partition);
        return ref != null && copies.holds(ref);
    }

    /**
     * The locator's ref, or where the copies are found without it: three deaths on three hosts can take
     * every map entry of a locator while its copies live on ranks that survived ({@link ReplicaStore#locate}).
     */
    private ReplicaRef locatedRef(int iteration, int partition) {
        ReplicaRef ref = replicatedRef(iteration, partition);
        return ref != null ? ref : copies.locate(iteration, partition);
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
            local.remove(old).values().forEach(this::discard);
        }
        return dropped;
    }

    /** Drops the local copies of {@code iteration} (a checkpoint abandoned before its commit). */
    public synchronized void dropLocal(int iteration) {
        Map<Integer, double[]> copies = local.remove(iteration);
        if (copies != null) {
            copies.values().forEach(this::discard);
        }
        lastReplicated.values().removeIf(r -> r.iteration() == iteration);
    }

    /**
     * Deletes the replicated copies of {@code partitions} at the given iterations, unless a kept (local)
     * checkpoint's locator points at the same copies. Their refs leave the locator entries at the next write.
     */
    public void dropReplicated(List<Integer> iterations, int[] partitions) {
        for (int old : iterations) {
            for (int p : partitions) {
                ReplicaRef ref = ownRef(old, p);
                ownLocators.computeIfPresent(p, (k, own) -> {
                    NavigableMap<Integer, ReplicaRef> left = new TreeMap<>(own.refs());
                    left.remove(old);
                    return new Own(own.inMap(), own.entry(), own.written(), Collections.unmodifiableNavigableMap(left));
                });
                if (ref != null && !keptRefs(p, old).contains(ref)) {
                    copies.delete(ref);
                }
            }
        }
    }

    /** The copies the locators of the kept checkpoints of {@code partition} other than {@code except} point at. */
    private Set<ReplicaRef> keptRefs(int partition, int except) {
        List<Integer> kept;
        synchronized (this) {
            kept = new ArrayList<>(local.keySet());
        }
        Set<ReplicaRef> refs = new HashSet<>();
        for (int c : kept) {
            if (c != except) {
                ReplicaRef ref = ownRef(c, partition);
                if (ref != null) {
                    refs.add(ref);
                }
            }
        }
        return refs;
    }

    /** Adopts a local copy loaded from the replicated map (a replacement taking over a partition). */
    public synchronized void adoptLocal(int iteration, int partition, double[] state) {
        keep(iteration, partition, state.clone());
    }

    /** Where the replicated copies are, read from the locator entry; null when it does not say. */
    ReplicaRef replicatedRef(int iteration, int partition) {
        PartitionLocators entry = readLocators(partition);
        return entry == null ? null : entry.ref(iteration);
    }

    private PartitionLocators readLocators(int partition) {
        byte[] entry = locatorBytes(partition);
        return entry == null ? null : PartitionLocators.fromBytes(entry);
    }

    /** The partition's locator entry as the map holds it now, or null. */
    private byte[] locatorBytes(int partition) {
        return retry.call(() -> locators.get(locatorKey(partition)));
    }

    /** The checkpoint map's key of the replicated state ({@link HazelcastReplicas}); null when the locator is gone. */
    String replicatedKey(int iteration, int partition) {
        ReplicaRef ref = replicatedRef(iteration, partition);
        return ref == null ? null : ref.key();
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

    /** Partition states sent to their copies so far. */
    public long partitionsSent() {
        return partitionsSent.get();
    }

    /** Partition checkpoints not sent because the state equalled the one replicated before. */
    public long partitionsUnchanged() {
        return partitionsUnchanged.get();
    }

    /** Checkpoints whose locator entry was not written: it said where their copies are already. */
    public long locatorWritesSaved() {
        return locatorWritesSaved.get();
    }

    /** Bytes of state replicated so far (one copy's; each further copy costs as many). */
    public long bytesSent() {
        return bytesSent.get();
    }
}
