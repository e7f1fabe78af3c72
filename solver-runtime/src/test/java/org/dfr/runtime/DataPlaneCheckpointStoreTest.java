package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.LocalMapStats;
import java.time.Duration;
import java.util.List;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import org.dfr.runtime.net.DataPlane;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A {@link CheckpointStore} whose copies go over the data plane: locators in the checkpoint map (one member
 * here), states on holder ranks over TCP, one rank per host.
 *
 * <pre>
 *   rank 0 writes partition 0; its holders are ranks 1 and 2 (then 3)
 * </pre>
 */
class DataPlaneCheckpointStoreTest {

    private static final int RANKS = 4;

    private StoreRanks ranks;
    private Set<Integer> live;
    private List<DataPlane> planes;
    private List<DataPlaneReplicas> replicas;
    private List<CheckpointStore> stores;
    private HazelcastInstance member;

    @BeforeEach
    void start() throws Exception {
        ranks = new StoreRanks(RANKS, null);
        live = ranks.live;
        planes = ranks.planes;
        replicas = ranks.replicas;
        stores = ranks.stores;
        member = ranks.member;
    }

    @AfterEach
    void stop() {
        ranks.close();
    }

    @Test
    void when_aStateDidNotChange_then_theNextCheckpointSharesItsCopiesAndDroppingTheOlderKeepsThem() {
        CheckpointStore writer = stores.get(0);
        writer.writeLocal(4, 0, state(1));
        assertThat(writer.replicate(4, 0)).isTrue();
        writer.writeLocal(8, 0, state(1));

        assertThat(writer.replicate(8, 0)).as("unchanged: not sent again").isFalse();
        writer.dropOlderThan(8, new int[] {0});

        assertThat(writer.replicatedRef(8, 0)).isEqualTo(ReplicaRef.heldBy(4, 0, List.of(1, 2)));
        assertThat(replicas.get(1).heldCopies()).isEqualTo(1);
        assertThat(stores.get(3).replicated(8, 0)).containsExactly(state(1));
        writer.writeLocal(12, 0, state(2));
        writer.replicate(12, 0);
        assertThat(writer.replicatedRef(4, 0)).as("the next write leaves the dropped checkpoint out").isNull();
        assertThat(writer.replicatedRef(8, 0)).isEqualTo(ReplicaRef.heldBy(4, 0, List.of(1, 2)));
    }

    /*
     *   checkpoint   4      8      12          one locator entry: {4 -> held by 1, 2}
     *   holders      1,2    1,2    1,2         8 and 12 went to the same holders: the entry says so already
     */
    @Test
    void when_checkpointsGoToTheSameHolders_then_theLocatorEntryIsWrittenOnceAndSaysWhereEachIs() {
        CheckpointStore writer = stores.get(0);
        writer.write(4, 0, state(1));
        writer.write(8, 0, state(2));
        writer.dropOlderThan(8, new int[] {0});
        writer.write(12, 0, state(3));
        writer.dropOlderThan(12, new int[] {0});

        LocalMapStats stats = member.getMap(HazelcastConfigs.CHECKPOINT_MAP).getLocalMapStats();
        assertThat(stats.getPutOperationCount() + stats.getSetOperationCount()).as("one write in all").isEqualTo(1);
        assertThat(stats.getGetOperationCount()).as("read once, before the first write").isEqualTo(1);
        assertThat(stats.getRemoveOperationCount()).as("nothing deleted").isZero();
        assertThat(writer.locatorWritesSaved()).isEqualTo(2);
        assertThat(member.getMap(HazelcastConfigs.CHECKPOINT_MAP).keySet()).containsExactly(CheckpointStore.locatorKey(0));
        assertThat(stores.get(3).replicatedRef(12, 0)).isEqualTo(ReplicaRef.heldBy(12, 0, List.of(1, 2)));
        assertThat(stores.get(3).replicated(12, 0)).containsExactly(state(3));
        assertThat(stores.get(3).replicated(8, 0)).as("dropped by its holders").isNull();
    }

