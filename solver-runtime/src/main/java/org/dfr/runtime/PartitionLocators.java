package org.dfr.runtime;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * What the one locator entry of a partition in the checkpoint map holds ({@link CheckpointStore}): where the
 * copies of each of its checkpoints the owner keeps are, the committed one and the one in flight.
 *
 * @param refs by checkpoint (iteration), ascending: a ref may name an older checkpoint than its key when the state
 *             did not change since (the copies are shared)
 */
public record PartitionLocators(NavigableMap<Integer, ReplicaRef> refs) {

    public PartitionLocators {
        refs = Collections.unmodifiableNavigableMap(new TreeMap<>(refs));
    }

    /** Where the copies of checkpoint {@code iteration} are, or null when this entry does not say. */
    public ReplicaRef ref(int iteration) {
        return refs.get(iteration);
    }

    /** The entry's bytes: the count, then per checkpoint its iteration, the ref's length and {@link ReplicaRef#toBytes}. */
    public byte[] toBytes() {
        List<byte[]> each = new ArrayList<>();
        int size = Integer.BYTES;
        for (ReplicaRef r : refs.values()) {
            byte[] b = r.toBytes();
            each.add(b);
            size += 2 * Integer.BYTES + b.length;
        }
        ByteBuffer out = ByteBuffer.allocate(size).putInt(each.size());
        int i = 0;
        for (int iteration : refs.keySet()) {
            byte[] b = each.get(i++);
            out.putInt(iteration).putInt(b.length).put(b);
        }
        return out.array();
    }

    /** The inverse of {@link #toBytes}. */
    public static PartitionLocators fromBytes(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        NavigableMap<Integer, ReplicaRef> refs = new TreeMap<>();
        for (int n = in.getInt(); n > 0; n--) {
            int iteration = in.getInt();
            byte[] b = new byte[in.getInt()];
            in.get(b);
            refs.put(iteration, ReplicaRef.fromBytes(b));
        }
        return new PartitionLocators(refs);
    }
}
