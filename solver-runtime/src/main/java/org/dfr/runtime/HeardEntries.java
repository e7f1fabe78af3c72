package org.dfr.runtime;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One member's own copy of the entries of a replicated map that it wrote or heard of (the map's entry events,
 * registered with values), for maps whose entries are written once and never removed: the failure records
 * ({@link FailureLog}) and the control board ({@link ControlBoard}), whose report records the collector reads.
 *
 * <p>Why a copy: while a run goes on, migrations are held ({@link BackupRepair}), so every death takes one replica
 * of each partition it held, and replaying campaign 158's trial 319 showed an entry lost from the map even with
 * seven copies, its write returned (see {@link FailureLog}). A survivor's copy is out of reach of those deaths.
 * {@link #mergedWith} reads both: the map's entry where it has one (the last written), this member's where the map
 * lost it.
 *
 * @param <K> the map's key type, ordered so the merged view has a stable order
 * @param <V> the map's value type
 */
final class HeardEntries<K extends Comparable<K>, V>
        implements EntryAddedListener<K, V>, EntryUpdatedListener<K, V> {

    private static final Logger LOG = LoggerFactory.getLogger(HeardEntries.class);

    private final String mapName;
    private final Runnable onEvent;
    private final NavigableMap<K, V> heard = new ConcurrentSkipListMap<>();

    /**
     * @param mapName the map's name, for the log line that says an entry was lost from it
     * @param onEvent run after each entry event is kept (the board's waiters re-evaluate on it)
     */
    HeardEntries(String mapName, Runnable onEvent) {
        this.mapName = mapName;
        this.onEvent = onEvent;
    }

    /** Keeps what this member wrote itself (its own write's event may come later, or not before it dies). */
    void remember(K key, V value) {
        heard.put(key, value);
    }

    /** The map's entries {@code kept}, plus those this member wrote or heard of that the map lost, in key order. */
    NavigableMap<K, V> mergedWith(Map<K, V> kept) {
        TreeMap<K, V> merged = new TreeMap<>(heard);
        for (K key : merged.keySet()) {
            if (!kept.containsKey(key)) {
                LOG.debug("entry {} of {} was lost from the map with its holders; this member's copy is used",
                        key, mapName);
            }
        }
        merged.putAll(kept);
        return merged;
    }

    @Override
    public void entryAdded(EntryEvent<K, V> event) {
        heard.put(event.getKey(), event.getValue());
        onEvent.run();
    }

    @Override
    public void entryUpdated(EntryEvent<K, V> event) {
        heard.put(event.getKey(), event.getValue());
        onEvent.run();
    }
}
