package org.dfr.runtime;

import com.hazelcast.map.IMap;
import java.util.List;
import java.util.TreeMap;

/**
 * The records of injected deaths, each written by the dying rank just before it dies, for the report.
 *
 * <p>They live in a map of their own, {@link HazelcastConfigs#FAILURE_MAP}, with as many synchronous backups as
 * Hazelcast allows ({@link HazelcastConfigs#FAILURE_BACKUP_COUNT}), not on the control board: while a run goes on,
 * migrations are held ({@link BackupRepair}), so every death takes one replica of each partition it held and
 * none is re-created until a repair succeeds. A record is written once per death, never on the iteration loop, so
 * its seven copies cost nothing that matters. Where the ranks are on several hosts (partition groups by host),
 * Hazelcast keeps at most one copy per host, as for every map.
 *
 * <p>Every member also keeps the records it heard of in memory ({@link HeardEntries}), and {@link #all} reads
 * both. The map alone is not enough: replaying campaign 158's trial 319 (four deaths within a second, the cluster
 * rebalancing after the first recovery), the map had lost a record in 7 of 34 runs even with seven copies, twice
 * the record of the last rank to die, with no death after it. The write had returned and a survivor's {@code get}
 * found nothing, so the writer's death took the only copy; the likely path, not pinned down, is a backup sent
 * while its replica was being moved, which Hazelcast leaves to its anti-entropy to place later. A survivor's copy
 * is out of reach of those deaths.
 */
public final class FailureLog {

    private final IMap<Integer, String> map;
    private final PromotionRetry retry;
    private final HeardEntries<Integer, String> heard = new HeardEntries<>(HazelcastConfigs.FAILURE_MAP, () -> { });

    public FailureLog(IMap<Integer, String> map, PromotionRetry retry) {
        this.map = map;
        this.retry = retry;
        map.addEntryListener(heard, true);
    }

    /**
     * Writes a record under {@code key}, with all its synchronous backups, replacing an earlier one of the same
     * key (the dying rank writes again when a write overran its budget).
     */
    public void record(int key, String json) {
        heard.remember(key, json);
        retry.run(() -> map.set(key, json));
    }

    /**
     * Every record, in key order: those in the map, and those this member heard of that the map lost (for a key in
     * both, the map's, the last written).
     */
    public List<String> all() {
        return List.copyOf(heard.mergedWith(retry.call(() -> new TreeMap<>(map))).values());
    }
}