    /*
     *   checkpoint   4      8                  8 goes elsewhere: the entry is written again, with
     *   holders      1,2    1,3  (2 died)      4 -> held by 1, 2 and 8 -> held by 1, 3
     */
    @Test
    void when_aCheckpointGoesToOtherHolders_then_theLocatorEntryIsWrittenAgainAndSaysWhereBothAre() {
        CheckpointStore writer = stores.get(0);
        writer.write(4, 0, state(1));
        live.remove(2);
        writer.write(8, 0, state(2));

        LocalMapStats stats = member.getMap(HazelcastConfigs.CHECKPOINT_MAP).getLocalMapStats();
        assertThat(stats.getPutOperationCount() + stats.getSetOperationCount()).isEqualTo(2);
        assertThat(writer.locatorWritesSaved()).isZero();
        assertThat(stores.get(3).replicatedRef(4, 0)).isEqualTo(ReplicaRef.heldBy(4, 0, List.of(1, 2)));
        assertThat(stores.get(3).replicatedRef(8, 0)).isEqualTo(ReplicaRef.heldBy(8, 0, List.of(1, 3)));
        assertThat(stores.get(3).replicated(8, 0)).containsExactly(state(2));
        live.remove(1);
        assertThat(stores.get(2).replicated(4, 0)).as("rank 2's own copy").containsExactly(state(1));
    }

