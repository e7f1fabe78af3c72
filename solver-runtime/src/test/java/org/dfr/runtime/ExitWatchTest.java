package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exit watch on a fake /proc tree. Four ranks, one process each, rank 0 watching unless a test says:
 *
 * <pre>
 *   machine "boot-a":  rank 0 (pid 100, this)   rank 1 (pid 101)   rank 2 (pid 102)
 *   machine "boot-b":                                                rank 3 (pid 103)
 *   on boot-a rank 0 (the lowest) polls 1 and 2, rank 1 (the next) polls 0, rank 2 nobody;
 *   rank 3 is another machine's
 * </pre>
 */
class ExitWatchTest {

    @TempDir
    Path root;

    private final ConcurrentSkipListSet<Integer> live = new ConcurrentSkipListSet<>(List.of(0, 1, 2, 3));
    private final Map<Integer, ProcessIdentity> identities = new ConcurrentHashMap<>();
    private final List<String> exits = new CopyOnWriteArrayList<>();
    private AutoCloseable watch;

    @BeforeEach
    void machines() throws IOException {
        identities.put(0, new ProcessIdentity("boot-a", 100, 5000));
        identities.put(1, new ProcessIdentity("boot-a", 101, 5001));
        identities.put(2, new ProcessIdentity("boot-a", 102, 5002));
        identities.put(3, new ProcessIdentity("boot-b", 103, 5003));
        for (ProcessIdentity id : identities.values()) {
            write(id.pid(), 'S', 0x40_4040, id.startTicks());
        }
    }

    @AfterEach
    void stop() throws Exception {
        if (watch != null) {
            watch.close();
        }
    }

    private void write(long pid, char state, long flags, long start) throws IOException {
        Files.createDirectories(root.resolve(Long.toString(pid)));
        Path tmp = root.resolve(pid + "/stat.tmp");
        Files.writeString(tmp, ProcFsTest.statLine(pid, "java", state, flags, start));
        Files.move(tmp, root.resolve(pid + "/stat"), StandardCopyOption.ATOMIC_MOVE);
    }

    private void startWatchOfRank0() {
        startWatchOfRank0(ExitWatch.POLL_MICROS);
    }

    private void startWatchOfRank0(long pollMicros) {
        startWatchOf(0, pollMicros);
    }

    private void startWatchOf(int watcher, long pollMicros) {
        watch = ExitWatch.start(watcher, Optional.of(identities.get(watcher)), new ProcFs(root), () -> new TreeSet<>(live),
                rank -> Optional.ofNullable(identities.get(rank)), () -> false, (rank, how) -> {
                    exits.add(rank + ": " + how);
                    live.remove(rank);
                }, pollMicros);
    }

    @Test
    void when_theWatchedPeerIsExiting_then_itIsReportedAndTheWatchMovesToTheNextPeer() throws IOException {
        startWatchOfRank0();

        write(101, 'R', 0x40_4044, 5001); // SIGKILL delivered: PF_EXITING
        await().atMost(Duration.ofSeconds(5)).until(() -> exits.size() == 1);
        assertThat(exits.get(0)).isEqualTo("1: its process 101 is exiting");

        await().atMost(Duration.ofSeconds(5)).until(() -> ((ExitWatch) watch).watchedRanks().equals(List.of(2)));
        Files.delete(root.resolve("102/stat")); // rank 2, watched next, is gone altogether
        await().atMost(Duration.ofSeconds(5)).until(() -> exits.size() == 2);
        assertThat(exits.get(1)).isEqualTo("2: its process 102 is gone");
    }

    @Test
    void when_aPidNowBelongsToAnotherProcess_then_theRankCountsAsExited() throws IOException {
        startWatchOfRank0();
        // only a process /proc confirmed is chosen: let the watch choose rank 1 before its pid changes hands
        await().atMost(Duration.ofSeconds(5)).until(() -> ((ExitWatch) watch).watchedRanks().contains(1));

        write(101, 'S', 0x40_4040, 9999);

        await().atMost(Duration.ofSeconds(5)).until(() -> !exits.isEmpty());
        assertThat(exits.get(0)).isEqualTo("1: its process 101 is gone (the pid belongs to a newer process)");
    }

