package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.dfr.cli.DfrMain;
import org.dfr.harness.PooledRankMain;
import org.dfr.harness.RankJvmPool;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.jacobi.SequentialJacobi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A user's session with the pool, each command its own JVM as from a shell:
 * <pre>
 *   dfr pool start --size 2     2 warm JVMs, ready
 *   dfr run --mode processes --ranks-grid 2x1 --pool     both ranks claimed; 2 new ones warm up for the next run
 *   dfr pool stop               the 2 new ones end
 * </pre>
 */
@Isolated // starts rank JVMs and a pool of them
class PoolCommandIT {

    private static final long COMMAND_TIMEOUT_SECONDS = 180;

    @TempDir
    Path tmp;

    private final List<Process> commands = new ArrayList<>();

    @AfterEach
    void stopWhatIsLeft() throws InterruptedException {
        commands.forEach(p -> p.descendants().forEach(ProcessHandle::destroyForcibly));
        commands.forEach(Process::destroyForcibly);
        new RankJvmPool(tmp.resolve("pool")).stop();
    }

    /** Runs {@code dfr args} in a JVM of its own and returns its output (stdout and stderr). */
    private String dfr(String... args) throws IOException, InterruptedException {
        Path log = Files.createTempFile(tmp, "dfr-", ".log");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.net.preferIPv4Stack=true", "-Dhazelcast.logging.type=slf4j",
                // one warm-up run: ready sooner (the run's JVMs get the same property, so the pool serves them)
                "-D" + PooledRankMain.WARM_UP_RUNS_PROPERTY + "=1",
                "-cp", System.getProperty("java.class.path"), DfrMain.class.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        commands.add(p);
        assertThat(p.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("dfr %s ends", List.of(args)).isTrue();
        String out = Files.readString(log);
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void when_aPoolIsStartedAndARunUsesIt_then_theRunClaimsItsJvmsAndLeavesNewOnesThatStopEnds() throws Exception {
        String pool = tmp.resolve("pool").toString();
        SequentialJacobi reference = new SequentialJacobi(new JacobiProblem(37, 29));
        reference.iterate(4);

        assertThat(dfr("pool", "start", "--size", "2", "--heap-mib", "256", "--pool-dir", pool))
                .contains("pool ready: 2 rank JVMs");
        List<Long> warm = new RankJvmPool(Path.of(pool)).readyPids();
        assertThat(warm).hasSize(2);
        assertThat(dfr("pool", "status", "--pool-dir", pool)).contains("2 ready, 0 warming up, of 2 kept; heap 256 MiB");

        String run = dfr("run", "--mode", "processes", "--cells", "37x29", "--ranks-grid", "2x1", "--iterations", "4",
                "--pool", "--pool-dir", pool);

        assertThat(run).contains("field sha256:    " + reference.digest())
                .contains("pool:            2 new warm JVMs for the next run")
                .doesNotContain("cannot serve this run").doesNotContain("no JVM left");
        await().atMost(Duration.ofSeconds(10)).until(() -> warm.stream()
                .noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)));
        assertThat(new RankJvmPool(Path.of(pool)).unclaimed()).hasSize(2)
                .extracting(ProcessHandle::pid).doesNotContainAnyElementsOf(warm);

        assertThat(dfr("pool", "stop", "--pool-dir", pool)).contains("stopped 2 pooled rank JVMs");
        assertThat(new RankJvmPool(Path.of(pool)).unclaimed()).isEmpty();
    }
}
