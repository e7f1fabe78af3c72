package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.cluster.ClusterState;
import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.instance.impl.Node;
import com.hazelcast.internal.cluster.impl.ClusterStateChange;
import com.hazelcast.map.IMap;
import com.hazelcast.partition.Partition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.dfr.runtime.ControlBoard;
import org.dfr.runtime.HazelcastConfigs;
import org.dfr.runtime.PromotionRetry;
import org.dfr.runtime.PromotionWatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A member killed in the middle of a cluster state change ({@code BackupRepair} makes them after every
 * recovery) and the promotion of its partitions' backups; the board's reads meanwhile.
 */
@Isolated // Hazelcast's cluster-state lock leased for 1 s
class PromotionWatchIT {

    private static final long LEASE_MILLIS = 1_000;

    /*
     * Four members on four hosts, migrations held, as in a run. Member 3 has locked the cluster state on
     * every other member, as the first phase of a state change it began does, and dies before its commit:
     *
     *   m0 (master)   m1   m2      state IN_TRANSITION, the lock held by m3 for LEASE_MILLIS
     *   m3  -- killed -->  its partitions keep their backups on m0..m2, and no owner
     *
     * Hazelcast's master handles the departure while the state allows no promotion, so it promotes
     * nothing, and does not try again once the lock is gone: the partitions stay without an owner (every
     * operation on them waits until it times out) until the watch asks the master again.
     */
    @Test
    void when_aMemberDiesHoldingTheClusterStateLock_then_theWatchHasItsPartitionsPromoted() {
        List<HazelcastInstance> members = new ArrayList<>();
        try {
            HazelcastInstance master = HeldMigrationsCluster.start(4, members);
            IMap<String, String> board = master.getMap(HazelcastConfigs.CONTROL_MAP);
            for (int k = 0; k < 200; k++) {
                board.set("key/" + k, "value " + k);
            }
            HazelcastInstance dying = members.get(3);
            UUID txn = UUID.randomUUID();
            for (HazelcastInstance m : members.subList(0, 3)) {
                Node node = nodeOf(m);
                node.getClusterService().getClusterStateManager().lockClusterState(
                        ClusterStateChange.from(ClusterState.ACTIVE), nodeOf(dying).getThisAddress(), txn, LEASE_MILLIS,
                        node.getClusterService().getMemberListVersion(), node.getPartitionService().getPartitionStateStamp());
            }
            assertThat(master.getCluster().getClusterState()).isEqualTo(ClusterState.IN_TRANSITION);

            members.remove(3).getLifecycleService().terminate();
            await().atMost(Duration.ofSeconds(30)).until(() -> master.getCluster().getMembers().size() == 3);
            await().atMost(Duration.ofSeconds(10)).until(() -> master.getCluster().getClusterState() == ClusterState.NO_MIGRATION);
            // Hazelcast alone: the lock is gone, and the dead member's partitions still have no owner
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> !ownedByMembers(master));
            // a waiter that learns a value another way too (a directive also comes over the data plane) reads a key of
            // the dead member's partitions as absent instead of waiting for the promotion (Hazelcast retries a get
            // there until then: 2 minutes here, where nobody asks the master to promote)
            ControlBoard survivorsBoard = new ControlBoard(members.get(2).getMap(HazelcastConfigs.CONTROL_MAP),
                    new PromotionRetry(members.get(2), PromotionRetry.DEFAULT_MAX_WAIT_MILLIS));
            String ownerless = firstKeyOfADeadOwner(master);
            assertThat(survivorsBoard.getIfReachable(ownerless)).isNull();

            for (int r = 0; r < 3; r++) {
                new PromotionWatch(r, members.get(r), () -> false).memberLeft();
            }
            await().atMost(Duration.ofMillis(PromotionWatch.GRACE_MILLIS + 10_000)).until(() -> ownedByMembers(master));
            IMap<String, String> survivorBoard = members.get(2).getMap(HazelcastConfigs.CONTROL_MAP);
            PromotionRetry retry = new PromotionRetry(members.get(2), PromotionRetry.DEFAULT_MAX_WAIT_MILLIS);
            for (int k = 0; k < 200; k++) {
                String key = "key/" + k;
                assertThat(retry.call(() -> survivorBoard.get(key))).isEqualTo("value " + k);
            }
            // once promoted (this member's table may learn of it a moment later)
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> ("value " + ownerless.substring(4)).equals(survivorsBoard.getIfReachable(ownerless)));
            assertThat(master.getCluster().getClusterState()).as("migrations still held").isEqualTo(ClusterState.NO_MIGRATION);
        } finally {
            members.forEach(m -> m.getLifecycleService().terminate());
        }
    }

    /** The first of the test's keys whose partition the dead member owned (no live owner). */
    private static String firstKeyOfADeadOwner(HazelcastInstance member) {
        for (int k = 0; k < 200; k++) {
            String key = "key/" + k;
            if (member.getPartitionService().getPartition(key).getOwner() == null) {
                return key;
            }
        }
        throw new IllegalStateException("every key's partition has a live owner");
    }

    private static Node nodeOf(HazelcastInstance member) {
        return ((HazelcastInstanceProxy) member).getOriginal().node;
    }

    private static boolean ownedByMembers(HazelcastInstance member) {
        Set<Member> live = member.getCluster().getMembers();
        for (Partition p : member.getPartitionService().getPartitions()) {
            if (p.getOwner() == null || !live.contains(p.getOwner())) {
                return false;
            }
        }
        return true;
    }
}
