package org.dfr.runtime;

import com.hazelcast.cluster.ClusterState;
import com.hazelcast.core.HazelcastInstance;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Runs an operation on a partitioned Hazelcast structure, waiting out the moment after a member
 * loss when a partition it owned has no owner yet.
 *
 * <p>The ranks' cluster runs in {@link ClusterState#NO_MIGRATION} (see {@link RankNode#holdMigrations}).
 * In that state Hazelcast still promotes a backup when an owner dies, but until the promotion is
 * committed an invocation on that partition fails at once with an {@link IllegalStateException}
 * instead of being retried as it is in the active state: "Partition owner is null ..." for a
 * single-key operation, "Partitions can't be assigned since cluster-state: NO_MIGRATION" for one
 * that touches every partition ({@code size}, {@code entrySet}). This class retries such
 * operations every {@value #RETRY_PAUSE_MICROS} µs until the owner is there, or fails the run
 * clearly once {@code maxWaitMillis} passed: then no member holding a copy of that partition is
 * left.
 */
public final class PromotionRetry {

    /** Promotion takes milliseconds; this bound only matters when every copy of a partition is gone. */
    public static final long DEFAULT_MAX_WAIT_MILLIS = 30_000;
    static final long RETRY_PAUSE_MICROS = 2_000;
    /**
     * The texts of Hazelcast 5.5's exceptions for an invocation on a partition without an owner:
     * from a single-partition invocation, and from an invocation on all partitions.
     */
    static final List<String> OWNERLESS_PARTITION_MESSAGES = List.of(
            "Partition owner is null", "Partitions can't be assigned since cluster-state");

    private final HazelcastInstance hazelcast;
    private final long maxWaitMillis;

    public PromotionRetry(HazelcastInstance hazelcast, long maxWaitMillis) {
        this.hazelcast = hazelcast;
        this.maxWaitMillis = maxWaitMillis;
    }

    /** Runs {@code operation}, retrying it while the partition it touches awaits a promoted owner. */
    public <T> T call(Supplier<T> operation) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxWaitMillis);
        while (true) {
            try {
                return operation.get();
            } catch (IllegalStateException e) {
                if (!awaitingPromotion(e)) {
                    throw e;
                }
                if (System.nanoTime() > deadline) {
                    throw new RunFailedException("a Hazelcast partition has had no owner for " + maxWaitMillis
                            + " ms after a member loss: every member holding a copy of it died (" + e.getMessage() + ")");
                }
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(RETRY_PAUSE_MICROS));
            }
        }
    }

    /** {@link #call} for an operation without a result. */
    public void run(Runnable operation) {
        call(() -> {
            operation.run();
            return null;
        });
    }

    /** Whether {@code e} says the partition an operation touched awaits its promoted owner (and this member runs). */
    boolean awaitingPromotion(IllegalStateException e) {
        String message = e.getMessage();
        return message != null && OWNERLESS_PARTITION_MESSAGES.stream().anyMatch(message::contains)
                && hazelcast.getLifecycleService().isRunning()
                && !hazelcast.getCluster().getClusterState().isMigrationAllowed();
    }
}