    /*
     *   checkpoint   4 (committed)   8 (in flight, abandoned by a recovery that restored 4)
     *   holders      1,2             1,2: the entry says so through 4's ref only, and must still be deleted
     */
    @Test
    void when_aRecoveryAbandonsACheckpointWhoseEntryWasNotWritten_then_itsCopiesAreStillDeleted() {
        CheckpointStore writer = stores.get(0);
        writer.write(4, 0, state(1));
        writer.write(8, 0, state(2));
        assertThat(writer.locatorWritesSaved()).isEqualTo(1);
        assertThat(replicas.get(1).heldCopies()).isEqualTo(2);

        writer.forgetOwnLocators(); // the recovery
        writer.dropLocal(8);
        writer.dropReplicated(List.of(8), new int[] {0});

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(replicas.get(1).heldCopies()).as("copy 8 dropped").isEqualTo(1);
            assertThat(replicas.get(2).heldCopies()).isEqualTo(1);
        });
        assertThat(stores.get(3).replicated(4, 0)).containsExactly(state(1));
    }

    /*
     *   rank 0 writes 4 and 8 to holders 1, 2 (one entry: 4 -> 1, 2); rank 3 adopts 8 and writes 12 to
     *   other holders: the entry it writes still says where 8 is
     */
    @Test
    void when_anAdopterWritesItsFirstCheckpoint_then_theEntryStillSaysWhereTheAdoptedOneIs() {
        stores.get(0).write(4, 0, state(1));
        stores.get(0).write(8, 0, state(2));
        CheckpointStore adopter = stores.get(3);
        adopter.adoptLocal(8, 0, state(2));
        live.remove(0);

        adopter.writeLocal(12, 0, state(3));
        assertThat(adopter.replicate(12, 0)).isTrue();

        assertThat(stores.get(2).replicatedRef(8, 0)).isEqualTo(ReplicaRef.heldBy(8, 0, List.of(1, 2)));
        assertThat(stores.get(2).replicatedRef(12, 0)).isEqualTo(adopter.replicatedRef(12, 0));
        assertThat(stores.get(2).replicated(12, 0)).containsExactly(state(3));
    }

    @Test
    void when_anAdopterWroteAPartitionsLocators_then_theFormerOwnerCannotOverwriteThem() {
        CheckpointStore former = stores.get(0);
        former.write(4, 0, state(1));
        CheckpointStore adopter = stores.get(3); // took partition 0 over from rank 0, found dead but alive
        adopter.adoptLocal(4, 0, state(1));
        live.remove(1);
        assertThat(adopter.repair(4, new int[] {0})).isEqualTo(1);
        ReplicaRef adopted = adopter.replicatedRef(4, 0);
        byte[] entry = member.<String, byte[]>getMap(HazelcastConfigs.CHECKPOINT_MAP).get(CheckpointStore.locatorKey(0));

        former.writeLocal(8, 0, state(2));

        assertThatThrownBy(() -> former.replicate(8, 0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no longer owns the partition");
        assertThat(adopter.replicatedRef(4, 0)).isEqualTo(adopted);
        assertThat(member.<String, byte[]>getMap(HazelcastConfigs.CHECKPOINT_MAP).get(CheckpointStore.locatorKey(0)))
                .as("the adopter's entry").isEqualTo(entry);
    }

    @Test
    void when_aLocatorEntryIsEncoded_then_itDecodesToTheSameRefs() {
        NavigableMap<Integer, ReplicaRef> refs = new TreeMap<>();
        refs.put(8, ReplicaRef.heldBy(4, 3, List.of(1, 2))); // 8 unchanged since 4: it shares 4's copies
        refs.put(12, ReplicaRef.inMap(12, 3, "12/3@k"));
        PartitionLocators entry = new PartitionLocators(refs);

        PartitionLocators decoded = PartitionLocators.fromBytes(entry.toBytes());

        assertThat(decoded).isEqualTo(entry);
        assertThat(decoded.ref(8)).isEqualTo(ReplicaRef.heldBy(4, 3, List.of(1, 2)));
        assertThat(decoded.ref(4)).isNull();
        assertThat(decoded.ref(10)).as("a shared copy stands for its own key only").isNull();
        assertThat(decoded.ref(16)).as("copies in the map neither").isNull();
    }

    @Test
    void when_aRefHeldByRanksHasItsOwnCheckpoint_then_itStandsForTheLaterOnesUpToTheNextRef() {
        NavigableMap<Integer, ReplicaRef> refs = new TreeMap<>();
        refs.put(4, ReplicaRef.heldBy(4, 3, List.of(1, 2)));
        refs.put(12, ReplicaRef.heldBy(4, 3, List.of(1, 2))); // unchanged since 4
        refs.put(16, ReplicaRef.heldBy(16, 3, List.of(2, 0)));
        PartitionLocators entry = new PartitionLocators(refs);

        assertThat(entry.ref(2)).isNull();
        assertThat(entry.ref(8)).isEqualTo(ReplicaRef.heldBy(8, 3, List.of(1, 2)));
        assertThat(entry.ref(12)).isEqualTo(ReplicaRef.heldBy(4, 3, List.of(1, 2)));
        assertThat(entry.ref(14)).isNull();
        assertThat(entry.ref(40)).isEqualTo(ReplicaRef.heldBy(40, 3, List.of(2, 0)));
        assertThat(PartitionLocators.standsForLater(4, ReplicaRef.heldBy(4, 3, List.of()))).as("nobody holds it").isFalse();
    }

    @Test
    void when_aHolderDied_then_repairPlacesTheCopyAgainAndTheSurvivingHolderKeepsIts() {
        CheckpointStore writer = stores.get(0);
        writer.write(4, 0, state(2));
        planes.get(1).closeAbruptly();
        live.remove(1);

        assertThat(writer.repair(4, new int[] {0})).isEqualTo(1);

        assertThat(writer.replicatedRef(4, 0).holders()).containsExactly(2, 3);
        assertThat(replicas.get(2).heldCopies()).as("not dropped as a holder of the old copies").isEqualTo(1);
        assertThat(replicas.get(3).heldCopies()).isEqualTo(1);
        assertThat(writer.repair(4, new int[] {0})).as("intact now").isZero();
        live.remove(2);
        assertThat(stores.get(3).replicated(4, 0)).containsExactly(state(2));
    }

    @Test
    void when_aStateDidNotChangeButAHolderDied_then_theNextCheckpointSendsItAgain() {
        CheckpointStore writer = stores.get(0);
        writer.write(4, 0, state(3));
        live.remove(2);
        writer.writeLocal(8, 0, state(3));

        assertThat(writer.replicate(8, 0)).isTrue();
        assertThat(writer.replicatedRef(8, 0)).isEqualTo(ReplicaRef.heldBy(8, 0, List.of(1, 3)));
    }

    @Test
    void when_theLocatorIsLostButAHolderLives_then_theCopyIsFoundByAskingTheLiveRanks() {
        stores.get(0).write(4, 0, state(4));
        member.getMap(HazelcastConfigs.CHECKPOINT_MAP).delete(CheckpointStore.locatorKey(0));
        live.remove(0);
        live.remove(1);

        assertThat(stores.get(3).hasReplicated(4, 0)).isTrue();
        assertThat(stores.get(3).replicated(4, 0)).containsExactly(state(4));
        live.remove(2);
        assertThat(stores.get(3).hasReplicated(4, 0)).as("every holder dead").isFalse();
        assertThat(stores.get(3).replicated(4, 1)).as("never written").isNull();
    }

    private static double[] state(int seed) {
        double[] s = new double[1000];
        for (int i = 0; i < s.length; i++) {
            s[i] = seed * 1000.0 + i / 7.0;
        }
        return s;
    }
}
