package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.dfr.harness.Mode;
import org.dfr.harness.PooledRankMain;
import org.dfr.harness.ProcessLauncher;
import org.dfr.harness.RankJvmPool;
import org.dfr.harness.RankProcessListener;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.harness.RunReports;
import org.dfr.runtime.RunFailedException;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.jacobi.SequentialJacobi;
import org.dfr.recovery.FaultPlan;
import org.dfr.runtime.ClusterSettings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The pool of warm rank JVMs ({@code dfr pool start}, {@code dfr run --pool}): real JVMs started ahead, claimed by
 * a processes-mode run one per rank, each serving that run only.
 *
 * <pre>
 *   pool dir:  slot-P1.json ... slot-P9.json   (9 warm JVMs, each waiting for one claim)
 *   run A (2x2) claims 4 ──► ranks 0..3 run in P-JVMs ──► they exit with the run
 *   run B (2x2, kill 1@4) claims 4 ──► rank 1's JVM is SIGKILLed, the run recovers
 * </pre>
 */
@Isolated // starts rank JVMs and a pool of them
class RankJvmPoolIT {

    private static final int NX = 37;
    private static final int NY = 29;
    private static final int ITERATIONS = 10;
    /** Two runs of 4 ranks, and one JVM left for the test of a wrong claim whatever the tests' order. */
    private static final int POOL_SIZE = 9;
    private static final long POOL_HEAP_MIB = 256;
    /** C1 only and one warm-up run: the pool's JVMs are ready sooner in a test; the runs' JVMs must match them. */
    private static final List<String> JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1",
            "-D" + PooledRankMain.WARM_UP_RUNS_PROPERTY + "=1");

    @TempDir
    static Path poolDir;

    private static RankJvmPool pool;
    private static List<Long> warmPids;
    private static String failureFreeDigest;

    private final Map<Integer, ProcessHandle> ranks = new ConcurrentHashMap<>();
    private final Map<Integer, Integer> exits = new ConcurrentHashMap<>();

    @BeforeAll
    static void startThePool() throws InterruptedException {
        SequentialJacobi reference = new SequentialJacobi(new JacobiProblem(NX, NY));
        reference.iterate(ITERATIONS);
        failureFreeDigest = reference.digest();

        pool = new RankJvmPool(poolDir.resolve("pool"));
        List<String> command = launcher().pooledJvmCommand(POOL_HEAP_MIB);
        List<ProcessHandle> started = pool.start(command, POOL_HEAP_MIB, POOL_SIZE, POOL_SIZE, 600);
        assertThat(pool.awaitReady(POOL_SIZE, started, 150_000, n -> { }))
                .as("the pool's JVMs are ready; their log: %s", readLog()).isTrue();
        warmPids = pool.readyPids();
    }

    @AfterAll
    static void stopThePool() throws InterruptedException {
        pool.stop();
        await().atMost(Duration.ofSeconds(10)).until(() -> warmPids.stream()
                .noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)));
    }

    @AfterEach
    void noRankJvmOutlivesItsRun() {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(ranks.values())
                .noneMatch(ProcessHandle::isAlive));
    }

    private static ProcessLauncher launcher() {
        return new ProcessLauncher(new ClusterSettings()).jvmOptions(JVM_OPTIONS).runTimeoutMillis(120_000);
    }

    private ProcessLauncher listening(ProcessLauncher launcher) {
        return launcher.listener(new RankProcessListener() {
            @Override
            public void started(int rank, ProcessHandle process) {
                ranks.put(rank, process);
            }

            @Override
            public void exited(int rank, int exitCode) {
                exits.put(rank, exitCode);
            }
        });
    }

    private static String readLog() {
        try {
            return Files.readString(pool.directory().resolve("pool.log"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Test
    void when_aRunClaimsThePoolsJvms_then_everyRankRunsInOneAndTheDigestIsTheSequentialOne() {
        List<Long> before = pool.readyPids();

        RunReport report = listening(launcher()).rankPool(pool)
                .run(RunConfig.of(2, 2, NX, NY, ITERATIONS, 4).withMode(Mode.PROCESSES));

        assertThat(report.fieldSha256()).isEqualTo(failureFreeDigest);
        assertThat(ranks).hasSize(4);
        assertThat(ranks.values()).extracting(ProcessHandle::pid).allMatch(before::contains);
        assertThat(pool.readyPids()).hasSize(before.size() - 4).doesNotContainAnyElementsOf(
                ranks.values().stream().map(ProcessHandle::pid).toList());
        assertThat(exits).containsOnlyKeys(0, 1, 2, 3).allSatisfy((rank, code) -> assertThat(code).isZero());
    }

    @Test
    void when_aPooledRankIsSigkilledAtIteration4_then_theExitCountsAsTheKillAndTheRunRecoversBitExact() {
        List<Long> before = pool.readyPids();
        RunConfig config = RunConfig.of(2, 2, NX, NY, ITERATIONS, 10).withMode(Mode.PROCESSES)
                .withFaults(List.of(FaultPlan.parseKill("1@4")), List.of(), Set.of());

        RunReport report = listening(launcher()).rankPool(pool).run(config);

        assertThat(report.fieldSha256()).isEqualTo(failureFreeDigest);
        assertThat(ranks.get(1).pid()).isIn(before);
        assertThat(exits).containsEntry(1, ProcessLauncher.SIGKILL_EXIT_CODE);
        assertThat(report.recoveries()).singleElement().satisfies(r -> {
            assertThat(r.lostPartitions()).containsExactly(1);
            assertThat(r.checkpointIteration()).isZero();
        });
    }

    @Test
    void when_theRunsJvmsWouldBeStartedOtherwise_then_itStartsFreshOnesSaysWhyAndLeavesThePoolAlone() {
        List<Long> before = pool.readyPids();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        ProcessLauncher other = new ProcessLauncher(new ClusterSettings()).jvmOptions(List.of("-XX:TieredStopAtLevel=1"))
                .runTimeoutMillis(120_000).log(new PrintStream(log, true, StandardCharsets.UTF_8));

        RunReport report = listening(other).rankPool(pool)
                .run(RunConfig.of(2, 1, NX, NY, ITERATIONS, 4).withMode(Mode.PROCESSES));

        assertThat(report.fieldSha256()).isEqualTo(failureFreeDigest);
        assertThat(ranks.values()).extracting(ProcessHandle::pid).noneMatch(before::contains);
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("cannot serve this run (fresh JVMs)")
                .contains("the pool only: [-D" + PooledRankMain.WARM_UP_RUNS_PROPERTY + "=1]");
        assertThat(pool.readyPids()).containsExactlyInAnyOrderElementsOf(before);
    }

    @Test
    void when_aClaimHasTheWrongToken_then_theJvmRefusesItAndStaysReady() throws IOException {
        List<Long> before = pool.readyPids();
        Path slot = pool.directory().resolve("slot-" + before.get(0) + ".json");
        JsonNode json = RunReports.JSON.readTree(slot.toFile());

        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), json.get("port").asInt())) {
            socket.getOutputStream().write(("not-the-token\n{\"rank\":0,\"arguments\":[\"--help\"],\"exitFile\":\"/tmp/x\"}\n")
                    .getBytes(StandardCharsets.UTF_8));
            InputStream in = socket.getInputStream();
            assertThat(in.read()).as("the JVM closes the connection without a word").isEqualTo(-1);
        }

        assertThat(pool.readyPids()).containsExactlyInAnyOrderElementsOf(before);
        assertThat(ProcessHandle.of(before.get(0)).map(ProcessHandle::isAlive)).contains(true);
    }

    @Test
    void when_aPooledJvmIsNotClaimedWithinItsIdleTime_then_itExitsAndItsFileIsGone(@TempDir Path dir)
            throws InterruptedException, IOException {
        RankJvmPool idle = new RankJvmPool(dir);
        List<ProcessHandle> started = idle.start(launcher().pooledJvmCommand(POOL_HEAP_MIB), POOL_HEAP_MIB, 1, 1, 2);
        List<Integer> readyCounts = new ArrayList<>();

        boolean ready = idle.awaitReady(1, started, 120_000, readyCounts::add);

        assertThat(ready).isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() -> !started.get(0).isAlive());
        assertThat(idle.readyPids()).isEmpty();
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString())).doesNotContain("slot-" + started.get(0).pid()
                    + ".json", "warming-" + started.get(0).pid());
        }
    }

    @Test
    void when_thePoolIsStopped_then_itsUnclaimedJvmsExit(@TempDir Path dir) throws InterruptedException {
        RankJvmPool stopped = new RankJvmPool(dir);
        List<ProcessHandle> started = stopped.start(launcher().pooledJvmCommand(POOL_HEAP_MIB), POOL_HEAP_MIB, 2, 2,
                600);

        // both are JVMs by now (a few milliseconds after the start); they may still warm up: stopped too
        await().atMost(Duration.ofSeconds(10)).until(() -> stopped.unclaimed().size() == 2);
        assertThat(stopped.stop()).isEqualTo(2);

        await().atMost(Duration.ofSeconds(10)).until(() -> started.stream().noneMatch(ProcessHandle::isAlive));
        assertThat(stopped.readyPids()).isEmpty();
    }

    /**
     * A rank whose heap runs out exits with the JVM's code 3 ({@code -XX:+ExitOnOutOfMemoryError}): a fresh rank JVM's
     * parent reads it; a pooled one's exit code is left for the launcher by its {@code -XX:OnOutOfMemoryError} file.
     * Before, the pooled rank counted as killed (the run tried to recover) and a fresh one read as "lost its launcher".
     *
     * <pre>
     *   JVM options -Xmx48m (a later -Xmx wins over the launcher's): a 2048x2048 block needs 64 MiB at once
     *   fresh:   run 1x2 ──► rank exits 3 ──► "exited with code 3 (out of memory ..."
     *   pooled:  pool of 2 (manifest heap 4096 MiB, so the run may claim them) ──► same line, its file deleted
     * </pre>
     */
    @Test
    void when_aRankRunsOutOfMemory_then_theRunFailsSayingSoFreshOrPooled(@TempDir Path dir) throws InterruptedException {
        List<String> smallHeap = new ArrayList<>(JVM_OPTIONS);
        smallHeap.add("-Xmx48m");
        RunConfig tooLarge = RunConfig.of(1, 2, 2048, 4096, ITERATIONS, 4).withMode(Mode.PROCESSES);

        assertThatThrownBy(() -> listening(new ProcessLauncher(new ClusterSettings()).jvmOptions(smallHeap)
                .runTimeoutMillis(120_000)).run(tooLarge))
                .isInstanceOf(RunFailedException.class).hasMessageContaining("exited with code 3 (out of memory");
        assertThat(exits).containsValue(3);

        RankJvmPool tiny = new RankJvmPool(dir.resolve("tiny"));
        ProcessLauncher launcher = new ProcessLauncher(new ClusterSettings()).jvmOptions(smallHeap)
                .runTimeoutMillis(120_000);
        List<ProcessHandle> started = tiny.start(launcher.pooledJvmCommand(4096), 4096, 2, 2, 600);
        try {
            assertThat(tiny.awaitReady(2, started, 150_000, n -> { })).as("the small pool's JVMs are ready").isTrue();
            List<Long> pooled = tiny.readyPids();
            ranks.clear();
            exits.clear();

            assertThatThrownBy(() -> listening(launcher).rankPool(tiny).run(tooLarge))
                    .isInstanceOf(RunFailedException.class).hasMessageContaining("exited with code 3 (out of memory");
            assertThat(ranks.values()).extracting(ProcessHandle::pid).containsAnyElementsOf(pooled);
            assertThat(exits).containsValue(3);
            try (var files = Files.list(tiny.directory())) {
                assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.startsWith("out-of-memory-"));
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        } finally {
            tiny.stop();
        }
    }

}
