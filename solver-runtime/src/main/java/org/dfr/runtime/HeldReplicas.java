package org.dfr.runtime;

import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The checkpoint copies one rank holds for others ({@link DataPlaneReplicas}): reassembled from their
 * slices, kept as the slices themselves (no copy on arrival), at most {@value #KEPT_PER_PARTITION}
 * complete copies per partition.
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

    private record Id(int iteration, int partition) {
    }

    /** A copy whose slices are arriving. */
    private static final class Incoming {
        final int length;
        final int writer;
        final double[][] slices;
        int received;

        Incoming(int length, int writer, int sliceDoubles) {
            this.length = length;
            this.writer = writer;
            this.slices = new double[(length + sliceDoubles - 1) / sliceDoubles][];
        }
    }

    private final int sliceDoubles;
    private final Map<Id, Incoming> incoming = new HashMap<>();
    private final Map<Integer, NavigableMap<Integer, double[][]>> complete = new HashMap<>();

    HeldReplicas(int sliceDoubles) {
        this.sliceDoubles = sliceDoubles;
    }

    /**
     * Takes one slice of the copy of {@code (iteration, partition)}. Slice {@code 0} ({@code [length,
     * writer]}) starts the copy, replacing one that was arriving or held; slices {@code 1..} follow in order.
     *
     * @return the writer's rank when this slice completed the copy, else -1
     */
    synchronized int accept(int iteration, int partition, int slice, double[] payload) {
        Id id = new Id(iteration, partition);
        Incoming in;
        if (slice == 0) {
            in = new Incoming((int) payload[0], (int) payload[1], sliceDoubles);
            incoming.put(id, in);
        } else {
            in = incoming.get(id);
            if (in == null || slice > in.slices.length || in.slices[slice - 1] != null) {
                return -1; // a slice of a copy restarted or dropped meanwhile
            }
            in.slices[slice - 1] = payload;
            in.received++;
        }
        if (in.received < in.slices.length) {
            return -1;
        }
        incoming.remove(id);
        NavigableMap<Integer, double[][]> held = complete.computeIfAbsent(partition, p -> new TreeMap<>());
        held.put(iteration, in.slices);
        while (held.size() > KEPT_PER_PARTITION) {
            held.pollFirstEntry();
        }
        return in.writer;
    }

    /** The slices of the complete copy of {@code (iteration, partition)}, or null; never modified afterwards. */
    synchronized double[][] get(int iteration, int partition) {
        NavigableMap<Integer, double[][]> held = complete.get(partition);
        return held == null ? null : held.get(iteration);
    }

    /** Forgets the copy of {@code (iteration, partition)}, complete or arriving. */
    synchronized void drop(int iteration, int partition) {
        incoming.remove(new Id(iteration, partition));
        NavigableMap<Integer, double[][]> held = complete.get(partition);
        if (held != null) {
            held.remove(iteration);
            if (held.isEmpty()) {
                complete.remove(partition);
            }
        }
    }

    /** Complete copies held now. */
    synchronized int copies() {
        int n = 0;
        for (NavigableMap<Integer, double[][]> held : complete.values()) {
            n += held.size();
        }
        return n;
    }

    /** Doubles held now in complete copies. */
    synchronized long doubles() {
        long n = 0;
        for (NavigableMap<Integer, double[][]> held : complete.values()) {
            for (double[][] slices : held.values()) {
                for (double[] s : slices) {
                    n += s.length;
                }
            }
        }
        return n;
    }

    /** Copies the slices into one array. */
    static double[] join(double[][] slices) {
        int length = 0;
        for (double[] s : slices) {
            length += s.length;
        }
        double[] state = new double[length];
        int at = 0;
        for (double[] s : slices) {
            System.arraycopy(s, 0, state, at, s.length);
            at += s.length;
        }
        return state;
    }
}
