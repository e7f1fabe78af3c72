package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.dfr.harness.Campaign;
import org.dfr.harness.Mode;
import org.dfr.harness.ProcessLauncher;
import org.dfr.harness.RankProcessListener;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.recovery.FaultPlan;
import org.dfr.runtime.ClusterSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A paused rank (SIGSTOP then SIGCONT of its process; in-JVM, its iteration thread blocked) for less than
 * the heartbeat timeout is slow, not dead: the run must not recover from anything and must end with the
 * reference digest. The test watches the rank's process state in {@code /proc} to see that the whole JVM
 * really was stopped, and for about as long as planned (CampaignIT draws pauses in both modes).
 */
class PauseIT {

    private static final long HEARTBEAT_TIMEOUT_MILLIS = 10_000;
    private static final long PAUSE_MILLIS = 3_000;
    private static final RunConfig BASE = RunConfig.of(2, 4, 37, 29, 10, 4)
            .withFaults(List.of(FaultPlan.Kill.pause(3, 5, PAUSE_MILLIS)), List.of(), Set.of());

    private final Map<Integer, ProcessHandle> children = new ConcurrentHashMap<>();

    @AfterEach
    void noRankProcessOutlivesTheRun() {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(children.values())
                .noneMatch(p -> ProcessHandle.of(p.pid()).map(ProcessHandle::isAlive).orElse(false)));
    }

    @Test
    @Timeout(180)
    void when_aRankProcessIsStoppedBelowTheHeartbeatTimeout_then_itWasReallyStoppedAndNoRecoveryFollows() {
        RunConfig config = BASE.withMode(Mode.PROCESSES);
        AtomicLong stoppedMillis = new AtomicLong();
        AtomicLong lastSample = new AtomicLong(System.nanoTime());
        ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor();
        watcher.scheduleAtFixedRate(() -> sampleStopped(3, lastSample, stoppedMillis), 0, 20, TimeUnit.MILLISECONDS);

        RunReport report = new ProcessLauncher(new ClusterSettings().maxNoHeartbeatMillis((int) HEARTBEAT_TIMEOUT_MILLIS))
                .jvmOptions(List.of("-XX:TieredStopAtLevel=1"))
                .listener(new RankProcessListener() {
                    @Override
                    public void started(int rank, ProcessHandle process) {
                        children.put(rank, process);
                    }
                })
                .run(config);
        watcher.shutdownNow();

        assertThat(report.fieldSha256()).isEqualTo(Campaign.referenceDigest(BASE.withFaults(List.of(), List.of(),
                Set.of())));
        assertThat(report.failures()).isEmpty();
        assertThat(report.recoveries()).isEmpty();
        // sampled every 20 ms: stopped for about the pause, never up to the heartbeat timeout
        assertThat(stoppedMillis.get()).as("time rank 3's JVM was seen stopped")
                .isBetween(PAUSE_MILLIS - 500, HEARTBEAT_TIMEOUT_MILLIS - 1);
    }

    /** Adds the time since the last sample when the process of {@code rank} is in state T (stopped). */
    private void sampleStopped(int rank, AtomicLong lastSample, AtomicLong stoppedMillis) {
        long now = System.nanoTime();
        long since = now - lastSample.getAndSet(now);
        ProcessHandle p = children.get(rank);
        if (p != null && "T".equals(state(p.pid()))) {
            stoppedMillis.addAndGet(TimeUnit.NANOSECONDS.toMillis(since));
        }
    }

    /** The state letter of {@code /proc/PID/stat} (after the command name in parentheses). */
    private static String state(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
