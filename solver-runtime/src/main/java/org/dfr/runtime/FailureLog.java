package org.dfr.runtime;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p>Every member also keeps the records it heard of (the map's entry events) in memory, and {@link #all} reads
 * both. The map alone is not enough: replaying campaign 158's trial 319 (four deaths within a second, the cluster
 * rebalancing after the first recovery), the map had lost a record in 7 of 34 runs even with seven copies, twice
 * the record of the last rank to die, with no death after it. The write had returned and a survivor's {@code get}
 * found nothing, so the writer's death took the only copy; the likely path, not pinned down, is a backup sent
 * while its replica was being moved, which Hazelcast leaves to its anti-entropy to place later. A survivor's copy
 * is out of reach of those deaths.
 */
public final class FailureLog {

    private static final Logger LOG = LoggerFactory.getLogger(FailureLog.class);

    private final IMap<Integer, String> map;
    private final PromotionRetry retry;
    private final NavigableMap<Integer, String> heard = new ConcurrentSkipListMap<>();

    public FailureLog(IMap<Integer, String> map, PromotionRetry retry) {
        this.map = map;
        this.retry = retry;
        map.addEntryListener(new Listener(), true);
    }

    /**
     * Writes a record under {@code key}, with all its synchronous backups, replacing an earlier one of the same
     * key (the dying rank writes again when a write overran its budget).
     */
    public void record(int key, String json) {
        heard.put(key, json);
        retry.run(() -> map.set(key, json));
    }

    /**
     * Every record, in key order: those in the map, and those this member heard of that the map lost (for a key in
     * both, the map's, the last written).
     */
    public List<String> all() {
        TreeMap<Integer, String> records = new TreeMap<>(heard);
        Map<Integer, String> kept = retry.call(() -> new TreeMap<>(map));
        for (Integer key : records.keySet()) {
            if (!kept.containsKey(key)) {
                LOG.debug("failure record {} was lost from the map with its holders; this member's copy is used", key);
            }
        }
        records.putAll(kept);
        return List.copyOf(records.values());
    }

    private final class Listener implements EntryAddedListener<Integer, String>, EntryUpdatedListener<Integer, String> {
        @Override
        public void entryAdded(EntryEvent<Integer, String> event) {
            heard.put(event.getKey(), event.getValue());
        }

        @Override
        public void entryUpdated(EntryEvent<Integer, String> event) {
            heard.put(event.getKey(), event.getValue());
        }
    }
}
