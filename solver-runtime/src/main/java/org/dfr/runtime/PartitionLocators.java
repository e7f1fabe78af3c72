package org.dfr.runtime;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * What the one locator entry of a partition in the checkpoint map holds ({@link CheckpointStore}): where the
 * copies of its checkpoints are.
 *
 * <p>A ref that {@linkplain #standsForLater stands for later checkpoints} also says where the copies of every later
 * checkpoint up to the next ref are: the same holders, each with a copy of that checkpoint's own state. A writer
 * places every checkpoint's copies with the same holders while they live, so it writes the entry only when the
 * copies go elsewhere (a holder died, a partition was adopted) or share an older checkpoint's copies (an unchanged
 * state), not once per checkpoint: a write with two backups cost a third of a checkpoint in processes mode
 * (docs/bench.md, session 22).
 *
 * @param refs by checkpoint (iteration), ascending: a ref may name an older checkpoint than its key when the state
 *             did not change since (the copies are shared)
 */
public record PartitionLocators(NavigableMap<Integer, ReplicaRef> refs) {

    public PartitionLocators {
        refs = Collections.unmodifiableNavigableMap(new TreeMap<>(refs));
    }

    /**
     * Where the copies of checkpoint {@code iteration} are, or null when this entry does not say: its own ref, else
     * the newest ref before it when that one {@linkplain #standsForLater stands for later checkpoints}.
     */
    public ReplicaRef ref(int iteration) {
        Map.Entry<Integer, ReplicaRef> before = refs.floorEntry(iteration);
        if (before == null) {
            return null;
        }
        if (before.getKey() == iteration) {
            return before.getValue();
        }
        ReplicaRef r = before.getValue();
        return standsForLater(before.getKey(), r) ? ReplicaRef.heldBy(iteration, r.partition(), r.holders()) : null;
    }

    /**
     * Whether {@code ref}, under checkpoint {@code key}, stands for the later checkpoints too: copies held by ranks
     * (not the map's, whose keys name one checkpoint), of the state of checkpoint {@code key} itself (not shared with
     * an older one).
     */
    public static boolean standsForLater(int key, ReplicaRef ref) {
        return ref.key() == null && ref.iteration() == key && !ref.holders().isEmpty();
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
