package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.dfr.runtime.net.DataPlane;
import org.dfr.runtime.net.Mailbox;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoint copies over the data plane: placed on holders of other hosts, read back bit for bit from a
 * live holder, replaced when a holder is dead, dropped, and bounded per partition.
 *
 * <pre>
 *   ranks over TCP (one rank per host unless a test says otherwise)
 *     0 --copies--> 1, 2        (the next ranks after the writer, on other hosts)
 *     3             reader
 * </pre>
 */
class DataPlaneReplicasTest {

    private static final long TIMEOUT_MILLIS = 10_000;
    /** Three slices, the last one partial. */
    private static final int STATE_DOUBLES = 2 * DataPlaneReplicas.SLICE_DOUBLES + 1_234;

    private final Set<Integer> live = ConcurrentHashMap.newKeySet();
    private final List<DataPlane> planes = new ArrayList<>();
    private final List<DataPlaneReplicas> replicas = new ArrayList<>();

    private void openRanks(int count, String cluster, int copies) throws Exception {
        openRanks(count, cluster, copies, rank -> rank);
    }

    private void openRanks(int count, String cluster, int copies, IntUnaryOperator hostOf) throws Exception {
        openRanks(count, cluster, copies, hostOf, rank -> null);
    }

    /** @param sharedDirectory each rank's shared-memory directory (null: none) */
    private void openRanks(int count, String cluster, int copies, IntUnaryOperator hostOf,
                           IntFunction<Path> sharedDirectory) throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        int[] ports = new int[count];
        for (int r = 0; r < count; r++) {
            Mailbox mailbox = new Mailbox();
            // without a cluster name never the in-JVM shortcut: a socket
            DataPlane plane = new DataPlane(cluster, r, mailbox, rank -> new InetSocketAddress(loopback, ports[rank]),
                    loopback, 0L);
            ports[r] = plane.port();
            planes.add(plane);
            live.add(r);
            replicas.add(new DataPlaneReplicas(r, plane, () -> Set.copyOf(live), live::contains, live::contains, hostOf,
                    copies, TIMEOUT_MILLIS, SharedMemoryCopies.in(sharedDirectory.apply(r), r)));
        }
    }

    @AfterEach
    void close() {
        replicas.forEach(DataPlaneReplicas::close);
        planes.forEach(DataPlane::close);
    }

    @Test
    void when_holdersAreOrdered_then_otherHostsComeFirstOnePerHostAtTheWritersPosition() {
        // 8 ranks, 2 per host: writer 1 is second on host 0, so the second rank of hosts 1, 2, 3 comes first
        List<Integer> order = DataPlaneReplicas.holderOrder(1, IntStream.range(0, 8).boxed().toList(), r -> r / 2);

        assertThat(order).containsExactly(3, 5, 7, 2, 4, 6, 0);
    }

    @Test
    void when_everyRankWritesTwoCopies_then_everyRankHoldsTwo() {
        List<Integer> live = IntStream.range(0, 8).boxed().toList();
        int[] held = new int[8];
        for (int writer = 0; writer < 8; writer++) {
            DataPlaneReplicas.holderOrder(writer, live, r -> r / 2).subList(0, 2).forEach(h -> held[h]++);
        }

        assertThat(held).containsOnly(2);
    }

    @Test
    void when_aHostLostARank_then_itsOtherRankTakesTheWritersPosition() {
        // host 1 has only rank 3 left
        List<Integer> order = DataPlaneReplicas.holderOrder(0, List.of(0, 1, 3, 4, 5, 6, 7), r -> r / 2);

        assertThat(order).startsWith(3, 4, 6);
    }

    @Test
    void when_aStateIsWrittenOverTcp_then_twoHoldersKeepItAndAnotherRankReadsItBitForBit() throws Exception {
        openRanks(4, null, 2);
        double[] state = randomState(1);
        state[7] = -0.0;
        state[STATE_DOUBLES - 1] = Double.NaN;

        ReplicaRef ref = replicas.get(0).write(4, 0, state);

        assertThat(ref.holders()).containsExactly(1, 2);
        assertThat(replicas.get(1).heldCopies()).isEqualTo(1);
        assertThat(replicas.get(2).heldDoubles()).isEqualTo(STATE_DOUBLES);
        assertThat(replicas.get(3).heldCopies()).isZero();
        // what a holder names in its recovery status, and what a rank holding nothing names
        assertThat(replicas.get(1).intactHeldCopies()).containsExactly(new HeldCopy(4, 0));
        assertThat(replicas.get(3).intactHeldCopies()).isEmpty();
        assertThat(RawBits.of(replicas.get(3).read(ReplicaRef.fromBytes(ref.toBytes())))).isEqualTo(RawBits.of(state));
        assertThat(replicas.get(3).holds(ref)).isTrue();
        assertThat(replicas.get(0).intact(ref)).isTrue();
    }

    @Test
    void when_holdersAreOtherProcessesOfThisMachine_then_theyShareOneFileInSharedMemoryBitForBit(@TempDir Path shm)
            throws Exception {
        openRanks(4, null, 2, rank -> rank, rank -> shm);
        double[] state = randomState(11);
        state[STATE_DOUBLES - 1] = Double.NaN;

        ReplicaRef ref = replicas.get(0).write(4, 0, state);
        state[0] = 42; // the writer's local copy changes after the write: the file does not

        assertThat(ref.holders()).containsExactly(1, 2);
        assertThat(replicas.get(0).sharedMemoryCopies()).isEqualTo(2);
        assertThat(filesUnder(shm)).as("one file for both holders").containsExactly("w0/p0-s0");
        assertThat(replicas.get(1).heldDoubles()).isEqualTo(STATE_DOUBLES);
        assertThat(replicas.get(1).pooledSlices()).as("no slice taken for it").isZero();
        double[] written = randomState(11);
        written[STATE_DOUBLES - 1] = Double.NaN;
        assertThat(RawBits.of(replicas.get(1).readHeld(4, 0))).isEqualTo(RawBits.of(written));
        assertThat(RawBits.of(replicas.get(3).read(ref))).as("fetched from a holder over TCP").isEqualTo(RawBits.of(written));

        double[] next = randomState(12);
        ReplicaRef second = replicas.get(0).write(8, 0, next);

        assertThat(replicas.get(0).sharedMemoryCopies()).isEqualTo(4);
        assertThat(filesUnder(shm)).as("checkpoint 4 is held: 8 goes into another file")
                .containsExactly("w0/p0-s0", "w0/p0-s1");
        assertThat(RawBits.of(replicas.get(2).readHeld(8, 0))).isEqualTo(RawBits.of(next));
        assertThat(RawBits.of(replicas.get(2).readHeld(4, 0))).as("the older copy is intact").isEqualTo(RawBits.of(written));

        replicas.get(0).delete(ref); // checkpoint 8 committed: 4 is dropped, and its file is free
        replicas.get(0).write(12, 0, randomState(13));

        assertThat(filesUnder(shm)).as("the free file is reused").containsExactly("w0/p0-s0", "w0/p0-s1");
        assertThat(RawBits.of(replicas.get(3).read(second))).isEqualTo(RawBits.of(next));

        replicas.get(0).close();
        assertThat(filesUnder(shm)).as("a writer that ends in order deletes its files").isEmpty();
        assertThat(RawBits.of(replicas.get(1).readHeld(8, 0))).as("a holder's mapping outlives the file").isEqualTo(RawBits.of(next));
    }

    @Test
    void when_aHolderIsOnAnotherMachine_then_itGetsSlicesFromThenOn(@TempDir Path shm, @TempDir Path otherMachine)
            throws Exception {
        // ranks 0 and 1 share a machine; rank 2 sees another directory
        openRanks(3, null, 2, rank -> rank, rank -> rank == 2 ? otherMachine : shm);
        double[] state = randomState(13);

        ReplicaRef ref = replicas.get(0).write(4, 0, state);

        assertThat(ref.holders()).containsExactly(1, 2);
        assertThat(replicas.get(0).sharedMemoryCopies()).as("rank 1's only").isEqualTo(1);
        assertThat(RawBits.of(replicas.get(2).readHeld(4, 0))).isEqualTo(RawBits.of(state));
        assertThat(RawBits.of(replicas.get(1).readHeld(4, 0))).isEqualTo(RawBits.of(state));

        replicas.get(0).write(8, 0, randomState(14));

        assertThat(replicas.get(0).sharedMemoryCopies()).isEqualTo(2);
        assertThat(filesUnder(otherMachine)).isEmpty();
        assertThat(replicas.get(2).heldCopies()).isEqualTo(2);
        assertThat(replicas.get(1).intactHeldCopies()).as("copies in shared memory count, in checkpoint order")
                .containsExactly(new HeldCopy(4, 0), new HeldCopy(8, 0));
    }

    @Test
    void when_aWriterDied_then_itsCopyIsStillReadFromAHoldersMapping(@TempDir Path shm) throws Exception {
        openRanks(4, null, 2, rank -> rank, rank -> shm);
        double[] state = randomState(15);
        ReplicaRef ref = replicas.get(0).write(4, 0, state);
        planes.get(0).closeAbruptly(); // a SIGKILLed writer deletes nothing
        live.remove(0);

        replicas.get(3).dropOrphans(List.of(0), 4);

        assertThat(filesUnder(shm)).as("a survivor deleted the dead writer's files").isEmpty();
        assertThat(RawBits.of(replicas.get(3).read(ref))).isEqualTo(RawBits.of(state));
    }

    private static List<String> filesUnder(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).sorted().toList();
        }
    }

    /*
     *   one JVM:  0 --lends its array--> 1, 2     no copy: both keep the writer's array until they drop it
     */
    @Test
    void when_ranksShareTheJvm_then_theHoldersKeepTheWritersArrayItselfUntilTheyDropIt() throws Exception {
        openRanks(3, "replicas-" + System.nanoTime(), 2);
        double[] state = randomState(2);
        boolean[] free = new boolean[1];

        ReplicaRef ref = replicas.get(0).write(8, 0, state);
        LentArrays.whenFree(state, () -> free[0] = true); // the writer's checkpoint dropped it

        assertThat(ref.holders()).containsExactly(1, 2);
        assertThat(replicas.get(0).lentCopies()).isEqualTo(2);
        assertThat(LentArrays.holders(state)).isEqualTo(2);
        assertThat(free[0]).as("not to be written while a holder keeps it").isFalse();
        assertThat(replicas.get(1).pooledSlices()).as("no slice taken for it").isZero();
        assertThat(replicas.get(1).heldDoubles()).isEqualTo(STATE_DOUBLES);
        double[] read = replicas.get(2).read(ref);
        assertThat(read).as("a reader gets a copy, never the writer's array").isNotSameAs(state);
        assertThat(RawBits.of(read)).isEqualTo(RawBits.of(randomState(2)));
        assertThat(RawBits.of(replicas.get(1).read(ref))).isEqualTo(RawBits.of(randomState(2)));

        replicas.get(0).delete(ref);

        await().atMost(Duration.ofSeconds(10)).until(() -> free[0]);
        assertThat(LentArrays.holders(state)).isZero();
        assertThat(replicas.get(1).heldCopies()).isZero();
    }

    @Test
    void when_aHolderInTheJvmIsKilled_then_itGivesTheWritersArrayBackAndTheOtherStillServesIt() throws Exception {
        openRanks(4, "replicas-" + System.nanoTime(), 2);
        double[] state = randomState(12);
        ReplicaRef ref = replicas.get(0).write(8, 0, state);
        boolean[] free = new boolean[1];
        LentArrays.whenFree(state, () -> free[0] = true);

        live.remove(1);
        replicas.get(1).close();
        planes.get(1).closeAbruptly();

        assertThat(LentArrays.holders(state)).isEqualTo(1);
        assertThat(free[0]).isFalse();
        assertThat(RawBits.of(replicas.get(3).read(ref))).isEqualTo(RawBits.of(randomState(12)));
        replicas.get(2).close();
        assertThat(free[0]).as("no holder left").isTrue();
    }

    @Test
    void when_aHolderInTheJvmKeepsTwoCopiesOfAPartition_then_theOldestGoesBackToItsWriter() throws Exception {
        openRanks(2, "replicas-" + System.nanoTime(), 1);
        double[] first = randomState(13);
        double[] second = randomState(14);
        double[] third = randomState(15);
        replicas.get(0).write(4, 0, first);
        replicas.get(0).write(8, 0, second);

        replicas.get(0).write(12, 0, third);

        assertThat(LentArrays.holders(first)).isZero();
        assertThat(LentArrays.holders(second)).isEqualTo(1);
        assertThat(LentArrays.holders(third)).isEqualTo(1);
        assertThat(replicas.get(1).heldCopies()).isEqualTo(2);
    }

    @Test
    void when_aHolderIsDead_then_theNextLiveRankTakesTheCopyAndReadsUseTheOtherHolder() throws Exception {
        openRanks(4, null, 2);
        double[] state = randomState(3);
        planes.get(1).closeAbruptly();
        // not yet known dead: the send or the wait for its acknowledgement fails, and the next rank is asked

        ReplicaRef ref = replicas.get(0).write(4, 0, state);

        assertThat(ref.holders()).containsExactly(2, 3);
        live.remove(3);
        assertThat(replicas.get(0).intact(ref)).isFalse();
        assertThat(replicas.get(0).holds(ref)).isTrue();
        assertThat(RawBits.of(replicas.get(0).read(ref))).isEqualTo(RawBits.of(state));
    }

    @Test
    void when_aRankHoldsACopyOfAPartitionItNowOwns_then_theCopiesAreNotIntact() throws Exception {
        openRanks(3, null, 2);

        assertThat(replicas.get(1).intact(ReplicaRef.heldBy(4, 0, List.of(1, 2)))).as("rank 1 adopted partition 0").isFalse();
        assertThat(replicas.get(0).intact(ReplicaRef.heldBy(4, 0, List.of(1, 2)))).isTrue();
    }

    @Test
    void when_aHolderSharesTheHostOfAnAdopterWithAnotherHostFree_then_theCopiesAreNotIntact() throws Exception {
        // host 0: ranks 0 1    host 1: ranks 2 3
        // rank 2 adopted partition 0, whose copies rank 0 had placed on 3 and 1: one host's death now takes
        // the owner and a copy; rank 0 on host 0 is free to hold one instead
        openRanks(4, null, 2, rank -> rank / 2);

        assertThat(replicas.get(2).intact(ReplicaRef.heldBy(4, 0, List.of(3, 1)))).isFalse();
        assertThat(replicas.get(2).intact(ReplicaRef.heldBy(4, 0, List.of(0, 1)))).as("both on the other host").isTrue();
    }

    @Test
    void when_everyRankIsOnOneHost_then_holdersOnThatHostAreIntact() throws Exception {
        openRanks(3, null, 2, rank -> 0);

        assertThat(replicas.get(0).intact(ReplicaRef.heldBy(4, 0, List.of(1, 2)))).isTrue();
    }

    @Test
    void when_everyHolderIsDead_then_noCopyIsLeft() throws Exception {
        openRanks(3, null, 2);
        ReplicaRef ref = replicas.get(0).write(4, 0, randomState(4));
        live.remove(1);
        live.remove(2);

        assertThat(replicas.get(0).holds(ref)).isFalse();
        assertThat(replicas.get(0).read(ref)).isNull();
    }

    @Test
    void when_theWriterDeletesACopy_then_itsHoldersDropItAndAReadFindsNone() throws Exception {
        openRanks(3, null, 2);
        ReplicaRef ref = replicas.get(0).write(4, 0, randomState(5));

        replicas.get(0).delete(ref);

        await().atMost(Duration.ofSeconds(10)).until(() -> replicas.get(1).heldCopies() + replicas.get(2).heldCopies() == 0);
        assertThat(replicas.get(0).read(ref)).as("the holders answer that they hold none").isNull();
    }

    @Test
    void when_aWriterNeverDeletes_then_aHolderKeepsOnlyTheTwoNewestCopiesOfAPartition() throws Exception {
        openRanks(2, null, 1);
        double[] newest = randomState(8);
        replicas.get(0).write(4, 0, randomState(6));
        replicas.get(0).write(8, 0, randomState(7));
        ReplicaRef ref = replicas.get(0).write(12, 0, newest);
        replicas.get(0).write(12, 1, new double[0]);

        assertThat(replicas.get(1).heldCopies()).isEqualTo(3);
        assertThat(replicas.get(1).heldDoubles()).isEqualTo(2L * STATE_DOUBLES);
        assertThat(replicas.get(0).read(ReplicaRef.heldBy(4, 0, List.of(1)))).as("the oldest copy is gone").isNull();
        assertThat(RawBits.of(replicas.get(0).read(ref))).isEqualTo(RawBits.of(newest));
        assertThat(replicas.get(0).read(ReplicaRef.heldBy(12, 1, List.of(1)))).isEmpty();
    }

    @Test
    void when_aCopyIsDropped_then_theNextCopyArrivesInItsArraysBitForBit() throws Exception {
        openRanks(2, null, 1);
        ReplicaRef first = replicas.get(0).write(4, 0, randomState(9));
        replicas.get(0).delete(first);
        await().atMost(Duration.ofSeconds(10)).until(() -> replicas.get(1).pooledSlices() == 2);
        double[] second = randomState(10);

        ReplicaRef ref = replicas.get(0).write(8, 0, second);

        assertThat(replicas.get(1).pooledSlices()).as("both full slices reused").isZero();
        assertThat(RawBits.of(replicas.get(0).read(ref))).isEqualTo(RawBits.of(second));
    }

    @Test
    void when_aCopyWasSentToAReader_then_itsArraysAreNeverRecycled() throws Exception {
        openRanks(3, "replicas-" + System.nanoTime(), 1);
        ReplicaRef ref = replicas.get(0).write(4, 0, randomState(11));
        double[] read = replicas.get(2).read(ref);

        replicas.get(0).delete(ref);

        await().atMost(Duration.ofSeconds(10)).until(() -> replicas.get(1).heldCopies() == 0);
        assertThat(replicas.get(1).pooledSlices()).isZero();
        assertThat(RawBits.of(read)).isEqualTo(RawBits.of(randomState(11)));
    }

    @Test
    void when_aLocatorIsEncoded_then_itDecodesToTheSameRef() {
        ReplicaRef inMap = ReplicaRef.inMap(12, 3, "12/3@k7");
        ReplicaRef held = ReplicaRef.heldBy(8, 5, List.of(2, 6));

        assertThat(ReplicaRef.fromBytes(inMap.toBytes())).isEqualTo(inMap);
        assertThat(ReplicaRef.fromBytes(held.toBytes())).isEqualTo(held);
    }

    @Test
    void when_aCopyIsPlacedAgainOnAnOldHolder_then_deletingTheOldRefSparesThatHolder() {
        ReplicaRef old = ReplicaRef.heldBy(8, 5, List.of(2, 4));

        assertThat(old.withoutCopiesOf(ReplicaRef.heldBy(8, 5, List.of(3, 4))).holders()).containsExactly(2);
        assertThat(old.withoutCopiesOf(ReplicaRef.heldBy(12, 5, List.of(3, 4)))).as("another checkpoint").isEqualTo(old);
        assertThat(ReplicaRef.inMap(8, 5, "8/5@k").withoutCopiesOf(old)).isEqualTo(ReplicaRef.inMap(8, 5, "8/5@k"));
    }

    private static double[] randomState(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] state = new double[STATE_DOUBLES];
        for (int i = 0; i < state.length; i++) {
            state[i] = random.nextDouble();
        }
        return state;
    }
}