    @Test
    void when_aReselectionIsDueAsThePeerIsFoundGone_then_itIsStillReported() throws IOException {
        // polls farther apart than reselections, as on a machine so loaded that a 2 ms park lasts 100 ms:
        // every wake-up is due to reselect, and a reselection alone would drop the vanished peer unreported
        startWatchOfRank0(TimeUnit.MILLISECONDS.toMicros(ExitWatch.RESELECT_MILLIS * 6));
        await().atMost(Duration.ofSeconds(5)).until(() -> ((ExitWatch) watch).watchedRanks().contains(1));

        Files.delete(root.resolve("101/stat"));

        await().atMost(Duration.ofSeconds(5)).until(() -> !exits.isEmpty());
        assertThat(exits.get(0)).isEqualTo("1: its process 101 is gone");
    }

    @Test
    void when_peersAreOnAnotherMachineOrUnconfirmed_then_theyAreNotWatched() throws IOException {
        // rank 1's advertised start does not match /proc (another pid namespace): not watched;
        // rank 3 is on another machine: not watched; rank 2 is then rank 0's successor
        identities.put(1, new ProcessIdentity("boot-a", 101, 1));
        startWatchOfRank0();

        write(103, 'R', 0x40_4044, 5003);
        write(101, 'R', 0x40_4044, 5001);
        write(102, 'R', 0x40_4044, 5002);

        await().atMost(Duration.ofSeconds(5)).until(() -> !exits.isEmpty());
        assertThat(exits.get(0)).startsWith("2: ");
        assertThat(exits).noneMatch(e -> e.startsWith("1: ") || e.startsWith("3: "));
    }

    @Test
    void when_thePeerIsStoppedOrAlive_then_exitOfSaysNothing() {
        ProcessIdentity peer = identities.get(1);
        assertThat(ExitWatch.exitOf(new ProcFs.ProcessState(true, false, 5001), peer)).isNull();
        assertThat(ExitWatch.exitOf(ProcFs.parse(ProcFsTest.statLine(101, "java", 'T', 0x40_4040, 5001)), peer))
                .isNull();
    }

    @Test
    void when_choosingTheWatched_then_theLowestWatchesAllAndTheNextRankWatchesTheLowest() {
        // one machine: ranks 2, 3, 5, 6
        //   2 --polls--> 3, 5, 6        3 --polls--> 2        5, 6 poll nobody
        ExitWatch.Watched r2 = new ExitWatch.Watched(2, identities.get(2));
        ExitWatch.Watched r3 = new ExitWatch.Watched(3, identities.get(2));
        ExitWatch.Watched r5 = new ExitWatch.Watched(5, identities.get(2));
        ExitWatch.Watched r6 = new ExitWatch.Watched(6, identities.get(2));
        assertThat(ExitWatch.targets(2, List.of(r3, r5, r6))).containsExactly(r3, r5, r6);
        assertThat(ExitWatch.targets(3, List.of(r2, r5, r6))).containsExactly(r2);
        assertThat(ExitWatch.targets(5, List.of(r2, r3, r6))).isEmpty();
        assertThat(ExitWatch.targets(6, List.of(r2, r3, r5))).isEmpty();
        assertThat(ExitWatch.targets(3, List.of(r2))).as("two processes watch each other").containsExactly(r2);
        assertThat(ExitWatch.targets(6, List.of())).isEmpty();
    }

