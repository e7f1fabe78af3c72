package org.dfr.power.freq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.dfr.power.sysfs.SysfsRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RestoreJournalTest {

    @TempDir
    Path tmp;

    private static JournalRecord record(long max) {
        return new JournalRecord(JournalRecord.FORMAT_VERSION, "/", "host", 42, 1000,
                List.of(new PolicyLimits("sys/devices/system/cpu/cpufreq/policy0", 800_000, max, "powersave")));
    }

    @Test
    void when_written_then_it_reads_back_equal_and_leaves_no_temporary_file() throws IOException {
        RestoreJournal journal = new RestoreJournal(tmp.resolve("dir/freq-journal.json"));

        journal.write(record(4_200_000));
        journal.write(record(3_000_000));

        assertThat(journal.read()).contains(record(3_000_000));
        try (Stream<Path> files = Files.list(tmp.resolve("dir"))) {
            assertThat(files).containsExactly(journal.file());
        }
    }

    @Test
    void when_absent_then_read_is_empty_and_delete_is_harmless() throws IOException {
        RestoreJournal journal = new RestoreJournal(tmp.resolve("none.json"));

        assertThat(journal.read()).isEmpty();
        journal.delete();
        assertThat(journal.exists()).isFalse();
    }

    @Test
    void when_the_version_is_unknown_then_read_fails_and_keeps_the_file() throws IOException {
        RestoreJournal journal = new RestoreJournal(tmp.resolve("j.json"));
        Files.writeString(journal.file(), "{\"version\":99,\"sysfsRoot\":\"/\",\"host\":\"h\",\"pid\":1,"
                + "\"createdEpochMillis\":0,\"policies\":[]}");

        assertThatThrownBy(journal::read).isInstanceOf(IOException.class).hasMessageContaining("version 99");
        assertThat(journal.exists()).isTrue();
    }

    @Test
    void when_roots_differ_then_their_default_journals_differ() {
        RestoreJournal system = RestoreJournal.inDirectory(tmp, SysfsRoot.SYSTEM);
        RestoreJournal a = RestoreJournal.inDirectory(tmp, SysfsRoot.of(tmp.resolve("a")));
        RestoreJournal b = RestoreJournal.inDirectory(tmp, SysfsRoot.of(tmp.resolve("b")));

        assertThat(system.file().getFileName()).hasToString("freq-journal.json");
        assertThat(a.file()).isNotEqualTo(b.file()).isNotEqualTo(system.file());
        assertThat(RestoreJournal.inDirectory(tmp, SysfsRoot.of(tmp.resolve("a"))).file()).isEqualTo(a.file());
    }
}
