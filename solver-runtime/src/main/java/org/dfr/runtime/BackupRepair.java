package org.dfr.runtime;

import com.hazelcast.cluster.ClusterState;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.transaction.TransactionOptions;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restores the backup count of the cluster's partitions after a member loss, between recoveries.
 *
 * <p>During a run the cluster holds migrations ({@link RankNode#holdMigrations}): a loss promotes the
 * surviving copies but creates no new ones, and checkpoints written afterwards get fewer backups
 * (measured with 4 members and 2 backups: 497 backup entries of 800 after one loss, and only 992
 * of 1600 once as many new entries were written). Once a recovery has resumed, one rank lets
 * Hazelcast rebalance ({@link ClusterState#ACTIVE}) until every backup is in place again, then
 * holds migrations again. While it runs the computation goes on; a failure in that window is
 * recovered like any other, only with the slower, rebalancing cluster.
 *
 * <p>A refused state change (migrations still queued, the state lock held by a dying member) is
 * retried. If the repair cannot finish (the time limit passes, the run ends) the cluster stays in
 * whatever state it reached; both are correct, and the next recovery
 * starts another repair.
 */
public final class BackupRepair implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BackupRepair.class);

    /** Upper bound of one repair; rebalancing gigabytes of checkpoints on 2 cores takes seconds. */
    public static final long DEFAULT_TIMEOUT_MILLIS = 300_000;
    static final long POLL_MICROS = 20_000;
    static final long STATE_CHANGE_RETRY_MILLIS = 100;
    /**
     * Time limit of one cluster state change, and so the lease of the cluster-state lock it takes on
     * every member. Hazelcast's default is one minute: a rank killed in the middle of a change (the
     * repair runs while the computation goes on, and campaigns kill there) left the survivors' state
     * locked, {@link ClusterState#IN_TRANSITION}, for up to a minute, in which no partition of the dead
     * member is promoted and no member joins, so the next recovery waited past its own timeout
     * ("no recovery decision"). A change among a few members takes milliseconds; one that does not
     * finish in time is refused and retried. A departure in that window is not promoted even after the
     * lock goes: {@link PromotionWatch} has the master promote it.
     */
    public static final long STATE_CHANGE_LEASE_MILLIS = 5_000;

    private final HazelcastInstance hazelcast;
    private final String threadName;
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile Thread thread;

    public BackupRepair(HazelcastInstance hazelcast, String threadName) {
        this.hazelcast = hazelcast;
        this.threadName = threadName;
    }

    /**
     * Starts a repair on a background thread unless one is running already.
     *
     * @return whether a repair was started
     */
    public boolean startInBackground(long timeoutMillis) {
        if (!running.compareAndSet(false, true)) {
            return false;
        }
        Thread t = new Thread(() -> {
            try {
                repairNow(timeoutMillis);
            } finally {
                running.set(false);
            }
        }, threadName);
        t.setDaemon(true);
        thread = t;
        t.start();
        return true;
    }

    /**
     * Rebalances until every backup is in place, then holds migrations again.
     *
     * @return true if the cluster is safe and holds migrations again; false if the repair stopped
     *         early (the reason is logged)
     */
    public boolean repairNow(long timeoutMillis) {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        if (!changeStateBefore(ClusterState.ACTIVE, deadline)) {
            return false;
        }
        try {
            while (!hazelcast.getPartitionService().isClusterSafe()) {
                if (stopped(deadline)) {
                    LOG.info("backup repair stopped before every backup was in place (cluster left rebalancing)");
                    return false;
                }
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(POLL_MICROS));
            }
        } catch (RuntimeException e) {
            // this member was terminated (the run ended, or it was killed): nothing left to repair here
            LOG.info("backup repair stopped: {}", e.toString());
            return false;
        }
        if (!changeStateBefore(ClusterState.NO_MIGRATION, deadline)) {
            return false;
        }
        LOG.info("backups restored in {} ms; migrations held again",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        return true;
    }

    /*
     * A state change is refused while the master still has migration tasks queued (the promotions
     * after a loss) or while another change holds the cluster-state lock; both pass, so it is
     * retried until the deadline.
     */
    private boolean changeStateBefore(ClusterState state, long deadline) {
        while (true) {
            try {
                hazelcast.getCluster().changeClusterState(state, stateChangeOptions());
                return true;
            } catch (RuntimeException e) {
                if (stopped(deadline)) {
                    // the run is ending or the limit passed: either state is correct
                    LOG.info("backup repair stopped: could not change the cluster state to {}: {}", state, e.toString());
                    return false;
                }
                LOG.debug("cluster state change to {} refused, retrying: {}", state, e.toString());
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(STATE_CHANGE_RETRY_MILLIS));
            }
        }
    }

    /** A state change's transaction: two-phase as Hazelcast requires, its lock leased for {@link #STATE_CHANGE_LEASE_MILLIS}. */
    static TransactionOptions stateChangeOptions() {
        return new TransactionOptions()
                .setTransactionType(TransactionOptions.TransactionType.TWO_PHASE)
                .setDurability(1)
                .setTimeout(STATE_CHANGE_LEASE_MILLIS, TimeUnit.MILLISECONDS);
    }

    private boolean stopped(long deadline) {
        return System.nanoTime() > deadline || Thread.currentThread().isInterrupted()
                || !hazelcast.getLifecycleService().isRunning();
    }

    /** Stops a running repair and waits briefly for its thread. */
    @Override
    public void close() {
        Thread t = thread;
        if (t != null) {
            t.interrupt();
            try {
                t.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
