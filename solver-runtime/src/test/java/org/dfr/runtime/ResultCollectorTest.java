package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Reading the final states: one that comes late is waited for, one that never comes fails the run naming where it was looked for. */
class ResultCollectorTest {

    private HazelcastInstance member;
    private IMap<Integer, byte[]> finals;

    @BeforeEach
    void startOneMember() {
        ClusterSettings settings = new ClusterSettings().basePort(HazelcastConfigs.freeBasePort(3));
        member = Hazelcast.newHazelcastInstance(HazelcastConfigs.member(settings, 0, 0, 1));
        finals = member.getMap(HazelcastConfigs.FINAL_STATE_MAP);
        finals.set(0, Doubles.toBytes(new double[] {1.5}));
        finals.set(2, Doubles.toBytes(new double[] {2.5}));
    }

    @AfterEach
    void stop() {
        member.getLifecycleService().terminate();
    }

    @Test
    void when_aFinalStateComesLate_then_itIsReadAndTheRunGoesOn() {
        CompletableFuture<Void> late = CompletableFuture.runAsync(() -> finals.set(1, Doubles.toBytes(new double[] {2.0})),
                CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS));

        Map<Integer, double[]> states = ResultCollector.readFinals(member, new PromotionRetry(member, 1_000), 3, 10_000);

        assertThat(late).isDone();
        assertThat(states).containsOnlyKeys(0, 1, 2);
        assertThat(states.get(1)).containsExactly(2.0);
    }

    @Test
    void when_aFinalStateNeverComes_then_theRunFailsNamingItsPartitionOwnerAndTheClusterState() {
        assertThatThrownBy(() -> ResultCollector.readFinals(member, new PromotionRetry(member, 1_000), 3, 200))
                .isInstanceOf(RunFailedException.class)
                .hasMessageStartingWith("final state of partitions [1] is missing (also 200 ms later; key 1: Hazelcast partition ")
                .hasMessageContaining("owned by Member [")
                .hasMessageEndingWith("cluster state ACTIVE, 1 members, every backup in place)");
    }
}
