package org.dfr.runtime;

import com.hazelcast.cluster.ClusterState;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.partition.Partition;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
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
 * (campaign seed 88, trial 1314; seed 87, trial 536).
 *
 * <p>So after a member leaves, this member checks, while it is the master, whether a partition is
 * still owned by a member that is gone. A promotion takes milliseconds; once that has lasted
 * {@link #GRACE_MILLIS} and the state allows promotions again, it triggers the master's control task
 * (internal API, as {@link Membership} uses to suspect a member), which promotes, and does so again
 * after each further {@link #GRACE_MILLIS} until every partition has a live owner. It stops then, when
 * its member stops, or after {@link #MAX_WATCH_MILLIS}. Each request is logged as a warning: it means
 * Hazelcast's gap was hit and the recovery waited {@link #GRACE_MILLIS} more than it needed.
 */
public final class PromotionWatch {

    private static final Logger LOG = LoggerFactory.getLogger(PromotionWatch.class);

    /** How long a partition may keep a departed owner before the master is asked again. */
    public static final long GRACE_MILLIS = 1_500;
    /** How often the partition table is checked while a watch runs. */
    static final long CHECK_MILLIS = 100;
    /** Upper bound of one watch (a partition with no copy left keeps no owner for ever). */
    static final long MAX_WATCH_MILLIS = 120_000;

    private final int rankId;
    private final HazelcastInstance hazelcast;
    private final AtomicBoolean watching = new AtomicBoolean();

    public PromotionWatch(int rankId, HazelcastInstance hazelcast) {
        this.rankId = rankId;
        this.hazelcast = hazelcast;
    }

    /** Starts watching, on a daemon thread, unless a watch runs already (it covers this departure too). */
    public void memberLeft() {
        if (!watching.compareAndSet(false, true)) {
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
        while (hazelcast.getLifecycleService().isRunning()) {
            long now = System.nanoTime();
            if (allOwnedByMembers() || now - start > TimeUnit.MILLISECONDS.toNanos(MAX_WATCH_MILLIS)) {
                return;
            }
            if (now >= nextNudge && isMaster() && hazelcast.getCluster().getClusterState() != ClusterState.IN_TRANSITION) {
                LOG.warn("rank {}: partitions of a departed member have had no new owner for {} ms; asking this"
                        + " member (Hazelcast's master) to promote their backups", rankId,
                        TimeUnit.NANOSECONDS.toMillis(now - start));
                triggerPromotion();
                nextNudge = now + TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(CHECK_MILLIS));
        }
    }

    /** Whether every partition's owner, in this member's table, is a current member. */
    boolean allOwnedByMembers() {
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
                proxy.getOriginal().node.getPartitionService().getMigrationManager().triggerControlTask();
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.warn("rank {}: could not ask Hazelcast to promote the backups of a departed member: {}", rankId,
                    e.toString());
        }
    }
}
