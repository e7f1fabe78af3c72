package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.dfr.recovery.IdleRankListener;
import org.junit.jupiter.api.Test;

/**
 * The line protocol between rank processes and the launcher's host capping, over real pipes:
 * the client in the rank, the relay in the launcher.
 */
class CappingLinesTest {

    /** The launcher's decisions, in the order they were taken. */
    private final List<String> decisions = new CopyOnWriteArrayList<>();
    private final IdleRankListener hosts = new IdleRankListener() {
        @Override
        public void rankIdle(int rank) {
            decisions.add("idle " + rank);
        }

        @Override
        public void rankBusy(int rank) {
            decisions.add("busy " + rank);
        }
    };

    @Test
    void when_lineIsOfTheProtocol_then_itParses_andOtherLinesDoNot() {
        assertThat(CappingLines.parse(CappingLines.idle(6))).contains(new CappingLines.Event(CappingLines.Kind.IDLE, 6, -1));
        assertThat(CappingLines.parse(CappingLines.busy(7, 42))).contains(new CappingLines.Event(CappingLines.Kind.BUSY, 7, 42));
        assertThat(CappingLines.parse(CappingLines.ready(42))).contains(new CappingLines.Event(CappingLines.Kind.READY, -1, 42));
        assertThat(CappingLines.parse("12:00:01 INFO rank 3: idle")).isEmpty();
        assertThat(CappingLines.parse(CappingLines.PREFIX + "busy seven 1")).isEmpty();
        assertThat(CappingLines.parse(CappingLines.PREFIX + "busy 7")).isEmpty();
        assertThat(CappingLines.parse(CappingLines.PREFIX + "nap 7")).isEmpty();
    }

    @Test
    void when_rankHasWorkAgain_then_itReturnsOnlyAfterTheLauncherDecided() throws Exception {
        PipedOutputStream launcherToRank = new PipedOutputStream();
        PipedInputStream rankStdin = new PipedInputStream(launcherToRank);
        PipedInputStream launcherReads = new PipedInputStream();
        PrintStream rankStdout = new PrintStream(new PipedOutputStream(launcherReads), true, StandardCharsets.UTF_8);
        LauncherCappingClient client = new LauncherCappingClient(rankStdout, rankStdin, 30_000);
        CappingRelay relay = new CappingRelay(hosts, true);
        // the launcher's pump: every line the rank prints goes through the relay
        CompletableFuture.runAsync(() -> {
            try (var in = new BufferedReader(new InputStreamReader(launcherReads, StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    relay.onLine(6, line, launcherToRank);
                }
            } catch (IOException ignored) {
                // the rank side closed
            }
        });

        client.rankIdle(6);
        client.rankBusy(6);
        decisions.add("rank 6 computes");
        client.rankBusy(6);

        assertThat(decisions).containsExactly("idle 6", "busy 6", "rank 6 computes", "busy 6");
        rankStdout.close();
        launcherToRank.close();
    }

    @Test
    void when_launcherNeverAnswers_then_busyReturnsAfterTheTimeout() throws Exception {
        PipedOutputStream silentLauncher = new PipedOutputStream();
        PipedInputStream rankStdin = new PipedInputStream(silentLauncher);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        LauncherCappingClient client = new LauncherCappingClient(new PrintStream(printed, true, StandardCharsets.UTF_8),
                rankStdin, 200);

        long start = System.nanoTime();
        client.rankBusy(3);
        Duration waited = Duration.ofNanos(System.nanoTime() - start);

        assertThat(waited).isGreaterThanOrEqualTo(Duration.ofMillis(200)).isLessThan(Duration.ofSeconds(10));
        assertThat(printed.toString(StandardCharsets.UTF_8)).isEqualTo(CappingLines.busy(3, 1) + System.lineSeparator());
        silentLauncher.close();
    }

    @Test
    void when_lineNamesAnotherRank_then_theRelayIgnoresIt() {
        new CappingRelay(hosts, true).onLine(2, CappingLines.idle(3), new ByteArrayOutputStream());

        assertThat(decisions).isEmpty();
    }

    @Test
    void when_hostsAreNotCapped_then_theRankReportsWithoutWaiting_andTheLauncherRecordsWithoutAnswering() {
        ByteArrayOutputStream rankStdout = new ByteArrayOutputStream();
        IdleRankListener reporter = LauncherCappingClient.reportingOnly(
                new PrintStream(rankStdout, true, StandardCharsets.UTF_8));
        ByteArrayOutputStream rankStdin = new ByteArrayOutputStream();
        CappingRelay relay = new CappingRelay(hosts, false);

        reporter.rankIdle(4);
        reporter.rankBusy(4);
        rankStdout.toString(StandardCharsets.UTF_8).lines().forEach(line -> relay.onLine(4, line, rankStdin));

        assertThat(decisions).containsExactly("idle 4", "busy 4");
        assertThat(rankStdin.size()).as("nothing written to a stdin nobody reads").isZero();
    }
}
