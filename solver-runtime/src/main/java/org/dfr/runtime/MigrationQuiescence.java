package org.dfr.runtime;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.internal.partition.InternalPartitionService;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets a member's partition migrations come to rest before the member terminates at the end of a run.
 *
 * <p>Why: after a recovery {@link BackupRepair} lets Hazelcast rebalance while the run goes on, and a run that ends
 * soon after finds migrations in flight. A member terminated under one stops its partition threads while the
 * migration's request, on its {@code async} executor, waits for one of them (Hazelcast 5.5,
 * {@code AbstractPartitionOperation#collectChunkSuppliers}); the executor's shutdown then waits its full 3 s
 * ({@code ExecutionServiceImpl#awaitAndForceShutdown}) before it interrupts the request. That was the 3 s "finish"
 * of about one run in 10 to 40 (docs/bench.md, "The end of a run after a recovery").
 *
 * <p>How: the master stops starting migrations ({@code MigrationManager#pauseMigration}; the repair has no use for
 * them once the run is over), and every member waits, at most {@link #DEFAULT_WAIT_MILLIS}, until it takes part in
 * no migration (Hazelcast's {@code hasOnGoingMigrationLocal}). A migration whose other member has gone fails at once
 * and ends too. Past the limit the member terminates anyway: the wait only saves time, it guards nothing.
 */
public final class MigrationQuiescence {

    private static final Logger LOG = LoggerFactory.getLogger(MigrationQuiescence.class);

    /** The longest a member waits for its migrations before it terminates anyway (one migration takes milliseconds). */
    public static final long DEFAULT_WAIT_MILLIS = 1_000;
    static final long POLL_MICROS = 2_000;

    private MigrationQuiescence() {
    }

    /**
     * Pauses migrations if {@code hazelcast} is the master, then waits until it takes part in none, at most
     * {@code waitMillis}.
     *
     * @return true if no migration of this member was in flight when it returned; false if the limit passed, the
     *         member is not running, or Hazelcast's internals are not reachable (a client proxy, another version)
     */
    public static boolean settle(HazelcastInstance hazelcast, long waitMillis) {
        InternalPartitionService partitions = partitionService(hazelcast);
        if (partitions == null || !hazelcast.getLifecycleService().isRunning()) {
            return false;
        }
        try {
            if (isMaster(hazelcast)) {
                partitions.pauseMigration();
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
            while (partitions.hasOnGoingMigrationLocal()) {
                if (System.nanoTime() > deadline) {
                    LOG.debug("a partition migration still in flight after {} ms: terminating anyway", waitMillis);
                    return false;
                }
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(POLL_MICROS));
            }
            return true;
        } catch (RuntimeException e) {
            // the member is shutting down under us: nothing left to wait for
            LOG.debug("migrations not settled: {}", e.toString());
            return false;
        }
    }

    private static InternalPartitionService partitionService(HazelcastInstance hazelcast) {
        try {
            return hazelcast instanceof HazelcastInstanceProxy proxy ? proxy.getOriginal().node.getPartitionService()
                    : null;
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    private static boolean isMaster(HazelcastInstance hazelcast) {
        Iterator<Member> oldestFirst = hazelcast.getCluster().getMembers().iterator();
        return oldestFirst.hasNext() && oldestFirst.next().localMember();
    }
}
