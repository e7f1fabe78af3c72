package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.dfr.harness.Mode;
import org.dfr.harness.ProcessLauncher;
import org.dfr.harness.RankProcessListener;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.jacobi.SequentialJacobi;
import org.dfr.runtime.ClusterSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A slow rank is not a dead one: a rank process stopped with SIGSTOP for half the heartbeat timeout
 * keeps its sockets open, so neither the data plane's death watch (which acts only on connections
 * that end) nor Hazelcast's heartbeat may start a recovery; the run just waits for it and ends with
 * the failure-free digest.
 */
@Isolated // starts rank processes
class PausedRankIT {

    private static final int NX = 37;
    private static final int NY = 29;
    /** Enough iterations that the run is still in its loop when the rank is stopped. */
    private static final int ITERATIONS = 4_000;
    private static final int CHECKPOINT_EVERY = 1_000;
    /** A short heartbeat timeout keeps the test short; the rule is the same at the 10 s default. */
    private static final int HEARTBEAT_TIMEOUT_MILLIS = 6_000;
    private static final long PAUSE_MILLIS = HEARTBEAT_TIMEOUT_MILLIS / 2;
    private static final int PAUSED_RANK = 3;
    private static final long RUN_TIMEOUT_MILLIS = 120_000;

    private final Map<Integer, ProcessHandle> children = new ConcurrentHashMap<>();
    private volatile boolean looping;

    @AfterEach
    void noRankProcessOutlivesTheRun() {
        // a failed test must not leave a stopped rank behind
        ProcessHandle paused = children.get(PAUSED_RANK);
        if (paused != null && paused.isAlive()) {
            signal("CONT", paused.pid());
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(children.values())
                .allSatisfy(p -> assertThat(ProcessHandle.of(p.pid()).map(ProcessHandle::isAlive))
                        .as("rank process %d is alive", p.pid())
                        .isNotEqualTo(Optional.of(true))));
    }

    @Test
    @Thorough
    void when_aRankIsStoppedForHalfTheHeartbeatTimeout_then_noRecoveryAndTheFailureFreeDigest() throws Exception {
        SequentialJacobi reference = new SequentialJacobi(new JacobiProblem(NX, NY));
        reference.iterate(ITERATIONS);
        RunConfig config = RunConfig.of(2, 4, NX, NY, ITERATIONS, CHECKPOINT_EVERY).withMode(Mode.PROCESSES);
        ProcessLauncher launcher = new ProcessLauncher(new ClusterSettings().maxNoHeartbeatMillis(HEARTBEAT_TIMEOUT_MILLIS))
                .runTimeoutMillis(RUN_TIMEOUT_MILLIS)
                .jvmOptions(List.of("-XX:TieredStopAtLevel=1"))
                .listener(new RankProcessListener() {
                    @Override
                    public void started(int rank, ProcessHandle process) {
                        children.put(rank, process);
                    }

                    @Override
                    public void firstIteration(long millis) {
                        looping = true;
                    }
                });

        CompletableFuture<RunReport> run = CompletableFuture.supplyAsync(() -> launcher.run(config));
        await().atMost(Duration.ofSeconds(90)).until(() -> looping || run.isDone());
        assertThat(run).as("the run ended before the rank could be stopped").isNotDone();
        long pid = children.get(PAUSED_RANK).pid();
        long stoppedAt = System.nanoTime();
        signal("STOP", pid);
        // hold the rank stopped for the pause: the condition only becomes true once the time is up
        await().pollDelay(Duration.ofMillis(PAUSE_MILLIS)).atMost(Duration.ofMillis(PAUSE_MILLIS + 5_000))
                .until(() -> System.nanoTime() - stoppedAt >= TimeUnit.MILLISECONDS.toNanos(PAUSE_MILLIS));
        assertThat(run).as("the run went on without the stopped rank").isNotDone();
        signal("CONT", pid);
        RunReport report = run.get(RUN_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);

        assertThat(report.failures()).isEmpty();
        assertThat(report.recoveries()).isEmpty();
        assertThat(report.fieldSha256()).isEqualTo(reference.digest());
        // the others waited for the stopped rank: the loop lasted at least the pause
        assertThat(report.wallMillis()).isGreaterThanOrEqualTo(PAUSE_MILLIS);
    }

    private static void signal(String signal, long pid) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
            assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(kill.exitValue()).as("kill -%s %d", signal, pid).isZero();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill -" + signal + " " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
