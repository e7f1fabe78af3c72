package org.dfr.tests;

import static org.awaitility.Awaitility.await;

import com.hazelcast.cluster.ClusterState;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.time.Duration;
import java.util.List;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.HazelcastConfigs;

/** A cluster of rank members as a run has it once started: one member per host, every backup in place, migrations held. */
final class HeldMigrationsCluster {

    private HeldMigrationsCluster() {
    }

    /**
     * Starts {@code count} members into {@code members} (so the caller's finally block terminates them even
     * if this fails), waits until every backup is in place and holds migrations; returns the first member.
     */
    static HazelcastInstance start(int count, List<HazelcastInstance> members) {
        ClusterSettings settings = new ClusterSettings();
        settings.basePort(HazelcastConfigs.freeBasePort(count + 2));
        for (int r = 0; r < count; r++) {
            members.add(Hazelcast.newHazelcastInstance(HazelcastConfigs.member(settings, r, 1, count, r, count)));
        }
        HazelcastInstance first = members.get(0);
        // partitions are assigned on first use; held migrations would leave them without owners
        first.getPartitionService().getPartitions().forEach(p -> p.getOwner());
        await().atMost(Duration.ofSeconds(60)).until(() -> first.getCluster().getMembers().size() == count
                && first.getPartitionService().isClusterSafe());
        first.getCluster().changeClusterState(ClusterState.NO_MIGRATION);
        return first;
    }
}
