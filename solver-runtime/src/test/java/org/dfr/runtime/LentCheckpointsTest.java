package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
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

    private StoreRanks ranks;

    @BeforeEach
    void start() throws Exception {
        ranks = new StoreRanks(3, "lent-" + System.nanoTime());
    }

    @AfterEach
    void stop() {
        ranks.close();
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

    /** Checkpoint {@code iteration} of partition 0 from the live buffer, replicated: the buffer, X. */
    private static double[] checkpointOfLive(CheckpointStore writer, int iteration, DoubleBuffer buffers) {
        writer.holdLocal(iteration, 0, buffers, 0);
        writer.replicate(iteration, 0);
        return buffers.live();
    }

    /*
     *   iteration     4 (checkpoint, buffer X)   ...   14 (checkpoint)   commit of 14: rank 0 drops 4,
     *   holders 1, 2  keep X                                             then tells its holders to drop it
     *   X is not written before both dropped it, and is the next spare after
     */
    @Test
    void when_theWriterDropsACheckpointItsHoldersStillKeep_then_itsBufferIsNotWrittenUntilTheyDropItToo() {
        CheckpointStore writer = ranks.stores.get(0);
        DoubleBuffer buffers = DoubleBuffer.of(new double[] {-7, 4, 4, 4});
        double[] x = checkpointOfLive(writer, 4, buffers);
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
        assertThat(ranks.stores.get(1).replicated(4, 0)).containsExactly(-7, 4, 4, 4);

        writer.dropReplicated(dropped, new int[] {0});

        assertThat(LentArrays.holders(x)).isZero();
        assertThat(ranks.replicas.get(1).heldCopies()).isEqualTo(1);
        writer.holdLocal(20, 0, buffers, 0);
        iterate(buffers); // writes the second buffer; the held one moves to the second place
        iterate(buffers); // the held one must not be written: a spare takes its place
        assertThat(buffers.live()).as("the given-back buffer, written again").isSameAs(x).containsExactly(-7, 22, 22, 22);
    }

    /*
     *   checkpoint 0 written from buffer X, lent to 1 and 2; the start is retried: 0 is dropped and written
     *   from X again before 1 and 2 gave X back; when they do, X stays the local copy and is not written
     */
    @Test
    void when_aCheckpointIsWrittenAgainFromABufferItsHoldersStillKeep_then_theirGiveBackDoesNotFreeIt() {
        CheckpointStore writer = ranks.stores.get(0);
        DoubleBuffer buffers = DoubleBuffer.of(new double[] {-7, 0, 0, 0});
        double[] x = checkpointOfLive(writer, 0, buffers);
        writer.dropLocal(0);

        writer.holdLocal(0, 0, buffers, 0);
        ranks.replicas.get(1).close(); // both holders die: they give X back
        ranks.replicas.get(2).close();

        assertThat(LentArrays.holders(x)).isZero();
        assertThat(buffers.isHeld(0)).as("still checkpoint 0's local copy").isTrue();
        iterate(buffers);
        iterate(buffers);
        assertThat(x).containsExactly(-7, 0, 0, 0);
        assertThat(writer.local(0, 0)).isSameAs(x);
    }

    /*
     *   a recovery abandons checkpoint 4 while rank 0 is replicating it: the holders it reached keep buffer X,
     *   so X is not written before they gave it back
     */
    @Test
    void when_aCheckpointIsAbandonedWhileItIsReplicated_then_itsBufferWaitsForTheHoldersItReached() {
        CheckpointStore[] writer = new CheckpointStore[1];
        ReplicaStore copies = ranks.replicas.get(0);
        ReplicaStore abandonedMidway = new ReplicaStore() {
            @Override
            public ReplicaRef write(int iteration, int partition, double[] state) {
                writer[0].dropLocal(iteration); // the recovery, on the rank's own thread, meanwhile
                return copies.write(iteration, partition, state);
            }

            @Override
            public double[] read(ReplicaRef ref) {
                return copies.read(ref);
            }

            @Override
            public boolean holds(ReplicaRef ref) {
                return copies.holds(ref);
            }

            @Override
            public boolean intact(ReplicaRef ref) {
                return copies.intact(ref);
            }

            @Override
            public void delete(ReplicaRef ref) {
                copies.delete(ref);
            }
        };
        writer[0] = new CheckpointStore(ranks.member.getMap(HazelcastConfigs.CHECKPOINT_MAP),
                new PromotionRetry(ranks.member, PromotionRetry.DEFAULT_MAX_WAIT_MILLIS), abandonedMidway);
        DoubleBuffer buffers = DoubleBuffer.of(new double[] {-7, 4, 4, 4});
        writer[0].holdLocal(4, 0, buffers, 0);
        double[] x = buffers.live();

        writer[0].replicate(4, 0);

        assertThat(LentArrays.holders(x)).isEqualTo(2);
        for (int i = 5; i <= 8; i++) {
            iterate(buffers);
            assertThat(x).as("after iteration %d", i).containsExactly(-7, 4, 4, 4);
        }
        copies.delete(ReplicaRef.heldBy(4, 0, List.of(1, 2)));
        assertThat(LentArrays.holders(x)).isZero();
        buffers.hold(1);
        assertThat(buffers.writableNext()).as("given back: the spare that replaces a held buffer").isSameAs(x);
    }
}
