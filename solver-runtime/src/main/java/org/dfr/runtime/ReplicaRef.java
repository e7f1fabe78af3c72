package org.dfr.runtime;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Where the replicated copies of one partition's checkpoint state are: what a locator entry of the
 * checkpoint map holds ({@link CheckpointStore}).
 *
 * @param iteration the checkpoint whose state the copies hold: an older one than the locator's when the
 *                  state did not change since (the copies are shared)
 * @param partition the partition
 * @param key       the state's key in the checkpoint map ({@link HazelcastReplicas}); null for copies held by ranks
 * @param holders   the ranks holding a copy ({@link DataPlaneReplicas}); empty for copies in the map
 */
public record ReplicaRef(int iteration, int partition, String key, List<Integer> holders) {

    public ReplicaRef {
        holders = List.copyOf(holders);
    }

    /** Copies in the checkpoint map under {@code key}. */
    public static ReplicaRef inMap(int iteration, int partition, String key) {
        return new ReplicaRef(iteration, partition, key, List.of());
    }

    /** Copies held by {@code holders}. */
    public static ReplicaRef heldBy(int iteration, int partition, List<Integer> holders) {
        return new ReplicaRef(iteration, partition, null, holders);
    }

    /**
     * This ref without the copies {@code other} names too: a holder keeps one copy per checkpoint and
     * partition, so where both name the same checkpoint of the same partition, a holder in both holds the
     * copy {@code other} needs (deleting this ref must not drop it).
     */
    public ReplicaRef withoutCopiesOf(ReplicaRef other) {
        if (other == null || other.iteration != iteration || other.partition != partition || holders.isEmpty()) {
            return this;
        }
        return new ReplicaRef(iteration, partition, key, holders.stream().filter(h -> !other.holders.contains(h)).toList());
    }

    /** The locator's bytes: iteration, partition, key (length, UTF-8; -1 for none), holders (count, ranks). */
    public byte[] toBytes() {
        byte[] keyBytes = key == null ? new byte[0] : key.getBytes(StandardCharsets.UTF_8);
        ByteBuffer out = ByteBuffer.allocate(4 * Integer.BYTES + keyBytes.length + holders.size() * Integer.BYTES);
        out.putInt(iteration).putInt(partition).putInt(key == null ? -1 : keyBytes.length).put(keyBytes);
        out.putInt(holders.size());
        holders.forEach(out::putInt);
        return out.array();
    }

    /** The inverse of {@link #toBytes}. */
    public static ReplicaRef fromBytes(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        int iteration = in.getInt();
        int partition = in.getInt();
        int keyLength = in.getInt();
        String key = null;
        if (keyLength >= 0) {
            byte[] keyBytes = new byte[keyLength];
            in.get(keyBytes);
            key = new String(keyBytes, StandardCharsets.UTF_8);
        }
        Integer[] holders = new Integer[in.getInt()];
        for (int i = 0; i < holders.length; i++) {
            holders[i] = in.getInt();
        }
        return new ReplicaRef(iteration, partition, key, List.of(holders));
    }
}
