package org.dfr.runtime;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.dfr.runtime.net.DataPlane;
import org.dfr.runtime.net.Mailbox;

/**
 * Ranks with a {@link CheckpointStore} each, whose copies go over the data plane to two holders (one rank per
 * host), and one Hazelcast member for the locators: the fixture of the store's tests.
 */
final class StoreRanks implements AutoCloseable {

    final Set<Integer> live = ConcurrentHashMap.newKeySet();
    final List<DataPlane> planes = new ArrayList<>();
    final List<DataPlaneReplicas> replicas = new ArrayList<>();
    final List<CheckpointStore> stores = new ArrayList<>();
    final HazelcastInstance member;

    /**
     * @param cluster null: the ranks talk over TCP; else ranks of one JVM, which hand messages over in memory and
     *                lend their copies ({@link LentArrays})
     */
    StoreRanks(int ranks, String cluster) throws Exception {
        ClusterSettings settings = new ClusterSettings().basePort(HazelcastConfigs.freeBasePort(2)).joinTimeoutMillis(10_000);
        member = Hazelcast.newHazelcastInstance(HazelcastConfigs.member(settings, 0, 0, 1, 0, 1));
        PromotionRetry retry = new PromotionRetry(member, PromotionRetry.DEFAULT_MAX_WAIT_MILLIS);
        InetAddress loopback = InetAddress.getLoopbackAddress();
        int[] ports = new int[ranks];
        for (int r = 0; r < ranks; r++) {
            DataPlane plane = new DataPlane(cluster, r, new Mailbox(), rank -> new InetSocketAddress(loopback, ports[rank]),
                    loopback, 0L);
            ports[r] = plane.port();
            planes.add(plane);
            live.add(r);
            DataPlaneReplicas copies = new DataPlaneReplicas(r, plane, () -> Set.copyOf(live), live::contains,
                    rank -> rank, 2, 10_000);
            replicas.add(copies);
            stores.add(new CheckpointStore(member.getMap(HazelcastConfigs.CHECKPOINT_MAP), retry, copies));
        }
    }

    @Override
    public void close() {
        replicas.forEach(DataPlaneReplicas::close);
        planes.forEach(DataPlane::close);
        member.getLifecycleService().terminate();
    }
}
