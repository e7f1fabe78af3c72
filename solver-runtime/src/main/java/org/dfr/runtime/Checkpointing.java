package org.dfr.runtime;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.dfr.analysis.CommitLag;
import org.dfr.runtime.net.EpochChangedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One rank's side of the checkpoint protocol: keeps local copies of its partitions' states,
 * replicates them to the {@link CheckpointStore}'s map in the background, commits a checkpoint once
 * every copy of it is known to be in place, and remembers the last committed one.
 *
 * <p>Off the critical path: a checkpoint of iteration {@code c} costs the computing rank no copy: the
 * buffer {@code c} was computed into becomes the local copy ({@link DoubleBuffer#hold}), and the update
 * after next writes into a buffer an older checkpoint gave back. The replicated copies are written by
 * this rank's replication thread while the next iterations compute.
 *
 * <p>Commit protocol, with the commit lag {@code L} ({@link #lagFor}): before it sends its residual
 * contribution of iteration {@code c+L}, a rank waits until its own replication of {@code c} is
 * complete (normally long done: it had {@code L} iterations). So a rank that has the global residual
 * of {@code c+L}, which the root sends only after every rank's contribution of {@code c+L}, knows
 * that every copy of {@code c} is in place, and commits {@code c}. Nothing is written anywhere for a commit: every
 * rank knows its own, and a recovery agrees on it from the ranks' statuses (a marker the root wrote on the control
 * board, read by nobody, cost an operation with backups and an event to every member per checkpoint; docs/bench.md,
 * session 22). A failure before that (the newest
 * checkpoint still in flight) recovers from the previous committed checkpoint, which every rank
 * still holds. Since {@code L < K}, a rank holds at most the committed checkpoint and the one in
 * flight, locally and in the replicated map. Every committed checkpoint the
 * {@link DiskCheckpoints file level} selects is also written to disk ({@link FileCheckpointWriter}).
 */
public final class Checkpointing implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Checkpointing.class);

    /**
     * Iterations between a checkpoint and its commit unless the run asks for another
     * ({@link RunSpec#commitLagIterations}): the replication overlaps this many iterations before the
     * rank waits for it. 1 is enough when a replication takes less than an iteration.
     */
    public static final int DEFAULT_COMMIT_LAG_ITERATIONS = 1;
    /** How often a rank waiting for its replication checks whether a recovery interrupted it. */
    static final long REPLICATION_POLL_MILLIS = 5;

    private final CheckpointStore store;
    private final RankCounters counters;
    /** The file level of this rank, or null. */
    private final FileCheckpointWriter files;
    /** The lag the run asked for; the lag used is at most the interval minus one. */
    private final int requestedLag;
    /** Set once more when an automatic interval is agreed, before the first checkpoint it places. */
    private volatile int commitLag;
    private final IterationHook hook;
    private final RankContext context;
    private final ExecutorService replicator;
    private volatile Future<?> repair = CompletableFuture.completedFuture(null);
    private volatile int committedCheckpoint = -1;
    /** The checkpoint written but not committed yet, or null. */
    private Pending pending;

    private static final class Pending {
        final int iteration;
        final int[] partitions;
        volatile boolean cancelled;
        Future<?> replication;

        Pending(int iteration, int[] partitions) {
            this.iteration = iteration;
            this.partitions = partitions;
        }
    }

    /** Checkpointing through {@code store}, counting writes in {@code counters}, with replication at once. */
    public Checkpointing(CheckpointStore store, RankCounters counters) {
        this(store, counters, null, 1, 0, IterationHook.NONE, null, "dfr-checkpoint-replicator");
    }

    /**
     * Checkpointing with a file level too ({@code files} null: none).
     *
     * @param checkpointEvery the interval the run starts with ({@link #useInterval} sets another)
     * @param requestedLag    the commit lag the run asked for; the lag used is {@link #lagFor} the interval
     * @param hook            told when a replication starts and when the rank waits for one
     * @param context         the rank, as the hook sees it
     */
    Checkpointing(CheckpointStore store, RankCounters counters, FileCheckpointWriter files,
                  int checkpointEvery, int requestedLag, IterationHook hook, RankContext context, String threadName) {
        if (requestedLag < 0) {
            throw new IllegalArgumentException("commit lag must be >= 0, got " + requestedLag);
        }
        this.requestedLag = requestedLag;
        this.store = store;
        this.counters = counters;
        this.files = files;
        this.commitLag = lagFor(checkpointEvery, requestedLag);
        this.hook = hook;
        this.context = context;
        this.replicator = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * The commit lag of a run checkpointing every {@code checkpointEvery} iterations: the default,
     * but less than the interval, so that a checkpoint is committed before the next one is written.
     */
    public static int lagFor(int checkpointEvery) {
        return lagFor(checkpointEvery, DEFAULT_COMMIT_LAG_ITERATIONS);
    }

    /**
     * The commit lag of a run checkpointing every {@code checkpointEvery} iterations that asked for
     * {@code requested}: less than the interval, so that a checkpoint is committed before the next one
     * is written (a rank holds at most two checkpoints).
     */
    public static int lagFor(int checkpointEvery, int requested) {
        return CommitLag.clamp(requested, checkpointEvery);
    }

    /** The store of local and replicated copies. */
    public CheckpointStore store() {
        return store;
    }

    /** Iterations between a checkpoint and its commit. */
    public int commitLag() {
        return commitLag;
    }

    /**
     * Sets the commit lag for the interval a run agreed on during the run ({@link CheckpointSchedule}):
     * {@link #lagFor} it. Only while no checkpoint is in flight (the schedule places none before).
     */
    public void useInterval(int checkpointEvery) {
        if (pending != null) {
            throw new IllegalStateException("interval set while checkpoint " + pending.iteration + " is in flight");
        }
        commitLag = lagFor(checkpointEvery, requestedLag);
        if (files != null) {
            files.useInterval(checkpointEvery);
        }
    }

    /**
     * Writes checkpoint {@code iteration} of every held partition: the live buffers when {@code fromLive},
     * else the second buffers the state was just computed into, become the local copies without being
     * copied ({@link CheckpointStore#holdLocal}); their replication starts in the background.
     */
    public void write(int iteration, PartitionStates states, boolean fromLive) {
        if (pending != null && pending.iteration >= iteration) {
            // the same checkpoint again (a retried start): the copies in flight are replaced
            abandonPending(iteration);
        }
        if (pending != null) {
            // cannot happen with a lag below the interval; a third copy would break the memory bound
            throw new IllegalStateException("checkpoint " + iteration + " written while checkpoint "
                    + pending.iteration + " is not committed");
        }
        long start = System.nanoTime();
        int[] partitions = new int[states.buffers().size()];
        int k = 0;
        for (Map.Entry<Integer, DoubleBuffer> e : states.buffers().entrySet()) {
            store.holdLocal(iteration, e.getKey(), e.getValue(), fromLive ? 0 : 1);
            partitions[k++] = e.getKey();
        }
        counters.countCheckpoint(System.nanoTime() - start);
        Pending p = new Pending(iteration, partitions);
        p.replication = replicator.submit(() -> replicate(p));
        pending = p;
    }

    private void replicate(Pending p) {
        if (context != null) {
            hook.beforeReplication(context, p.iteration);
        }
        long start = System.nanoTime();
        for (int partition : p.partitions) {
            if (p.cancelled) {
                return;
            }
            store.replicate(p.iteration, partition);
        }
        counters.countReplication(System.nanoTime() - start);
    }

    /**
     * Before the residual contribution of {@code iteration}: waits until this rank's copies of the
     * checkpoint in flight are in place, if its commit is due with this iteration's reduction.
     *
     * @param interrupted whether a recovery interrupted this rank's waits
     * @throws EpochChangedException if a recovery interrupts the wait
     */
    public void awaitReplicationDue(int iteration, BooleanSupplier interrupted) {
        if (pending != null && iteration >= pending.iteration + commitLag) {
            awaitReplication(interrupted);
        }
    }

    /** Waits until this rank's copies of the checkpoint in flight (if any) are in place. */
    public void awaitReplication(BooleanSupplier interrupted) {
        Pending p = pending;
        if (p == null) {
            return;
        }
        if (!p.replication.isDone() && context != null) {
            hook.whileReplicationPending(context, p.iteration);
        }
        while (true) {
            try {
                p.replication.get(REPLICATION_POLL_MILLIS, TimeUnit.MILLISECONDS);
                return;
            } catch (TimeoutException e) {
                if (interrupted.getAsBoolean()) {
                    throw new EpochChangedException("recovery started while checkpoint " + p.iteration
                            + " was being replicated");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new EpochChangedException("interrupted while checkpoint " + p.iteration + " was being replicated");
            } catch (ExecutionException e) {
                if (interrupted.getAsBoolean()) {
                    throw new EpochChangedException("recovery started while checkpoint " + p.iteration
                            + " was being replicated");
                }
                throw new RunFailedException("checkpoint " + p.iteration + " could not be replicated: "
                        + e.getCause(), e.getCause());
            }
        }
    }

    /**
     * After the reduction of {@code iteration}: commits the checkpoint in flight if its commit was
     * due with it (every rank's copies are in place, see the class comment).
     */
    public void commitDue(int iteration, int[] ownedPartitions) {
        if (pending != null && iteration >= pending.iteration + commitLag) {
            commit(pending.iteration, ownedPartitions);
        }
    }

    /**
     * Commits checkpoint {@code iteration}, once every rank is known to have all its copies in place: the older
     * copies of {@code ownedPartitions} are dropped.
     */
    public void commit(int iteration, int[] ownedPartitions) {
        committedCheckpoint = iteration;
        if (pending != null && pending.iteration <= iteration) {
            pending = null;
        }
        List<Integer> older = store.dropLocalOlderThan(iteration);
        if (!older.isEmpty()) {
            int[] owned = ownedPartitions.clone();
            replicator.submit(() -> store.dropReplicated(older, owned));
        }
        if (files != null) {
            // the local copies of iteration stay until the next commit; the writer copies them now
            files.committed(iteration, ownedPartitions, p -> store.local(iteration, p));
        }
    }

    /**
     * A killed rank's: what its replication thread runs from now on fails quietly (the copies' store is closed
     * with the rank). Not interrupted: a fault hook may kill the rank from that very thread.
     */
    public void stopReplication() {
        Pending p = pending;
        if (p != null) {
            p.cancelled = true;
        }
        replicator.shutdown();
    }

    /** Lets a file checkpoint in progress finish; stops the replication thread. */
    @Override
    public void close() {
        stopReplication();
        if (files != null) {
            files.close();
        }
    }

    /** The last checkpoint this rank knows every copy of is in place, or -1. */
    public int committed() {
        return committedCheckpoint;
    }

    /**
     * Sets the committed checkpoint (a recovery restored it): a checkpoint in flight that is newer
     * is abandoned (its replication stops, its copies are deleted); one that is not is committed;
     * copies older than {@code iteration} are dropped.
     */
    public void setCommitted(int iteration, int[] ownedPartitions) {
        store.forgetOwnLocators(); // the recovery may have moved partitions
        if (pending != null && pending.iteration > iteration) {
            abandonPending(iteration);
        }
        pending = null;
        committedCheckpoint = iteration;
        List<Integer> older = store.dropLocalOlderThan(iteration);
        if (!older.isEmpty()) {
            int[] owned = ownedPartitions.clone();
            replicator.submit(() -> store.dropReplicated(older, owned));
        }
    }

    /** Stops the replication in flight and deletes its copies; {@code restored} is what replaces it. */
    private void abandonPending(int restored) {
        Pending p = pending;
        pending = null;
        {
            p.cancelled = true;
            try {
                p.replication.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException e) {
                LOG.debug("abandoned replication of checkpoint {} ended with {}", p.iteration, e.getCause().toString());
            }
            LOG.info("checkpoint {} abandoned before its commit (now at checkpoint {})", p.iteration, restored);
            store.dropLocal(p.iteration);
            if (p.iteration != restored) {
                replicator.submit(() -> store.dropReplicated(List.of(p.iteration), p.partitions));
            }
        }
    }

    /**
     * Starts placing new copies of the committed checkpoint of those of {@code ownedPartitions} whose copies
     * lost a holder, on the replication thread, and returns at once: the ranks resume while the copies
     * travel, as the checkpoint map restores its backups after a recovery. The next checkpoint's copies
     * queue behind these, so it commits only after them; a failure before they are in place finds the
     * copies that survived, as it would during a wait, and the next recovery repairs what is still missing.
     */
    public void repairCopiesInBackground(int[] ownedPartitions) {
        int c = committedCheckpoint;
        if (c < 0) {
            return;
        }
        int[] owned = ownedPartitions.clone();
        try {
            repair = replicator.submit(() -> {
                try {
                    int repaired = store.repair(c, owned);
                    if (repaired > 0) {
                        LOG.info("copies of checkpoint {} placed again for {} partition(s) whose holder died", c,
                                repaired);
                    }
                } catch (RuntimeException e) {
                    if (replicator.isShutdown()) {
                        LOG.debug("copies of checkpoint {} not repaired: the rank stopped ({})", c, e.toString());
                    } else {
                        LOG.warn("copies of checkpoint {} not repaired (the next checkpoint sends them all): {}", c,
                                e.toString());
                    }
                }
            });
        } catch (RejectedExecutionException e) {
            // closing: nothing to repair for
        }
    }

    /** Whether copies placed again after a recovery are still on their way. */
    public boolean repairingCopies() {
        return !repair.isDone();
    }

    /** Sets the committed checkpoint (a recovery restored it); see {@link #setCommitted(int, int[])}. */
    public void setCommitted(int iteration) {
        setCommitted(iteration, new int[0]);
    }
}
