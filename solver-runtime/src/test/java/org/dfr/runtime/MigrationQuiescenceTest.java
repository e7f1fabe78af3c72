package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.internal.partition.InternalPartitionService;
import com.hazelcast.map.IMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MigrationQuiescenceTest {

    private static final int MEMBERS = 3;

    private final ClusterSettings settings = new ClusterSettings()
            .basePort(HazelcastConfigs.freeBasePort(MEMBERS + 2))
            .joinTimeoutMillis(10_000);

    @AfterEach
    void terminateEveryMember() {
        // terminate, not shut down: a graceful shutdown waits for migrations, which the master no longer starts
        Hazelcast.getAllHazelcastInstances().forEach(member -> member.getLifecycleService().terminate());
    }

    @Test
    void when_aMemberJoinsAndTheMembersSettle_then_theMasterStartsNoMigrationAndNoneIsInFlight() {
        HazelcastInstance rank0 = Hazelcast.newHazelcastInstance(HazelcastConfigs.member(settings, 0, 0, MEMBERS));
        HazelcastInstance rank1 = Hazelcast.newHazelcastInstance(HazelcastConfigs.member(settings, 1, 0, MEMBERS));
        IMap<Integer, byte[]> map = rank0.getMap("quiescence");
        for (int i = 0; i < 1_000; i++) {
            map.put(i, new byte[16 * 1024]);
        }
        // the cluster rebalances onto the new member, as after a repair: migrations in flight
        HazelcastInstance rank2 = Hazelcast.newHazelcastInstance(HazelcastConfigs.member(settings, 2, 0, MEMBERS));

        assertThat(MigrationQuiescence.settle(rank0, 10_000)).isTrue();
        assertThat(MigrationQuiescence.settle(rank1, 10_000)).isTrue();
        assertThat(MigrationQuiescence.settle(rank2, 10_000)).isTrue();

        assertThat(partitions(rank0).getMigrationManager().areMigrationTasksAllowed()).as("the master paused its migrations").isFalse();
        for (HazelcastInstance member : new HazelcastInstance[] {rank0, rank1, rank2}) {
            assertThat(partitions(member).hasOnGoingMigrationLocal()).isFalse();
        }
        assertThat(partitions(rank1).getMigrationManager().areMigrationTasksAllowed()).as("a member that is not the master pauses nothing")
                .isTrue();
    }

    @Test
    void when_theMemberHasTerminated_then_thereIsNothingToSettle() {
        HazelcastInstance rank0 = Hazelcast.newHazelcastInstance(HazelcastConfigs.member(settings, 0, 0, 1));
        rank0.getLifecycleService().terminate();

        assertThat(MigrationQuiescence.settle(rank0, 10_000)).isFalse();
    }

    private static InternalPartitionService partitions(HazelcastInstance member) {
        return ((HazelcastInstanceProxy) member).getOriginal().node.getPartitionService();
    }
}
