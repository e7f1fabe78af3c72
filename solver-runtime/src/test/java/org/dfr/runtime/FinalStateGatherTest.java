package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.dfr.analysis.BlockLayout;
import org.dfr.runtime.net.CommunicationException;
import org.dfr.runtime.net.DataPlane;
import org.dfr.runtime.net.EpochChangedException;
import org.dfr.runtime.net.Mailbox;
import org.dfr.runtime.stencil.LinearStencil;
import org.dfr.runtime.stencil.StencilBoundary;
import org.dfr.runtime.stencil.StencilKernel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The final states reach the root over the data plane, bit for bit, and a gather that a lost rank
 * interrupts ends with the epoch change instead of a result. At the end-of-run barrier, a rank that sent its
 * notices may leave before the others' reach it.
 *
 * <pre>
 *   partitions (2 x 2)    owners        root = rank 0 (the lowest active rank)
 *     0 1                  0 1
 *     2 3                  1 2
 * </pre>
 */
class FinalStateGatherTest {

    private static final long TIMEOUT_MILLIS = 10_000;
    private static final int RANKS = 3;
    private static final Ownership OWNERS = Ownership.of(new int[] {0, 1, 1, 2});

    private final int[] ports = new int[RANKS];
    private final List<Mailbox> mailboxes = new ArrayList<>();
    private final List<DataPlane> planes = new ArrayList<>();
    private final List<Communicator> communicators = new ArrayList<>();