    @Test
    void when_theLowestRankExits_then_theNextRankReportsItAndWatchesTheOthers() throws IOException {
        startWatchOf(1, ExitWatch.POLL_MICROS);
        await().atMost(Duration.ofSeconds(5)).until(() -> ((ExitWatch) watch).watchedRanks().equals(List.of(0)));

        write(100, 'R', 0x40_4044, 5000);

        await().atMost(Duration.ofSeconds(5)).until(() -> exits.size() == 1);
        assertThat(exits.get(0)).isEqualTo("0: its process 100 is exiting");
        await().atMost(Duration.ofSeconds(5)).until(() -> ((ExitWatch) watch).watchedRanks().equals(List.of(2)));
        write(102, 'R', 0x40_4044, 5002);
        await().atMost(Duration.ofSeconds(5)).until(() -> exits.size() == 2);
        assertThat(exits.get(1)).isEqualTo("2: its process 102 is exiting");
    }

    @Test
    void when_aRankIsNeitherTheLowestNorTheNext_then_itPollsNobodyUntilItIs() {
        startWatchOf(2, ExitWatch.POLL_MICROS);

        await().during(Duration.ofMillis(4 * ExitWatch.RESELECT_MILLIS)).atMost(Duration.ofSeconds(5))
                .until(() -> ((ExitWatch) watch).watchedRanks().isEmpty());
        live.remove(0); // rank 0 left the cluster: rank 2 is now the next after the lowest, rank 1

        await().atMost(Duration.ofSeconds(5)).until(() -> ((ExitWatch) watch).watchedRanks().equals(List.of(1)));
        assertThat(exits).isEmpty();
    }

    @Test
    void when_thePollIntervalIsNotAPositiveNumber_then_theDefaultIsUsed() {
        assertThat(ExitWatch.pollMicros("5000")).isEqualTo(5_000);
        assertThat(ExitWatch.pollMicros(null)).isEqualTo(ExitWatch.DEFAULT_POLL_MICROS);
        assertThat(ExitWatch.pollMicros("0")).isEqualTo(ExitWatch.DEFAULT_POLL_MICROS);
        assertThat(ExitWatch.pollMicros("2ms")).isEqualTo(ExitWatch.DEFAULT_POLL_MICROS);
    }

    @Test
    void when_theLowestAndTheNextExitTogether_then_aRankThatPolledNobodyReportsBoth() throws IOException {
        // rank 0 polls 1 and 2, rank 1 polls 0: both watchers of each other die at once
        startWatchOf(2, ExitWatch.POLL_MICROS);

        write(100, 'R', 0x40_4044, 5000);
        write(101, 'R', 0x40_4044, 5001);

        await().atMost(Duration.ofSeconds(5)).until(() -> exits.size() == 2);
        assertThat(exits).containsExactlyInAnyOrder("0: its process 100 is exiting", "1: its process 101 is exiting");
    }

    @Test
    void when_aRankThatPollsNobodySeesAnotherPeerExit_then_itLeavesItToThePollers() throws IOException {
        // a fifth process on boot-a: rank 4 polls nobody; rank 2's exit is rank 0's to see, not rank 4's
        identities.put(4, new ProcessIdentity("boot-a", 104, 5004));
        write(104, 'S', 0x40_4040, 5004);
        live.add(4);
        startWatchOf(4, ExitWatch.POLL_MICROS);
        await().atMost(Duration.ofSeconds(5)).until(() -> ((ExitWatch) watch).watchedRanks().isEmpty());

        write(102, 'R', 0x40_4044, 5002);

        await().during(Duration.ofMillis(4 * ExitWatch.RESELECT_MILLIS)).atMost(Duration.ofSeconds(5))
                .until(exits::isEmpty);
        write(101, 'R', 0x40_4044, 5001); // one of the pollers: read at every reselection
        await().atMost(Duration.ofSeconds(5)).until(() -> !exits.isEmpty());
        // then rank 2 is the next after the lowest, a poller, and is read (and found exiting) too
        assertThat(exits.get(0)).isEqualTo("1: its process 101 is exiting");
    }
}
