package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.hazelcast.cluster.ClusterState;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.assertj.core.data.Percentage;
import org.dfr.jacobi.BlockDecomposition;
import org.dfr.jacobi.InThreadPartitionRunner;
import org.dfr.jacobi.JacobiKernel;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.jacobi.SequentialJacobi;
import org.dfr.harness.RunConfig;
import org.dfr.harness.Runner;
import org.dfr.harness.RunReport;
import org.dfr.runtime.BackupRepair;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.EmbeddedCluster;
import org.dfr.runtime.FailureHandler;
import org.dfr.runtime.HazelcastConfigs;
import org.dfr.runtime.IterationHook;
import org.dfr.runtime.PartitionKernel;
import org.dfr.runtime.PromotionRetry;
import org.dfr.runtime.RankContext;
import org.dfr.runtime.RecoveryView;
import org.dfr.runtime.RunFailedException;
import org.dfr.runtime.RunOutcome;
import org.dfr.runtime.RunSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/** The failure-free runtime in embedded mode: exact digests, surviving checkpoints, nothing left behind. */
@Isolated // looks at every Hazelcast member of this JVM
class RuntimeIT {

    @AfterEach
    void nothingOutlivesARun() {
        assertThat(Hazelcast.getAllHazelcastInstances()).as("Hazelcast members left running").isEmpty();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(Thread.getAllStackTraces().keySet().stream()
                        .filter(Thread::isAlive)
                        .map(Thread::getName)
                        .filter(n -> n.startsWith("dfr-") || n.startsWith("hz."))
                        .collect(Collectors.toList()))
                        .as("threads of a finished run").isEmpty());
    }

    @ParameterizedTest(name = "{0}x{1} ranks, {2}x{3} cells")
    @CsvSource({"1,1,37,29", "2,1,37,29", "2,4,37,29", "3,2,37,29", "4,4,37,29", "3,2,64,48"})
    void when_layoutRuns_then_digestEqualsSequential(int px, int py, int nx, int ny) {
        RunReport report = new Runner().run(RunConfig.of(px, py, nx, ny, 9, 4));

        SequentialJacobi seq = new SequentialJacobi(new JacobiProblem(nx, ny));
        double residual = seq.iterate(9);
        assertThat(report.fieldSha256()).isEqualTo(seq.digest());
        assertThat(report.finalResidual()).isCloseTo(residual, Percentage.withPercentage(1e-9));
        assertThat(report.ranks()).hasSize(px * py)
                .allSatisfy(r -> assertThat(r.kernelUpdates()).isEqualTo(9));
    }

    @Test
    void when_memberIsStoppedAbruptly_then_everyPartitionOfTheLastCommittedCheckpointIsReadableAndExact() {
        JacobiProblem problem = new JacobiProblem(37, 29);
        BlockDecomposition dec = new BlockDecomposition(problem, 2, 2);
        JacobiKernel kernel = new JacobiKernel(dec);
        RunSpec spec = new RunSpec(4, 8, 3, 1, 0);
        // reference state of every partition at iteration 6, the last checkpoint before the kill at 8
        InThreadPartitionRunner reference = new InThreadPartitionRunner(new JacobiKernel(dec));
        reference.iterate(6);
        Map<Integer, double[]> found = new ConcurrentHashMap<>();
        Map<Integer, Integer> committedSeen = new ConcurrentHashMap<>();
        CountDownLatch inspected = new CountDownLatch(1);
        IterationHook killRank3 = new IterationHook() {
            @Override
            public boolean mayStartEarly(RankContext rank, int iteration) {
                // rank 3 dies once the reduction of 7 completed everywhere: it commits checkpoint 6 (lag 1)
                return !(rank.rankId() == 3 && iteration == 8);
            }

            @Override
            public void beforeIteration(RankContext rank, int iteration) {
                if (rank.rankId() == 3 && iteration == 8) {
                    throw rank.killAbruptly();
                }
            }
        };
        FailureHandler readCheckpoints = new FailureHandler() {
            @Override
            public int recover(RecoveryView rank, RuntimeException cause) {
                if (rank.rankId() == 0) {
                    committedSeen.put(rank.rankId(), rank.committedCheckpoint());
                    for (int p = 0; p < 4; p++) {
                        double[] copy = rank.checkpoints().replicated(rank.committedCheckpoint(), p);
                        if (copy != null) {
                            found.put(p, copy);
                        }
                    }
                    inspected.countDown();
                } else {
                    // the run ends at the first rank that gives up: let rank 0 read first
                    try {
                        inspected.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                throw new RunFailedException("checkpoint inspected");
            }

            @Override
            public int awaitWork(RecoveryView spare) {
                return spare.awaitRunEnd();
            }
        };

        assertThatThrownBy(() -> new EmbeddedCluster(spec, kernel, new ClusterSettings(), readCheckpoints, killRank3).run())
                .isInstanceOf(RunFailedException.class);

        assertThat(committedSeen.get(0)).isEqualTo(6);
        assertThat(found.keySet()).containsExactlyInAnyOrder(0, 1, 2, 3);
        for (int p = 0; p < 4; p++) {
            assertThat(interior(dec, p, found.get(p))).as("partition %d", p)
                    .isEqualTo(interior(dec, p, reference.state(p)));
        }
    }

    /*
     * A rank starts iteration i (its hook, its halos) while it waits for the sum of i-1, unless the
     * hook says no: then it starts i only once i-1 completed. Rank 2 starts iteration 4 early, rank 1
     * may not; the field is the same either way.
     *
     *   0 1
     *   2 3
     */
    @Test
    void when_theHookForbidsAnEarlyStart_then_thatRankStartsOnlyAfterThePreviousIterationCompleted() {
        BlockDecomposition dec = new BlockDecomposition(new JacobiProblem(37, 29), 2, 2);
        RunSpec spec = new RunSpec(4, 8, 3, 1, 0);
        Map<Integer, Integer> liveAtStartOf4 = new ConcurrentHashMap<>();
        IterationHook rank1StartsLate = new IterationHook() {
            @Override
            public boolean mayStartEarly(RankContext rank, int iteration) {
                return !(rank.rankId() == 1 && iteration == 4);
            }

            @Override
            public void beforeIteration(RankContext rank, int iteration) {
                if (iteration == 4) {
                    liveAtStartOf4.put(rank.rankId(), rank.liveIteration());
                }
            }
        };
        RunOutcome outcome = new EmbeddedCluster(spec, new JacobiKernel(dec), new ClusterSettings(),
                noRecoveryExpected(), rank1StartsLate).run();

        assertThat(liveAtStartOf4).containsEntry(1, 3).containsEntry(2, 2);
        assertSameAsInOneThread(dec, 8, outcome);
    }

    /*
     * The end of the run. Every rank hands its final states to the root (rank 0) and sends its end-of-run
     * notice to the others; rank 3 dies right after its notices went out, and rank 2 takes the others'
     * notices only once it handled rank 3's loss. Nothing is lost (rank 3's result is with the root): rank 2 must
     * finish, not start a recovery alone after the others ended.
     *
     *   0 1        rank 3: END notices sent --> killed
     *   2 3        rank 2: END notices sent --> waits until it handled rank 3's loss --> takes the notices
     */
    @Test
    void when_aRankDiesAfterItsEndNotices_then_aRankStillAtTheEndFinishesWithoutARecovery() {
        BlockDecomposition dec = new BlockDecomposition(new JacobiProblem(37, 29), 2, 2);
        RunSpec spec = new RunSpec(4, 8, 3, 1, 0);
        IterationHook rank3DiesAtTheEnd = new IterationHook() {
            @Override
            public void afterEndNoticesSent(RankContext rank) {
                if (rank.rankId() == 3) {
                    throw rank.killAbruptly();
                }
                if (rank.rankId() == 2) {
                    await().atMost(Duration.ofSeconds(30)).until(() -> rank.hasHandledLossOf(3));
                }
            }
        };
        RunOutcome outcome = new EmbeddedCluster(spec, new JacobiKernel(dec), new ClusterSettings(),
                noRecoveryExpected(), rank3DiesAtTheEnd).run();

        assertSameAsInOneThread(dec, 8, outcome);
    }

    /*
     * A kernel whose update never returns cannot be stopped in this JVM (a thread cannot be killed): when another
     * rank fails the run, the run still ends, after rankStopMillis, naming the rank that did not stop and its line.
     *
     *   0 1        rank 1: busy for ever at the start of iteration 3 (deaf to interrupts)
     *   2 3        rank 2: fails the run at the start of iteration 3
     */
    @Test
    void when_aRanksThreadNeverReturns_then_theFailedRunEndsNamingThatRankAndItsLine() {
        BlockDecomposition dec = new BlockDecomposition(new JacobiProblem(37, 29), 2, 2);
        RunSpec spec = new RunSpec(4, 8, 3, 1, 0);
        AtomicBoolean released = new AtomicBoolean();
        CountDownLatch rank1Busy = new CountDownLatch(1);
        IterationHook rank1NeverReturns = new IterationHook() {
            @Override
            public void beforeIteration(RankContext rank, int iteration) {
                if (iteration == 3 && rank.rankId() == 1) {
                    rank1Busy.countDown();
                    while (!released.get()) {
                        LockSupport.parkNanos(1_000_000);
                    }
                }
                if (iteration == 3 && rank.rankId() == 2) {
                    // only once rank 1 is in its endless loop: failing earlier would let it end normally
                    try {
                        rank1Busy.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    throw new RunFailedException("rank 2 gives up");
                }
            }
        };
        try {
            assertThatThrownBy(() -> new EmbeddedCluster(spec, new JacobiKernel(dec),
                    new ClusterSettings().rankStopMillis(2000), noRecoveryExpected(), rank1NeverReturns).run())
                    .isInstanceOf(RunFailedException.class)
                    .satisfies(e -> assertThat(((RunFailedException) e).kind()).isEqualTo(RunFailedException.Kind.RANK_STUCK))
                    .hasMessageContaining("rank 2 gives up")
                    .hasMessageContaining("rank 1 (its thread is at org.dfr.tests.RuntimeIT$")
                    .hasMessageContaining(".beforeIteration(RuntimeIT.java:")
                    .hasMessageContaining("did not stop within 2000 ms after it");
        } finally {
            released.set(true);
        }
    }

    /** A kernel's own exception ends the run in one line that names it and the kernel's line that threw it. */
    @Test
    void when_theKernelThrowsInUpdate_then_theRunFailsNamingTheExceptionAndTheKernelsLine() {
        BlockDecomposition dec = new BlockDecomposition(new JacobiProblem(37, 29), 2, 2);
        RunSpec spec = new RunSpec(4, 8, 3, 1, 0);
        JacobiKernel jacobi = new JacobiKernel(dec);
        PartitionKernel throwsAtIteration3OfPartition2 = new DelegatingKernel(jacobi) {
            private final AtomicInteger calls = new AtomicInteger();

            @Override
            public double update(int partition, double[] in, double[] out) {
                if (partition == 2 && calls.incrementAndGet() == 3) {
                    throw new IllegalStateException("no halo for partition 9");
                }
                return jacobi.update(partition, in, out);
            }
        };

        assertThatThrownBy(() -> new EmbeddedCluster(spec, throwsAtIteration3OfPartition2, new ClusterSettings(),
                noRecoveryExpected(), IterationHook.NONE).run())
                .isInstanceOf(RunFailedException.class)
                .hasMessageContaining("java.lang.IllegalStateException: no halo for partition 9 at org.dfr.tests.RuntimeIT$")
                .hasMessageContaining(".update(RuntimeIT.java:");
    }

    /** A failure handler that fails the run as soon as any rank starts a recovery. */
    private static FailureHandler noRecoveryExpected() {
        return new FailureHandler() {
            @Override
            public int recover(RecoveryView rank, RuntimeException cause) {
                throw new RunFailedException("rank " + rank.rankId() + " started a recovery: " + cause.getMessage());
            }

            @Override
            public int awaitWork(RecoveryView spare) {
                return spare.awaitRunEnd();
            }
        };
    }

    /** Every partition of {@code outcome} is, bit for bit, what {@code iterations} in one thread compute. */
    private static void assertSameAsInOneThread(BlockDecomposition dec, int iterations, RunOutcome outcome) {
        InThreadPartitionRunner reference = new InThreadPartitionRunner(new JacobiKernel(dec));
        reference.iterate(iterations);
        for (int p = 0; p < dec.partitionCount(); p++) {
            assertThat(interior(dec, p, outcome.finalStates().get(p))).as("partition %d", p)
                    .isEqualTo(interior(dec, p, reference.state(p)));
        }
    }

    /*
     * Three members on three hosts, migrations held as during a run. Member 2 is terminated; at once,
     * every key of the checkpoint map is read through PromotionRetry from member 0: keys owned by the
     * dead member have no owner until Hazelcast promotes a backup, and without the retry their reads
     * fail with "Partition owner is null" (and size() with "Partitions can't be assigned").
     */
    @Test
    void when_ownerDiesWhileMigrationsAreHeld_then_everyKeyStaysReadable() {
        List<HazelcastInstance> members = new ArrayList<>();
        try {
            HazelcastInstance first = HeldMigrationsCluster.start(3, members);
            IMap<String, byte[]> map = first.getMap(HazelcastConfigs.CHECKPOINT_MAP);
            int keys = 500;
            for (int k = 0; k < keys; k++) {
                map.set("0/" + k, new byte[] {(byte) k, (byte) (k >> 8)});
            }
            long ownedByVictim = IntStream.range(0, keys)
                    .filter(k -> first.getPartitionService().getPartition("0/" + k).getOwner()
                            .equals(members.get(2).getCluster().getLocalMember()))
                    .count();
            assertThat(ownedByVictim).as("keys owned by the member that dies").isPositive();

            members.get(2).getLifecycleService().terminate();
            PromotionRetry retry = new PromotionRetry(first, PromotionRetry.DEFAULT_MAX_WAIT_MILLIS);
            // an operation on every partition meets the ownerless ones too, with another message
            assertThat(retry.call(map::size)).as("entries right after the loss").isEqualTo(keys);
            for (int k = 0; k < keys; k++) {
                String key = "0/" + k;
                assertThat(retry.call(() -> map.get(key))).as(key).containsExactly((byte) k, (byte) (k >> 8));
            }
            assertThat(first.getCluster().getClusterState()).isEqualTo(ClusterState.NO_MIGRATION);
            await().atMost(Duration.ofSeconds(30)).until(() -> first.getPartitionService().getPartitions().stream()
                    .allMatch(p -> p.getOwner() != null && first.getCluster().getMembers().contains(p.getOwner())));
        } finally {
            members.forEach(m -> m.getLifecycleService().terminate());
        }
    }

    /*
     * Four members on four hosts, checkpoints with two backups, migrations held. A loss leaves
     * entries with fewer backups (Hazelcast promotes but does not re-create copies in this state);
     * BackupRepair brings every entry back to two backups and holds migrations again.
     */
    @Test
    void when_backupsAreRepairedAfterALoss_then_everyEntryHasItsBackupsAgainAndMigrationsAreHeld() {
        List<HazelcastInstance> members = new ArrayList<>();
        try {
            HazelcastInstance first = HeldMigrationsCluster.start(4, members);
            IMap<String, byte[]> map = first.getMap(HazelcastConfigs.CHECKPOINT_MAP);
            PromotionRetry retry = new PromotionRetry(first, PromotionRetry.DEFAULT_MAX_WAIT_MILLIS);
            int keys = 400;
            for (int k = 0; k < keys; k++) {
                map.set("0/" + k, new byte[] {(byte) k});
            }
            long expected = (long) keys * ClusterSettings.DEFAULT_CHECKPOINT_BACKUPS;
            assertThat(backupEntries(members)).isEqualTo(expected);

            members.remove(3).getLifecycleService().terminate();
            for (int k = 0; k < keys; k++) {
                String key = "1/" + k;
                byte[] value = {(byte) k};
                retry.run(() -> map.set(key, value));
            }
            assertThat(backupEntries(members)).as("backups after a loss, migrations held")
                    .isLessThan(2 * expected);

            BackupRepair repair = new BackupRepair(first, "dfr-test-backup-repair");
            assertThat(repair.repairNow(60_000)).isTrue();

            assertThat(first.getCluster().getClusterState()).isEqualTo(ClusterState.NO_MIGRATION);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(backupEntries(members)).isEqualTo(2 * expected));
        } finally {
            members.forEach(m -> m.getLifecycleService().terminate());
        }
    }

    /**
     * The backup entries of the checkpoint map over {@code members}, each member's counted on its own thread: while a
     * replica has no holder (migrations held after a loss) Hazelcast's local map statistics wait about 5 s for it on
     * every member, and one after the other that was 16 s of this class's time.
     */
    private static long backupEntries(List<HazelcastInstance> members) {
        ExecutorService counters = Executors.newFixedThreadPool(members.size());
        try {
            List<CompletableFuture<Long>> counts = members.stream()
                    .map(m -> CompletableFuture.supplyAsync(() ->
                            m.getMap(HazelcastConfigs.CHECKPOINT_MAP).getLocalMapStats().getBackupEntryCount(), counters))
                    .toList();
            return counts.stream().mapToLong(CompletableFuture::join).sum();
        } finally {
            counters.shutdownNow();
        }
    }

    private static List<Double> interior(BlockDecomposition dec, int p, double[] state) {
        BlockDecomposition.Block b = dec.block(p);
        int stride = b.width() + 2;
        Double[] out = new Double[b.width() * b.height()];
        for (int y = 1; y <= b.height(); y++) {
            for (int x = 1; x <= b.width(); x++) {
                out[(y - 1) * b.width() + (x - 1)] = state[y * stride + x];
            }
        }
        return Arrays.asList(out);
    }

}
