package org.dfr.runtime;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The checkpoint copies one rank holds for others ({@link DataPlaneReplicas}): reassembled from their
 * slices, kept as the slices themselves (no copy on arrival), a writer's file in shared memory kept as a
 * mapping ({@link SharedMemoryCopy}), or, from a writer in this JVM, the writer's own array, lent until this rank
 * drops it ({@link LentArrays}); at most {@value #KEPT_PER_PARTITION} complete copies per partition.
 *
 * <p>The full-size slices of a dropped copy are kept for the next copy to arrive in ({@link #slice}), up to
 * {@value #MAX_POOLED_SLICES} of them: a copy of 16 MiB otherwise allocates 16 fresh arrays per checkpoint, which live
 * long enough for the collector to copy them into the old generation. A copy that was lent out to be sent to a
 * reader ({@link #lend}) is never recycled: the sending may still read it.
 *
 * <p>Why the bound: a writer keeps at most its committed checkpoint and the one in flight, and drops the
 * older copies itself; a writer that died before its drops would otherwise leave its copies here for the
 * rest of the run. The two newest are the two the writer can still need, also when its state did not
 * change and the newest locator points at an older copy: an unchanged state is not sent again, so no newer
 * copy displaces it.
 */
final class HeldReplicas {

    /** Complete copies kept per partition: the committed checkpoint's and the one in flight. */
    static final int KEPT_PER_PARTITION = 2;
    /** The most recycled slices kept for copies to come. */
    static final int MAX_POOLED_SLICES = 32;

    private record Id(int iteration, int partition) {
    }

    /** A copy whose slices are arriving. */
    private static final class Incoming {
        final int length;
        final int writer;
        final int request;
        final double[][] slices;
        int received;

        Incoming(int length, int writer, int request, int sliceDoubles) {
            this.length = length;
            this.writer = writer;
            this.request = request;
            this.slices = new double[(length + sliceDoubles - 1) / sliceDoubles][];
        }
    }

    /** A complete copy: its slices, a mapping of the writer's file, or the writer's array. */
    private static final class Copy {
        final double[][] slices;
        final SharedMemoryCopy mapped;
        /** The writer's own array ({@link LentArrays}), which it does not write before this copy is dropped. */
        final double[] borrowed;
        final int length;
        final int writer;
        /** Handed out to be sent: its arrays are never recycled. */
        boolean lent;

        Copy(double[][] slices, int length, int writer) {
            this.slices = slices;
            this.mapped = null;
            this.borrowed = null;
            this.length = length;
            this.writer = writer;
        }

        Copy(SharedMemoryCopy mapped, int writer) {
            this.slices = null;
            this.mapped = mapped;
            this.borrowed = null;
            this.length = mapped.length();
            this.writer = writer;
        }

        Copy(double[] borrowed, int writer) {
            this.slices = null;
            this.mapped = null;
            this.borrowed = borrowed;
            this.length = borrowed.length;
            this.writer = writer;
        }

        /** Whether it still holds the state: a mapped file written again by a writer that gave it up does not. */
        boolean intact() {
            return mapped == null || mapped.intact();
        }
    }

    /**
     * The slices of a complete copy handed out to be sent, and their total length in doubles.
     *
     * @param slices the copy's own arrays: never to be modified
     * @param length the state's length, the sum of the slices' lengths
     */
    record Lent(double[][] slices, int length) {
    }

    private final int sliceDoubles;
    private final Map<Id, Incoming> incoming = new HashMap<>();
    private final Map<Integer, NavigableMap<Integer, Copy>> complete = new HashMap<>();
    private final ArrayDeque<double[]> pool = new ArrayDeque<>();
    /** Closed ({@link #close}): keeps no copy any more. */
    private boolean closed;

    HeldReplicas(int sliceDoubles) {
        this.sliceDoubles = sliceDoubles;
    }

    /**
     * Takes one slice of the copy of {@code (iteration, partition)} sent as request {@code request}. Slice
     * {@code 0} ({@code [length, writer]}) starts the copy, replacing one that was arriving; slices {@code 1..}
     * of the same request follow (a slice of another request is ignored).
     *
     * @return the writer's rank when this slice completed the copy, else -1
     */
    synchronized int accept(int iteration, int partition, int slice, int request, double[] payload) {
        Id id = new Id(iteration, partition);
        Incoming in;
        if (slice == 0) {
            in = new Incoming((int) payload[0], (int) payload[1], request, sliceDoubles);
            Incoming replaced = incoming.put(id, in);
            if (replaced != null) {
                recycle(replaced.slices);
            }
        } else {
            in = incoming.get(id);
            if (in == null || in.request != request || slice > in.slices.length || in.slices[slice - 1] != null) {
                return -1; // a slice of a copy restarted, dropped, or sent by another request
            }
            in.slices[slice - 1] = payload;
            in.received++;
        }
        if (in.received < in.slices.length) {
            return -1;
        }
        incoming.remove(id);
        keep(iteration, partition, new Copy(in.slices, in.length, in.writer));
        return in.writer;
    }

    /**
     * Takes a copy in shared memory ({@link SharedMemoryCopies}) as it is, without copying it: it replaces a copy
     * of the same checkpoint that was arriving.
     */
    synchronized void acceptShared(int iteration, int partition, int writer, SharedMemoryCopy copy) {
        Incoming replaced = incoming.remove(new Id(iteration, partition));
        if (replaced != null) {
            recycle(replaced.slices);
        }
        keep(iteration, partition, new Copy(copy, writer));
    }

    /**
     * Takes the writer's own array as the copy of {@code (iteration, partition)}, without copying it: counted as
     * lent ({@link LentArrays#take}) until this rank drops the copy. It replaces a copy of the same checkpoint that
     * was arriving. Nothing is kept once this store is {@link #close closed} (its rank was killed).
     *
     * @return whether the copy is kept
     */
    synchronized boolean acceptBorrowed(int iteration, int partition, int writer, double[] state) {
        if (closed) {
            return false;
        }
        Incoming replaced = incoming.remove(new Id(iteration, partition));
        if (replaced != null) {
            recycle(replaced.slices);
        }
        LentArrays.take(state);
        keep(iteration, partition, new Copy(state, writer));
        return true;
    }

    private void keep(int iteration, int partition, Copy copy) {
        NavigableMap<Integer, Copy> held = complete.computeIfAbsent(partition, p -> new TreeMap<>());
        release(held.put(iteration, copy));
        while (held.size() > KEPT_PER_PARTITION) {
            // a mapped copy whose file was written again holds nothing: it goes first, not the oldest valid one
            Integer invalid = null;
            for (Map.Entry<Integer, Copy> e : held.entrySet()) {
                if (!e.getValue().intact()) {
                    invalid = e.getKey();
                    break;
                }
            }
            release(invalid != null ? held.remove(invalid) : held.pollFirstEntry().getValue());
        }
    }

    /**
     * An array for an arriving slice of {@code length} doubles: a recycled one when it has the full size of a
     * slice and one is kept, else a new one.
     */
    synchronized double[] slice(int length) {
        return length == sliceDoubles && !pool.isEmpty() ? pool.pop() : new double[length];
    }

    /** Whether the complete copy of {@code (iteration, partition)} is held. */
    synchronized boolean has(int iteration, int partition) {
        Copy c = copy(iteration, partition);
        return c != null && c.intact();
    }

    /** The complete copy of {@code (iteration, partition)} as one new array, or null. */
    synchronized double[] joined(int iteration, int partition) {
        Copy c = copy(iteration, partition);
        if (c == null) {
            return null;
        }
        if (c.borrowed != null) {
            return c.borrowed.clone();
        }
        return c.mapped != null ? c.mapped.read() : join(c.slices, c.length);
    }

    /**
     * The slices of the complete copy of {@code (iteration, partition)}, or null: to be sent; the copy's arrays
     * are never recycled afterwards.
     */
    synchronized Lent lend(int iteration, int partition) {
        Copy c = copy(iteration, partition);
        if (c == null) {
            return null;
        }
        if (c.mapped != null) {
            double[][] slices = c.mapped.readSlices(sliceDoubles); // new arrays, which nobody recycles
            return slices == null ? null : new Lent(slices, c.length);
        }
        if (c.borrowed != null) {
            return new Lent(split(c.borrowed, sliceDoubles), c.length); // new arrays: the writer's may be written later
        }
        c.lent = true;
        return new Lent(c.slices, c.length);
    }

    private Copy copy(int iteration, int partition) {
        NavigableMap<Integer, Copy> held = complete.get(partition);
        return held == null ? null : held.get(iteration);
    }

    /**
     * Forgets every copy, complete or arriving, that one of {@code writers} (dead ranks) sent of a checkpoint
     * after {@code committed}: checkpoints that can never be committed, whose writer cannot drop them any more.
     * Left behind, such a copy would count towards {@link #KEPT_PER_PARTITION} when the partition's adopter
     * writes, and push out the committed one.
     *
     * @return how many copies were dropped
     */
    synchronized int dropOrphans(Collection<Integer> writers, int committed) {
        int dropped = 0;
        for (Iterator<Map.Entry<Id, Incoming>> it = incoming.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Id, Incoming> e = it.next();
            if (e.getKey().iteration() > committed && writers.contains(e.getValue().writer)) {
                recycle(e.getValue().slices);
                it.remove();
                dropped++;
            }
        }
        for (Iterator<NavigableMap<Integer, Copy>> it = complete.values().iterator(); it.hasNext(); ) {
            NavigableMap<Integer, Copy> held = it.next();
            for (Iterator<Copy> copies = held.tailMap(committed, false).values().iterator(); copies.hasNext(); ) {
                Copy c = copies.next();
                if (writers.contains(c.writer)) {
                    release(c);
                    copies.remove();
                    dropped++;
                }
            }
            if (held.isEmpty()) {
                it.remove();
            }
        }
        return dropped;
    }

    /** Copies arriving now. */
    synchronized int arriving() {
        return incoming.size();
    }

    /** Forgets the copy of {@code (iteration, partition)}, complete or arriving. */
    synchronized void drop(int iteration, int partition) {
        Incoming arriving = incoming.remove(new Id(iteration, partition));
        if (arriving != null) {
            recycle(arriving.slices);
        }
        NavigableMap<Integer, Copy> held = complete.get(partition);
        if (held != null) {
            release(held.remove(iteration));
            if (held.isEmpty()) {
                complete.remove(partition);
            }
        }
    }

    private void release(Copy dropped) {
        if (dropped != null && dropped.slices != null && !dropped.lent) {
            recycle(dropped.slices);
        }
        if (dropped != null && dropped.borrowed != null) {
            LentArrays.giveBack(dropped.borrowed);
        }
    }

    /**
     * Drops every copy, complete or arriving, and keeps none from now on: the rank is killed or ends. Its
     * writers' arrays go back to them ({@link LentArrays}).
     */
    synchronized void close() {
        closed = true;
        for (Incoming in : incoming.values()) {
            recycle(in.slices);
        }
        incoming.clear();
        for (NavigableMap<Integer, Copy> held : complete.values()) {
            held.values().forEach(this::release);
        }
        complete.clear();
    }

    private void recycle(double[][] slices) {
        for (double[] s : slices) {
            if (s != null && s.length == sliceDoubles && pool.size() < MAX_POOLED_SLICES) {
                pool.push(s);
            }
        }
    }

    /** Recycled slices kept now. */
    synchronized int pooledSlices() {
        return pool.size();
    }

    /** The complete copies held now whose state is intact, by partition and checkpoint. */
    synchronized List<HeldCopy> intactCopies() {
        List<HeldCopy> out = new ArrayList<>();
        for (Map.Entry<Integer, NavigableMap<Integer, Copy>> byPartition : new TreeMap<>(complete).entrySet()) {
            for (Map.Entry<Integer, Copy> e : byPartition.getValue().entrySet()) {
                if (e.getValue().intact()) {
                    out.add(new HeldCopy(e.getKey(), byPartition.getKey()));
                }
            }
        }
        return out;
    }

    /** Complete copies held now. */
    synchronized int copies() {
        int n = 0;
        for (NavigableMap<Integer, Copy> held : complete.values()) {
            n += held.size();
        }
        return n;
    }

    /** Doubles held now in complete copies (in shared memory too). */
    synchronized long doubles() {
        long n = 0;
        for (NavigableMap<Integer, Copy> held : complete.values()) {
            for (Copy c : held.values()) {
                n += c.length;
            }
        }
        return n;
    }

    /** Copies {@code state} into new slices of at most {@code sliceDoubles} doubles. */
    private static double[][] split(double[] state, int sliceDoubles) {
        double[][] slices = new double[(state.length + sliceDoubles - 1) / sliceDoubles][];
        for (int i = 0; i < slices.length; i++) {
            int from = i * sliceDoubles;
            slices[i] = Arrays.copyOfRange(state, from, Math.min(state.length, from + sliceDoubles));
        }
        return slices;
    }

    /** Copies the slices into one array. */
    private static double[] join(double[][] slices, int length) {
        double[] state = new double[length];
        int at = 0;
        for (double[] s : slices) {
            System.arraycopy(s, 0, state, at, s.length);
            at += s.length;
        }
        return state;
    }
}
