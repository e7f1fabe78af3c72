package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/*
 * Three members on three hosts, as a run places them; each writes the checkpoint of its own
 * partition through its own CheckpointStore.
 */
class CheckpointStoreTest {

    private static final int MEMBERS = 3;

    private final ClusterSettings settings = new ClusterSettings()
            .basePort(HazelcastConfigs.freeBasePort(MEMBERS + 3))
            .joinTimeoutMillis(10_000);
    private final List<HazelcastInstance> members = new ArrayList<>();
    private final List<CheckpointStore> stores = new ArrayList<>();

    @AfterEach
    void terminateEveryMember() {
        members.forEach(m -> m.getLifecycleService().terminate());
    }

    @Test
    void when_aMemberWritesACheckpoint_then_itsPrimaryCopyIsOnThatMember() {
        startMembers(MEMBERS);
        for (int r = 0; r < MEMBERS; r++) {
            stores.get(r).write(4, r, state(r));
        }
        for (int r = 0; r < MEMBERS; r++) {
            String key = stateKeyWritten(4, r);
            assertThat(key).as("state key of partition %d", r).contains("@");
            assertThat(checkpointMap(r).localKeySet()).as("keys owned by member %d", r).contains(key);
            for (int reader = 0; reader < MEMBERS; reader++) {
                assertThat(stores.get(reader).replicated(4, r)).as("partition %d read by %d", r, reader)
                        .containsExactly(state(r));
            }
        }
    }

    @Test
    void when_theWriterIsTerminated_then_itsCheckpointIsReadFromABackup() {
        startMembers(MEMBERS);
        stores.get(1).write(8, 1, state(1));

        members.get(1).getLifecycleService().terminate();

        assertThat(stores.get(0).hasReplicated(8, 1)).isTrue();
        assertThat(stores.get(0).replicated(8, 1)).containsExactly(state(1));
        assertThat(stores.get(2).replicated(8, 1)).containsExactly(state(1));
    }

    @Test
    void when_olderCheckpointsAreDropped_then_theirStatesAndLocatorsAreGoneAndTheNewestStays() {
        startMembers(MEMBERS);
        CheckpointStore store = stores.get(2);
        store.write(0, 2, state(0));
        store.write(4, 2, state(4));

        store.dropOlderThan(4, new int[] {2});

        assertThat(store.hasReplicated(0, 2)).isFalse();
        assertThat(store.local(0, 2)).isNull();
        assertThat(checkpointMap(0).keySet()).as("the partition's one locator entry and the newest state")
                .containsExactlyInAnyOrder(CheckpointStore.locatorKey(2), stateKeyWritten(4, 2));
        assertThat(store.replicated(4, 2)).containsExactly(state(4));
    }

    @Test
    void when_checkpointsFollowOneAnother_then_everyKeptCopyHoldsItsOwnStateAndNotAReusedBuffer() {
        startMembers(MEMBERS);
        CheckpointStore store = stores.get(1);
        double[] live = state(0);
        store.write(0, 1, live);
        System.arraycopy(state(4), 0, live, 0, live.length);
        store.write(4, 1, live);
        store.dropOlderThan(4, new int[] {1});
        System.arraycopy(state(8), 0, live, 0, live.length);
        store.write(8, 1, live);
        System.arraycopy(state(9), 0, live, 0, live.length);

        assertThat(store.local(0, 1)).isNull();
        assertThat(store.local(4, 1)).containsExactly(state(4));
        assertThat(store.local(8, 1)).containsExactly(state(8));
        assertThat(stores.get(0).replicated(4, 1)).containsExactly(state(4));
        assertThat(stores.get(0).replicated(8, 1)).containsExactly(state(8));
    }

    @Test
    void when_aBufferIsHeldAsTheLocalCopy_then_itIsTheCopyUncopiedAndDroppingItGivesItBackToTheBuffer() {
        startMembers(MEMBERS);
        CheckpointStore store = stores.get(1);
        DoubleBuffer states = new DoubleBuffer(state(4), state(0));
        double[] four = states.live();
        store.holdLocal(4, 1, states, 0);
        store.replicate(4, 1);
        states.swap();
        System.arraycopy(state(8), 0, states.writableNext(), 0, 1000);
        store.holdLocal(8, 1, states, 1);
        store.replicate(8, 1);

        assertThat(store.local(4, 1)).as("the held buffer itself").isSameAs(four);
        assertThat(stores.get(0).replicated(4, 1)).containsExactly(state(4));
        assertThat(stores.get(2).replicated(8, 1)).containsExactly(state(8));

        states.swap();
        store.dropOlderThan(8, new int[] {1});
        states.swap();

        assertThat(store.local(4, 1)).isNull();
        assertThat(states.isHeld(1)).as("8 is held").isTrue();
        assertThat(states.writableNext()).as("the given-back copy of 4 replaces the held 8").isSameAs(four);
        assertThat(store.local(8, 1)).containsExactly(state(8));
    }

