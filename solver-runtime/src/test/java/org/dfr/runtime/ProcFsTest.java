package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcFsTest {

    /** A /proc/PID/stat line with the fields ExitWatch reads; the rest zero. */
    static String statLine(long pid, String comm, char state, long flags, long startTicks) {
        return pid + " (" + comm + ") " + state + " 1 1 1 0 -1 " + flags + " 0 0 0 0 0 0 0 0 20 0 1 0 "
                + startTicks + " 0 0 0\n";
    }

    @Test
    void when_parsingAStatLine_then_stateFlagsAndStartAreRead_evenWithParenthesesInTheName() {
        ProcFs.ProcessState running = ProcFs.parse(statLine(42, "java (rank) 3", 'R', 0x40_4040, 777));
        assertThat(running).isEqualTo(new ProcFs.ProcessState(true, false, 777));
        // PF_EXITING (0x4): SIGKILL was delivered, the kernel is tearing the process down
        assertThat(ProcFs.parse(statLine(42, "java", 'R', 0x40_4044, 777)).exiting()).isTrue();
        assertThat(ProcFs.parse(statLine(42, "java", 'Z', 0, 777)).exiting()).isTrue();
        // stopped by SIGSTOP, or asleep: alive
        assertThat(ProcFs.parse(statLine(42, "java", 'T', 0x40_4040, 777)).exiting()).isFalse();
        assertThat(ProcFs.parse(statLine(42, "java", 'S', 0x40_4040, 777)).exiting()).isFalse();
    }

    @Test
    void when_theTreeIsFake_then_selfIsItsBootIdAndThisPidsStart(@TempDir Path root) throws IOException {
        long pid = ProcessHandle.current().pid();
        Files.createDirectories(root.resolve("sys/kernel/random"));
        Files.writeString(root.resolve("sys/kernel/random/boot_id"), "boot-a\n");
        Files.createDirectories(root.resolve(Long.toString(pid)));
        Files.writeString(root.resolve(pid + "/stat"), statLine(pid, "java", 'S', 0, 1234));

        assertThat(new ProcFs(root).self()).contains(new ProcessIdentity("boot-a", pid, 1234));
        assertThat(new ProcFs(root).stat(pid + 1)).isEqualTo(ProcFs.ProcessState.GONE);
        assertThat(new ProcFs(root.resolve("missing")).self()).isEmpty();
    }

    @Test
    void when_aRealChildIsSigkilled_then_procSeesItExitingOrGone() throws Exception {
        assumeTrue(Files.isReadable(ProcFs.DEFAULT_ROOT.resolve("self/stat")), "Linux /proc");
        ProcFs proc = new ProcFs(ProcFs.DEFAULT_ROOT);
        Process child = new ProcessBuilder("sleep", "60").start();
        try {
            ProcFs.ProcessState alive = proc.stat(child.pid());
            assertThat(alive.exists()).isTrue();
            assertThat(alive.exiting()).isFalse();
            assertThat(alive.startTicks()).isPositive();
            assertThat(proc.self()).hasValueSatisfying(id -> assertThat(id.startTicks()).isPositive());

            child.destroyForcibly();

            await().atMost(Duration.ofSeconds(5)).until(() -> proc.stat(child.pid()).exiting());
        } finally {
            child.destroyForcibly().waitFor();
        }
    }

    @Test
    void when_aRealChildsStatIsKeptOpen_then_eachReadShowsItsStateUntilItIsReaped() throws Exception {
        assumeTrue(Files.isReadable(ProcFs.DEFAULT_ROOT.resolve("self/stat")), "Linux /proc");
        ProcFs proc = new ProcFs(ProcFs.DEFAULT_ROOT);
        Process child = new ProcessBuilder("sleep", "60").start();
        try (ProcFs.StatFile file = proc.open(child.pid())) {
            assertThat(file.keptOpen()).isTrue();
            ProcFs.ProcessState alive = file.read();
            assertThat(alive).isEqualTo(proc.stat(child.pid()));
            assertThat(alive.exiting()).isFalse();
            assertThat(file.read()).as("read again through the same open file").isEqualTo(alive);

            child.destroyForcibly().waitFor(); // killed and reaped: the pid may now be anybody's

            assertThat(file.read()).isEqualTo(ProcFs.ProcessState.GONE);
        } finally {
            child.destroyForcibly().waitFor();
        }
    }

    /**
     * A SIGKILLed process that nobody reaps yet (a zombie: its parent never waits) reads as exiting through the kept-open
     * file, as through {@code /proc/PID/stat}: the moment the exit watch is for.
     */
    @Test
    void when_aRealProcessIsSigkilledAndNotReaped_then_theKeptOpenFileReadsItExiting() throws Exception {
        assumeTrue(Files.isReadable(ProcFs.DEFAULT_ROOT.resolve("self/stat")), "Linux /proc");
        ProcFs proc = new ProcFs(ProcFs.DEFAULT_ROOT);
        // the shell starts the victim, prints its pid and becomes a process that never reaps it
        Process parent = new ProcessBuilder("sh", "-c", "sleep 60 & echo $!; exec sleep 60").start();
        try {
            long victim = Long.parseLong(new BufferedReader(new InputStreamReader(parent.getInputStream()))
                    .readLine().trim());
            try (ProcFs.StatFile file = proc.open(victim)) {
                ProcFs.ProcessState alive = file.read();
                assertThat(alive.exists()).isTrue();
                assertThat(alive.exiting()).isFalse();
                assertThat(alive.startTicks()).isEqualTo(proc.stat(victim).startTicks());

                new ProcessBuilder("kill", "-9", Long.toString(victim)).start().waitFor();

                await().atMost(Duration.ofSeconds(5)).until(() -> file.read().exiting());
                assertThat(file.read().exists()).as("a zombie is still there").isTrue();
                assertThat(proc.stat(victim).exiting()).isTrue();
            }
        } finally {
            parent.destroyForcibly().waitFor();
        }
    }

    @Test
    void when_aFakeTreesStatIsKeptOpen_then_eachReadOpensTheFileAgain(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("42"));
        Path stat = root.resolve("42/stat");
        Files.writeString(stat, statLine(42, "java", 'S', 0, 1234));
        try (ProcFs.StatFile file = new ProcFs(root).open(42)) {
            assertThat(file.keptOpen()).isFalse();
            assertThat(file.read()).isEqualTo(new ProcFs.ProcessState(true, false, 1234));

            Files.delete(stat);

            assertThat(file.read()).isEqualTo(ProcFs.ProcessState.GONE);
        }
    }
}
