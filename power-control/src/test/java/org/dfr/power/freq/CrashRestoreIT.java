package org.dfr.power.freq;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.dfr.power.sysfs.FakeSysfs;
import org.dfr.power.sysfs.Sysfs;
import org.dfr.power.sysfs.SysfsRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real process caps a fake tree and dies; the journal it leaves lets another process restore. */
class CrashRestoreIT {

    private static final String MAX0 = FakeSysfs.POLICIES + "/policy0/scaling_max_freq";
    private static final String MAX1 = FakeSysfs.POLICIES + "/policy1/scaling_max_freq";

    @TempDir
    Path tmp;

    private Process startCapper(FakeSysfs fake, RestoreJournal journal, boolean hook) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                CapAndWaitMain.class.getName(), fake.root().toString(), journal.file().toString(),
                hook ? "hook" : "nohook");
        builder.redirectErrorStream(true);
        Process process = builder.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line;
        do {
            line = out.readLine();
        } while (line != null && !line.startsWith("CAPPED") && !line.startsWith("NOT CAPPED"));
        assertThat(line).isEqualTo("CAPPED");
        return process;
    }

    @Test
    void when_the_capping_process_is_sigkilled_then_the_next_process_restores_from_its_journal() throws Exception {
        FakeSysfs fake = FakeSysfs.acpiCpufreq(tmp.resolve("root"), 2);
        RestoreJournal journal = new RestoreJournal(tmp.resolve("journal/freq-journal.json"));
        Process capper = startCapper(fake, journal, true);
        assertThat(fake.readLong(MAX0)).isEqualTo(1_200_000);

        capper.destroyForcibly(); // SIGKILL: no shutdown hook runs
        assertThat(capper.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(fake.readLong(MAX0)).isEqualTo(1_200_000);
        assertThat(journal.exists()).isTrue();

        FrequencyController next = FrequencyControllers.probe(Sysfs.at(SysfsRoot.of(fake.root())), journal);
        RestoreOutcome outcome = next.restoreLeftoverJournal();

        assertThat(outcome.restored()).isTrue();
        assertThat(fake.readLong(MAX0)).isEqualTo(2_600_000);
        assertThat(fake.readLong(MAX1)).isEqualTo(2_600_000);
        assertThat(journal.exists()).isFalse();
    }

    @Test
    void when_the_capping_process_is_terminated_then_its_shutdown_hook_restores() throws Exception {
        FakeSysfs fake = FakeSysfs.acpiCpufreq(tmp.resolve("root"), 2);
        RestoreJournal journal = new RestoreJournal(tmp.resolve("journal/freq-journal.json"));
        Process capper = startCapper(fake, journal, true);

        capper.destroy(); // SIGTERM: shutdown hooks run
        assertThat(capper.waitFor(30, TimeUnit.SECONDS)).isTrue();

        assertThat(fake.readLong(MAX0)).isEqualTo(2_600_000);
        assertThat(fake.readLong(MAX1)).isEqualTo(2_600_000);
        assertThat(journal.exists()).isFalse();
    }

    @Test
    void when_a_journal_directory_holds_the_journal_of_a_killed_capper_then_leftoverJournals_restores_and_says_so()
            throws Exception {
        FakeSysfs fake = FakeSysfs.acpiCpufreq(tmp.resolve("root"), 2);
        Path directory = tmp.resolve("home/.dfr");
        RestoreJournal journal = RestoreJournal.inDirectory(directory, SysfsRoot.of(fake.root()));
        Process capper = startCapper(fake, journal, false);

        assertThat(LeftoverJournals.restoreAll(directory)).as("the capper still runs: its cap is its own").isEmpty();
        assertThat(fake.readLong(MAX0)).isEqualTo(1_200_000);

        capper.destroyForcibly();
        assertThat(capper.waitFor(30, TimeUnit.SECONDS)).isTrue();
        List<LeftoverJournals.Outcome> outcomes = LeftoverJournals.restoreAll(directory);

        assertThat(outcomes).singleElement().satisfies(o -> {
            assertThat(o.restored()).isTrue();
            assertThat(o.pid()).isEqualTo(capper.pid());
            assertThat(o.message()).contains("process " + capper.pid() + " was killed while it capped")
                    .contains(fake.root().toString());
        });
        assertThat(fake.readLong(MAX0)).isEqualTo(2_600_000);
        assertThat(fake.readLong(MAX1)).isEqualTo(2_600_000);
        assertThat(journal.exists()).isFalse();
        assertThat(LeftoverJournals.restoreAll(directory)).as("nothing left the second time").isEmpty();
    }

    @Test
    void when_the_killed_cappers_tree_was_removed_then_its_journal_is_removed_once_with_a_message() throws Exception {
        FakeSysfs fake = FakeSysfs.acpiCpufreq(tmp.resolve("experiment-out/fake-sysfs/host3"), 2);
        Path directory = tmp.resolve("home/.dfr");
        RestoreJournal journal = RestoreJournal.inDirectory(directory, SysfsRoot.of(fake.root()));
        Process capper = startCapper(fake, journal, false);
        capper.destroyForcibly();
        assertThat(capper.waitFor(30, TimeUnit.SECONDS)).isTrue();
        // the user removes the experiment's output, fake tree included
        try (Stream<Path> walk = Files.walk(tmp.resolve("experiment-out"))) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }

        List<LeftoverJournals.Outcome> outcomes = LeftoverJournals.restoreAll(directory);

        assertThat(outcomes).singleElement().satisfies(o -> {
            assertThat(o.restored()).isFalse();
            assertThat(o.message()).contains("which no longer exists: nothing to restore").contains("is removed");
        });
        assertThat(journal.exists()).isFalse();
        assertThat(LeftoverJournals.restoreAll(directory)).as("said once, not on every command").isEmpty();
    }
}
