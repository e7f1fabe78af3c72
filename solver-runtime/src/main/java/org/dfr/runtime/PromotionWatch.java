package org.dfr.runtime;

import com.hazelcast.cluster.ClusterState;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.internal.partition.impl.MigrationManager;
import com.hazelcast.partition.Partition;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks Hazelcast's master again to promote the backups of a dead member's partitions when it skipped
 * that.
 *
 * <p>Hazelcast 5.5 promotes the backups of a member that left only if, when the master handles the
 * departure, the cluster state allows migrations or promotions ({@code InternalPartitionServiceImpl}
 * triggers its control task only then, and {@code RepairPartitionTableTask} returns at once
 * otherwise). A member killed in the middle of a cluster state change ({@link BackupRepair} makes two
 * after every recovery) leaves the survivors' state locked, {@link ClusterState#IN_TRANSITION}, until
 * the change's transaction is rolled back or its lease ends. A departure handled in that window
 * promotes nothing, and nothing asks again once the lock is gone: every operation on the dead member's
 * partitions retries until it times out, and the next recovery waits a minute for a decision
 * (campaign seed 88, trial 1314; seed 87, trial 536). A milder case is common: a member that dies
 * while {@link BackupRepair} lets the cluster rebalance makes migrations to it fail, and Hazelcast then
 * pauses migration tasks, promotions included, for 3 to 6 s (6 of the first 30 trials of an embedded
 * campaign waited so).
 *
 * <p>So after a member leaves, this member checks, while it is the master, whether a partition is
 * still owned by a member that is gone. A promotion takes milliseconds; once that has lasted
 * {@link #GRACE_MILLIS} and the state allows promotions again, it resumes the master's migration tasks
 * and triggers its control task (internal API, as {@link Membership} uses to suspect a member), which
 * promotes, and does so again after each further {@link #GRACE_MILLIS} until every partition has a
 * live owner. It stops then, when its member stops or the run's results have been read, or after
 * {@link #MAX_WATCH_MILLIS}.
 * Each request is logged as a warning: Hazelcast's gap was hit, and the recovery waited about
 * {@link #GRACE_MILLIS} for it.
 */
public final class PromotionWatch {

    private static final Logger LOG = LoggerFactory.getLogger(PromotionWatch.class);

    /** How long a partition may keep a departed owner before the master is asked again. */
    public static final long GRACE_MILLIS = 1_000;
    /** How often the partition table is checked while a watch runs. */
    static final long CHECK_MILLIS = 100;
    /** Upper bound of one watch (a partition with no copy left keeps no owner for ever). */
    static final long MAX_WATCH_MILLIS = 120_000;

    private final int rankId;
    private final HazelcastInstance hazelcast;
    private final BooleanSupplier resultsRead;
    private final AtomicBoolean watching = new AtomicBoolean();

    /**
     * @param resultsRead whether the run's results have been read: members leaving then are the run's
     *                    end, whose partitions nobody needs (and whose promotions fail while the members
     *                    stop). Not merely whether this rank finished: the collector reads the statistics
     *                    and the records from the maps after every rank finished, and a member that died
     *                    just before (campaign seed 92, trial 176: the master, in the middle of a cluster
     *                    state change) left partitions that only a promotion makes readable again.
     */
    public PromotionWatch(int rankId, HazelcastInstance hazelcast, BooleanSupplier resultsRead) {
        this.rankId = rankId;
        this.hazelcast = hazelcast;
        this.resultsRead = resultsRead;
    }

    /**
     * Starts watching, on a daemon thread, unless a watch runs already (it covers this departure too) or
     * the run's results have been read.
     */
    public void memberLeft() {
        if (resultsRead.getAsBoolean() || !watching.compareAndSet(false, true)) {
            return;
        }
        Thread t = new Thread(() -> {
            try {
                watch();
            } catch (RuntimeException e) {
                // this member is stopping (the run ended, or it was killed): nothing left to watch
                LOG.debug("rank {}: promotion watch ended: {}", rankId, e.toString());
            } finally {
                watching.set(false);
            }
        }, "dfr-promotion-watch-rank" + rankId);
        t.setDaemon(true);
        t.start();
    }

    private void watch() {
        long start = System.nanoTime();
        long nextNudge = start + TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS);
        while (hazelcast.getLifecycleService().isRunning() && !resultsRead.getAsBoolean()) {
            long now = System.nanoTime();
            if (everyPartitionOwnedByAMember(hazelcast) || now - start > TimeUnit.MILLISECONDS.toNanos(MAX_WATCH_MILLIS)) {
                return;
            }
            if (now >= nextNudge && isMaster() && hazelcast.getCluster().getClusterState() != ClusterState.IN_TRANSITION) {
                LOG.info("rank {}: partitions of a departed member have had no new owner for {} ms; asking this"
                        + " member (Hazelcast's master) to promote their backups", rankId,
                        TimeUnit.NANOSECONDS.toMillis(now - start));
                triggerPromotion();
                nextNudge = now + TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(CHECK_MILLIS));
        }
    }

    /** Whether every partition's owner, in {@code hazelcast}'s table, is a current member. */
    static boolean everyPartitionOwnedByAMember(HazelcastInstance hazelcast) {
        Set<Member> members = hazelcast.getCluster().getMembers();
        for (Partition p : hazelcast.getPartitionService().getPartitions()) {
            Member owner = p.getOwner();
            if (owner == null || !members.contains(owner)) {
                return false;
            }
        }
        return true;
    }

    private boolean isMaster() {
        Iterator<Member> oldestFirst = hazelcast.getCluster().getMembers().iterator();
        return oldestFirst.hasNext() && oldestFirst.next().localMember();
    }

    private void triggerPromotion() {
        try {
            if (hazelcast instanceof HazelcastInstanceProxy proxy) {
                MigrationManager migrations = proxy.getOriginal().node.getPartitionService().getMigrationManager();
                // a migration that failed because its member died pauses migration tasks, promotions
                // included, for 3-6 s (MigrationManagerImpl#triggerRepartitioningAfterMigrationFailure)
                migrations.resumeMigration();
                migrations.triggerControlTask();
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("rank {}: could not ask Hazelcast to promote the backups of a departed member: {}", rankId,
                    e.toString());
        }
    }
}
