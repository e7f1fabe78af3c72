package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Checkpoints whose holders share the writer's JVM (embedded mode) keep the writer's own state buffer
 * ({@link LentArrays}): the writer's double buffer writes into it again only once its checkpoint and every
 * holder dropped it.
 *
 * <pre>
 *   one JVM, one Hazelcast member for the locators
 *   rank 0 writes partition 0 from its double buffer; ranks 1 and 2 hold its copies
 * </pre>
 */
class LentCheckpointsTest {

    private static final int RANKS = 3;

    private final Set<Integer> live = ConcurrentHashMap.newKeySet();
    private final List<DataPlane> planes = new ArrayList<>();
    private final List<DataPlaneReplicas> replicas = new ArrayList<>();
    private final List<CheckpointStore> stores = new ArrayList<>();
    private HazelcastInstance member;

    @BeforeEach
    void start() throws Exception {
        ClusterSettings settings = new ClusterSettings().basePort(HazelcastConfigs.freeBasePort(2)).joinTimeoutMillis(10_000);
        member = Hazelcast.newHazelcastInstance(HazelcastConfigs.member(settings, 0, 0, 1, 0, 1));
        PromotionRetry retry = new PromotionRetry(member, PromotionRetry.DEFAULT_MAX_WAIT_MILLIS);
        InetAddress loopback = InetAddress.getLoopbackAddress();
        int[] ports = new int[RANKS];
        String cluster = "lent-" + System.nanoTime();
        for (int r = 0; r < RANKS; r++) {
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

    @AfterEach
    void stop() {
        replicas.forEach(DataPlaneReplicas::close);
        planes.forEach(DataPlane::close);
        member.getLifecycleService().terminate();
    }

    /** One iteration of a "kernel" that adds 1 to every cell but the fixed boundary, cell 0. */
    private static void iterate(DoubleBuffer buffers) {
        double[] in = buffers.live();
        double[] out = buffers.writableNext();
        for (int i = 1; i < out.length; i++) {
            out[i] = in[i] + 1;
        }
        buffers.swap();
    }

    /*
     *   iteration     4 (checkpoint, buffer X)   ...   14 (checkpoint)   commit of 14: rank 0 drops 4,
     *   holders 1, 2  keep X                                             then tells its holders to drop it
     *   X is not written before both dropped it, and is the next spare after
     */
    @Test
    void when_theWriterDropsACheckpointItsHoldersStillKeep_then_itsBufferIsNotWrittenUntilTheyDropItToo() {
        CheckpointStore writer = stores.get(0);
        DoubleBuffer buffers = DoubleBuffer.of(new double[] {-7, 4, 4, 4});
        writer.holdLocal(4, 0, buffers, 0);
        double[] x = buffers.live();
        writer.replicate(4, 0);
        for (int i = 5; i <= 14; i++) {
            iterate(buffers);
        }
        writer.holdLocal(14, 0, buffers, 0);
        writer.replicate(14, 0);

        List<Integer> dropped = writer.dropLocalOlderThan(14); // the commit; the holders drop 4 on the replication thread

        assertThat(dropped).containsExactly(4);
        assertThat(LentArrays.holders(x)).isEqualTo(2);
        for (int i = 15; i <= 20; i++) {
            iterate(buffers);
            assertThat(buffers.live()).as("iteration %d", i).isNotSameAs(x);
            assertThat(buffers.next()).isNotSameAs(x);
        }
        assertThat(x).as("checkpoint 4, as the holders keep it").containsExactly(-7, 4, 4, 4);
        assertThat(stores.get(1).replicated(4, 0)).containsExactly(-7, 4, 4, 4);

        writer.dropReplicated(dropped, new int[] {0});

        assertThat(LentArrays.holders(x)).isZero();
        assertThat(replicas.get(1).heldCopies()).isEqualTo(1);
        writer.holdLocal(20, 0, buffers, 0);
        iterate(buffers); // writes the second buffer; the held one moves to the second place
        iterate(buffers); // the held one must not be written: a spare takes its place
        assertThat(buffers.live()).as("the given-back buffer, written again").isSameAs(x).containsExactly(-7, 22, 22, 22);
    }
}
