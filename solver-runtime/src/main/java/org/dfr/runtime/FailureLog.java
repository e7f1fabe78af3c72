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
 * none is re-created until a repair succeeds. Campaign 158 (trial 319) lost a record that way with the board's
 * four copies: four members died within a second and every repair was refused. A record is written once per
 * death, never on the iteration loop, so its seven copies cost nothing that matters. Where the ranks are on
 * several hosts (partition groups by host), Hazelcast keeps at most one copy per host, as for every map.
 */
public final class FailureLog {

    private final IMap<Integer, String> map;
    private final PromotionRetry retry;

    public FailureLog(IMap<Integer, String> map, PromotionRetry retry) {
        this.map = map;
        this.retry = retry;
    }

    /**
     * Writes a record under {@code key}, with all its synchronous backups, replacing an earlier one of the same
     * key (the dying rank writes again when a write overran its budget).
     */
    public void record(int key, String json) {
        retry.run(() -> map.set(key, json));
    }

    /** Every record, in key order. */
    public List<String> all() {
        return List.copyOf(retry.call(() -> new TreeMap<>(map)).values());
    }
}
