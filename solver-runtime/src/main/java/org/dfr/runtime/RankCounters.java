package org.dfr.runtime;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Collects what one rank did, for its {@link RankStats}: kernel updates (and how many during a
 * recovery), loop time, checkpoint writes and their time.
 */
public final class RankCounters {

    private final AtomicLong kernelUpdates = new AtomicLong();
    private final AtomicLong kernelUpdatesDuringRecovery = new AtomicLong();
    private volatile boolean inRecovery;
    private volatile long loopNanos;
    private long checkpointNanos;
    private int checkpointCount;
    private long replicationNanos;
    private int replicationCount;

    /** Whether the rank is inside a recovery (between a failure and the resume barrier). */
    public boolean inRecovery() {
        return inRecovery;
    }

    /** Marks the start ({@code true}) or the end of a recovery. */
    public void setInRecovery(boolean value) {
        inRecovery = value;
    }

    /** Counts one kernel update (and whether it happened during a recovery). */
    public void countUpdate() {
        kernelUpdates.incrementAndGet();
        if (inRecovery) {
            kernelUpdatesDuringRecovery.incrementAndGet();
        }
    }

    /** Records the time from the first iteration's start to now. */
    public void setLoopNanos(long nanos) {
        loopNanos = nanos;
    }

    /** Counts one checkpoint written in {@code nanos}. */
    public synchronized void countCheckpoint(long nanos) {
        checkpointCount++;
        checkpointNanos += nanos;
    }

    /** Counts one background replication of a checkpoint's copies, which took {@code nanos}. */
    public synchronized void countReplication(long nanos) {
        replicationCount++;
        replicationNanos += nanos;
    }

    /** Replications of checkpoints so far, and their total time in nanoseconds. */
    public synchronized long[] replications() {
        return new long[] {replicationCount, replicationNanos};
    }

    /**
     * The statistics of rank {@code rank}, with the data plane's count of dropped stale messages and the replicas'
     * of copies written through shared memory.
     */
    public synchronized RankStats stats(int rank, long droppedStaleMessages, long sharedMemoryCopies,
                                        long lentCopies) {
        return new RankStats(rank, kernelUpdates.get(), kernelUpdatesDuringRecovery.get(), droppedStaleMessages,
                loopNanos / 1_000, checkpointNanos / 1_000, checkpointCount, sharedMemoryCopies,
                lentCopies);
    }
}