    @Test
    void when_aPartitionDidNotChange_then_itIsNotSentAgainAndItsCopySurvivesTheDropOfTheOlderCheckpoint() {
        startMembers(MEMBERS);
        CheckpointStore store = stores.get(2);
        store.write(4, 2, state(1));
        store.write(8, 2, state(1));

        assertThat(store.partitionsSent()).as("partitions sent").isEqualTo(1);
        assertThat(store.partitionsUnchanged()).as("partitions found unchanged").isEqualTo(1);
        assertThat(store.bytesSent()).isEqualTo(1000L * Double.BYTES);
        assertThat(stateKeyWritten(8, 2)).as("the copy holder keeps the previous copy as the new one")
                .isEqualTo(stateKeyWritten(4, 2));

        store.dropOlderThan(8, new int[] {2});

        assertThat(stores.get(0).replicated(8, 2)).containsExactly(state(1));
        assertThat(checkpointMap(0).size()).as("one state and the partition's locator entry").isEqualTo(2);

        store.write(12, 2, state(3));
        store.dropOlderThan(12, new int[] {2});

        assertThat(store.partitionsSent()).isEqualTo(2);
        assertThat(stores.get(1).replicated(12, 2)).containsExactly(state(3));
        assertThat(checkpointMap(0).keySet()).as("the shared state went with the last locator pointing at it")
                .containsExactlyInAnyOrder(CheckpointStore.locatorKey(2), stateKeyWritten(12, 2));
        assertThat(store.hasReplicated(4, 2)).as("gone from the locator entry with the next write").isFalse();
    }

    @Test
    void when_oneValueChanged_then_thePartitionIsSentAgain() {
        startMembers(MEMBERS);
        CheckpointStore store = stores.get(0);
        double[] s = state(5);
        store.write(4, 0, s);
        s[999] = Math.nextUp(s[999]);
        store.write(8, 0, s);

        assertThat(store.partitionsSent()).isEqualTo(2);
        assertThat(store.partitionsUnchanged()).isZero();
        assertThat(stores.get(1).replicated(8, 0)).containsExactly(s);
        assertThat(stores.get(1).replicated(4, 0)).containsExactly(state(5));
    }

    @Test
    void when_anotherMemberRewritesACheckpoint_then_theFirstCopyIsRemovedAndTheNewOneIsRead() {
        startMembers(MEMBERS);
        stores.get(1).write(4, 1, state(1));
        String first = stateKeyWritten(4, 1);

        stores.get(2).write(4, 1, state(7));

        assertThat(stateKeyWritten(4, 1)).isNotEqualTo(first);
        assertThat(checkpointMap(0).containsKey(first)).as("the first writer's copy").isFalse();
        assertThat(checkpointMap(0).size()).as("one state and its locator").isEqualTo(2);
        assertThat(stores.get(0).replicated(4, 1)).containsExactly(state(7));
    }

    @Test
    void when_theWriterOwnsNoPartition_then_theStateGoesWhereItsKeyHashesAndIsStillFound() {
        startMembers(2);
        Config liteConfig = HazelcastConfigs.member(settings, 2, 0, MEMBERS, 2, MEMBERS).setLiteMember(true);
        HazelcastInstance lite = Hazelcast.newHazelcastInstance(liteConfig);
        members.add(lite);
        LocalPartitionKey liteKey = new LocalPartitionKey(lite.getPartitionService());
        CheckpointStore liteStore = new CheckpointStore(lite.getMap(HazelcastConfigs.CHECKPOINT_MAP),
                new PromotionRetry(lite, PromotionRetry.DEFAULT_MAX_WAIT_MILLIS), liteKey::current);

        assertThat(liteKey.current()).as("a lite member owns no partition").isNull();
        liteStore.write(4, 2, state(2));

        assertThat(stateKeyWritten(4, 2)).doesNotContain("@");
        assertThat(stores.get(0).replicated(4, 2)).containsExactly(state(2));
    }

    private void startMembers(int count) {
        for (int r = 0; r < count; r++) {
            HazelcastInstance hz = Hazelcast.newHazelcastInstance(
                    HazelcastConfigs.member(settings, r, 0, MEMBERS, r, MEMBERS));
            members.add(hz);
        }
        for (HazelcastInstance hz : members) {
            stores.add(new CheckpointStore(hz.getMap(HazelcastConfigs.CHECKPOINT_MAP),
                    new PromotionRetry(hz, PromotionRetry.DEFAULT_MAX_WAIT_MILLIS),
                    new LocalPartitionKey(hz.getPartitionService())::current));
        }
    }

    private IMap<String, byte[]> checkpointMap(int member) {
        return members.get(member).getMap(HazelcastConfigs.CHECKPOINT_MAP);
    }

    /** The state key the locator of (iteration, partition) points at. */
    private String stateKeyWritten(int iteration, int partition) {
        String key = stores.get(0).replicatedKey(iteration, partition);
        assertThat(key).as("state key of %d/%d", iteration, partition).isNotNull();
        return key;
    }

    private static double[] state(int seed) {
        double[] s = new double[1000];
        for (int i = 0; i < s.length; i++) {
            s[i] = seed * 1000.0 + i / 7.0;
        }
        return s;
    }
}
