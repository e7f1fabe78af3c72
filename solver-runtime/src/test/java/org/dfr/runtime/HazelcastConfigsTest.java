package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HazelcastConfigsTest {

    private static final int MEMBERS = 3;

    private final ClusterSettings settings = new ClusterSettings()
            .basePort(HazelcastConfigs.freeBasePort(MEMBERS + 2))
            .joinTimeoutMillis(3_000);

    @AfterEach
    void shutDownEveryMember() {
        Hazelcast.shutdownAll();
    }

    @Test
    void when_rank0IsNotUp_then_anotherRankFailsToStartInsteadOfFoundingItsOwnCluster() {
        // ranks 1 and 2 start alone: each probing the other and finding no rank 0, one of them
        // used to declare itself master, and rank 0 then founded a second cluster
        assertThatThrownBy(() -> Hazelcast.newHazelcastInstance(HazelcastConfigs.member(settings, 1, 0, MEMBERS)))
                .isInstanceOf(IllegalStateException.class);
        assertThat(Hazelcast.getAllHazelcastInstances()).isEmpty();
    }

    @Test
    void when_rank0IsUp_then_theOthersJoinItsCluster() {
        HazelcastInstance rank0 = Hazelcast.newHazelcastInstance(HazelcastConfigs.member(settings, 0, 0, MEMBERS));
        HazelcastInstance rank1 = Hazelcast.newHazelcastInstance(HazelcastConfigs.member(settings, 1, 0, MEMBERS));
        HazelcastInstance rank2 = Hazelcast.newHazelcastInstance(HazelcastConfigs.member(settings, 2, 0, MEMBERS));

        assertThat(rank0.getCluster().getLocalMember().getAddress().getPort()).isEqualTo(settings.basePort());
        assertThat(rank2.getCluster().getMembers()).hasSize(MEMBERS);
        assertThat(rank1.getCluster().getMembers()).isEqualTo(rank0.getCluster().getMembers());
    }

    @Test
    void when_theBasePortIsTaken_then_rank0FailsToStartInsteadOfMovingToTheNextPort() throws Exception {
        try (ServerSocket taken = new ServerSocket(settings.basePort(), 1,
                InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> Hazelcast.newHazelcastInstance(
                    HazelcastConfigs.member(settings, 0, 0, MEMBERS)))
                    .hasStackTraceContaining(Integer.toString(settings.basePort()));
        }
    }
}
