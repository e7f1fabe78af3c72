package org.dfr.runtime;

import java.util.Map;

/**
 * One rank's side of the checkpoint protocol: writes its partitions' states to the
 * {@link CheckpointStore}, commits a checkpoint once the reduction proved every rank wrote it, and
 * remembers the last committed one.
 *
 * <p>Commit protocol: a checkpoint of iteration {@code c} is written right after computing {@code c}
 * and before the residual reduction of {@code c}; a rank commits {@code c} once it has the global
 * residual of {@code c}, which the root sends only after every rank's contribution of {@code c}.
 * The root then writes the {@link CommittedCheckpoint} marker on the control board. Every committed
 * checkpoint the {@link DiskCheckpoints file level} selects is also written to disk, in the background
 * ({@link FileCheckpointWriter}).
 */
public final class Checkpointing implements AutoCloseable {

    private final CheckpointStore store;
    private final ControlBoard control;
    private final RankCounters counters;
    /** The file level of this rank, or null. */
    private final FileCheckpointWriter files;
    private int committedCheckpoint = -1;

    /** Checkpointing through {@code store}, counting writes in {@code counters}. */
    public Checkpointing(CheckpointStore store, ControlBoard control, RankCounters counters) {
        this(store, control, counters, null);
    }

    /** Checkpointing with a file level too ({@code files} null: none). */
    Checkpointing(CheckpointStore store, ControlBoard control, RankCounters counters, FileCheckpointWriter files) {
        this.store = store;
        this.control = control;
        this.counters = counters;
        this.files = files;
    }

    /** The store of local and replicated copies. */
    public CheckpointStore store() {
        return store;
    }

    /**
     * Writes checkpoint {@code iteration} of every held partition: the live buffers' state when
     * {@code fromLive}, else the state just computed into the second buffers.
     */
    public void write(int iteration, PartitionStates states, boolean fromLive) {
        long start = System.nanoTime();
        for (Map.Entry<Integer, DoubleBuffer> e : states.buffers().entrySet()) {
            DoubleBuffer b = e.getValue();
            store.write(iteration, e.getKey(), fromLive ? b.live() : b.next());
        }
        counters.countCheckpoint(System.nanoTime() - start);
    }

    /**
     * Commits checkpoint {@code iteration}, once every rank is known to have written it: the root
     * writes the marker (its epoch shows which round of the run wrote it), and the older copies of
     * {@code ownedPartitions} are dropped.
     */
    public void commit(int iteration, boolean isRoot, int epoch, int[] ownedPartitions) {
        committedCheckpoint = iteration;
        if (isRoot) {
            // the epoch marker: every rank's reduction message of this iteration came after its write
            control.put(CommittedCheckpoint.KEY, new CommittedCheckpoint(epoch, iteration).toJson());
        }
        store.dropOlderThan(iteration, ownedPartitions);
        if (files != null) {
            // the local copies of iteration stay until the next commit; the writer copies them now
            files.committed(iteration, ownedPartitions, p -> store.local(iteration, p));
        }
    }

    /** Lets a file checkpoint in progress finish. */
    @Override
    public void close() {
        if (files != null) {
            files.close();
        }
    }

    /** The last checkpoint this rank knows every rank wrote, or -1. */
    public int committed() {
        return committedCheckpoint;
    }

    /** Sets the committed checkpoint (a recovery restored it). */
    public void setCommitted(int iteration) {
        committedCheckpoint = iteration;
    }
}