    @BeforeEach
    void openThreeRanksOverTcp() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        PartitionKernel kernel = StencilKernel.linear(new BlockLayout(new int[] {8, 6}, new int[] {2, 2}),
                new LinearStencil(new int[][] {{0, -1}, {0, 1}, {-1, 0}, {1, 0}}, new double[] {0.25, 0.25, 0.25, 0.25}),
                StencilBoundary.periodicBoundary(), (x, y, z) -> x + 10 * y);
        for (int r = 0; r < RANKS; r++) {
            Mailbox mailbox = new Mailbox();
            // no cluster name: never the in-JVM shortcut, always a socket
            DataPlane plane = new DataPlane(r, mailbox, rank -> new InetSocketAddress(loopback, ports[rank]));
            ports[r] = plane.port();
            mailboxes.add(mailbox);
            planes.add(plane);
            communicators.add(new Communicator(r, kernel, plane, mailbox, TIMEOUT_MILLIS, () -> OWNERS));
        }
    }

    @AfterEach
    void close() {
        planes.forEach(DataPlane::close);
    }

    @Test
    void when_everyRankSendsItsPartitions_then_theRootHoldsEveryFinalStateBitForBit() throws Exception {
        Map<Integer, double[]> expected = randomStates(7, new int[] {12, 12, 12, 12});
        expected.get(0)[0] = -0.0;
        List<CompletableFuture<TreeMap<Integer, double[]>>> gathers = sendFromTheOthers(expected);

        TreeMap<Integer, double[]> atRoot = communicators.get(0).gatherFinalStates(ownedBy(0, expected));

        assertThat(atRoot).containsOnlyKeys(0, 1, 2, 3);
        for (int p = 0; p < OWNERS.partitionCount(); p++) {
            assertThat(RawBits.of(atRoot.get(p))).as("partition %d", p).isEqualTo(RawBits.of(expected.get(p)));
        }
        for (CompletableFuture<TreeMap<Integer, double[]>> g : gathers) {
            assertThat(g.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)).as("a rank that is not the root").isNull();
        }
    }

    @Test
    void when_statesAreLargerThanASlice_then_theyArriveBitForBit_andNoConnectionHoldsMoreThanASlice() throws Exception {
        int slice = Communicator.FINAL_STATE_SLICE_DOUBLES;
        // the root's own partition 0 spans two slices; partition 1 needs three, partition 2 exactly one,
        // partition 3 is empty (only its length travels)
        int[] lengths = {slice + 5, 2 * slice + 7, slice, 0};
        Map<Integer, double[]> expected = randomStates(11, lengths);
        List<CompletableFuture<TreeMap<Integer, double[]>>> gathers = sendFromTheOthers(expected);

        TreeMap<Integer, double[]> atRoot = communicators.get(0).gatherFinalStates(ownedBy(0, expected));

        for (CompletableFuture<TreeMap<Integer, double[]>> g : gathers) {
            g.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        }
        for (int p = 0; p < lengths.length; p++) {
            assertThat(RawBits.of(atRoot.get(p))).as("partition %d", p).isEqualTo(RawBits.of(expected.get(p)));
        }
        long oneSliceFrame = 6L * Integer.BYTES + (long) slice * Double.BYTES;
        for (int r = 0; r < RANKS; r++) {
            assertThat(planes.get(r).largestFrameBufferBytes()).as("rank %d", r).isLessThanOrEqualTo(oneSliceFrame);
        }
    }

    @Test
    void when_theRootOwnsAState_then_itKeepsACopy_notTheArrayThatItsRankComputesInto() throws Exception {
        double[] live = {1.0, 2.0};
        CompletableFuture<?> rank1 = CompletableFuture.runAsync(
                () -> communicators.get(1).gatherFinalStates(Map.of(1, new double[] {2.0}, 2, new double[] {3.0})));
        CompletableFuture<?> rank2 = CompletableFuture.runAsync(
                () -> communicators.get(2).gatherFinalStates(Map.of(3, new double[] {4.0})));

        TreeMap<Integer, double[]> atRoot = communicators.get(0).gatherFinalStates(Map.of(0, live));
        live[0] = 99.0;

        CompletableFuture.allOf(rank1, rank2).get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        assertThat(atRoot.get(0)).containsExactly(1.0, 2.0);
        assertThat(atRoot.get(3)).containsExactly(4.0);
    }

    @Test
    void when_aRankIsLostBeforeItSends_then_theRootsGatherEndsWithTheEpochChange() {
        Map<Integer, double[]> states = Map.of(0, new double[] {1.0});
        // rank 2 never sends partition 3; a recovery interrupts the epoch meanwhile
        CompletableFuture.runAsync(() -> communicators.get(1).gatherFinalStates(Map.of(1, new double[] {2.0}, 2, new double[] {3.0})));
        CompletableFuture.runAsync(() -> mailboxes.get(0).interruptEpoch("rank 2 lost"),
                CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS));

        long start = System.nanoTime();
        assertThatThrownBy(() -> communicators.get(0).gatherFinalStates(states)).isInstanceOf(EpochChangedException.class);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(TIMEOUT_MILLIS);
    }

    /*
     * The end-of-run barrier: rank 2 sends its notices and leaves (its data plane closes) before the root sends
     * its own. The root's notice cannot reach rank 2 any more, which no longer needs it.
     */
    @Test
    void when_aRankLeavesAfterItsEndNotices_then_theOthersStillPassTheEndBarrier() throws Exception {
        int[] active = {0, 1, 2};
        int iteration = 9;
        communicators.get(2).sendEndNotices(iteration, active);
        planes.get(2).closeAbruptly();
        // what the skip rests on: rank 2's notice arrived (over a new connection, read by the accepting thread)
        await().atMost(Duration.ofSeconds(10)).until(() -> mailboxes.get(0).passedEnd(2) && mailboxes.get(1).passedEnd(2));
        CompletableFuture<Void> rank1 = CompletableFuture.runAsync(() -> communicators.get(1).awaitEndNotices(
                iteration, new int[] {0, 1}, communicators.get(1).sendEndNotices(iteration, active)));

        Communicator root = communicators.get(0);
        root.awaitEndNotices(iteration, active, root.sendEndNotices(iteration, active));

        rank1.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
    }

    @Test
    void when_aRankLeavesBeforeItsEndNotices_then_aNoticeToItFails() {
        planes.get(2).closeAbruptly();

        assertThatThrownBy(() -> communicators.get(0).sendEndNotices(9, new int[] {0, 1, 2}))
                .isInstanceOf(CommunicationException.class);
    }

    /** Partition {@code p}'s state: {@code lengths[p]} doubles of random bits (NaNs and infinities included). */
    private static Map<Integer, double[]> randomStates(long seed, int[] lengths) {
        Map<Integer, double[]> states = new TreeMap<>();
        SplittableRandom random = new SplittableRandom(seed);
        for (int p = 0; p < lengths.length; p++) {
            double[] state = new double[lengths[p]];
            for (int k = 0; k < state.length; k++) {
                state[k] = Double.longBitsToDouble(random.nextLong());
            }
            states.put(p, state);
        }
        return states;
    }

    /** Every rank but the root gathers (sends) its partitions' states, each on its own thread. */
    private List<CompletableFuture<TreeMap<Integer, double[]>>> sendFromTheOthers(Map<Integer, double[]> states) {
        List<CompletableFuture<TreeMap<Integer, double[]>>> gathers = new ArrayList<>();
        for (int r = 1; r < RANKS; r++) {
            int rank = r;
            gathers.add(CompletableFuture.supplyAsync(() -> communicators.get(rank).gatherFinalStates(ownedBy(rank, states))));
        }
        return gathers;
    }

    private static Map<Integer, double[]> ownedBy(int rank, Map<Integer, double[]> states) {
        Map<Integer, double[]> own = new TreeMap<>();
        for (int p : OWNERS.partitionsOf(rank)) {
            own.put(p, states.get(p).clone());
        }
        return own;
    }
}
