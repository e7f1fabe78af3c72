package org.dfr.power;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {

    @TempDir
    Path tmp;

    @Test
    void when_a_file_is_written_then_it_gets_the_mode_of_any_file_the_user_writes() throws IOException {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
        Path report = tmp.resolve("out/report.json");

        Path plain = Files.writeString(Files.createDirectories(report.getParent()).resolve("plain.csv"), "x");

        AtomicFiles.writeString(report, "{}");

        assertThat(report).hasContent("{}");
        // what Files.write gives under this user's umask, not createTempFile's rw-------
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(report)))
                .isEqualTo(PosixFilePermissions.toString(Files.getPosixFilePermissions(plain)));
        Files.delete(plain);
        try (var left = Files.list(report.getParent())) {
            assertThat(left).containsExactly(report);
        }
    }

    @Test
    void when_the_content_fails_then_the_old_file_stands_and_no_temporary_file_is_left() throws IOException {
        Path file = tmp.resolve("runs.csv");
        Files.writeString(file, "old");

        assertThatThrownBy(() -> AtomicFiles.write(file, t -> {
            Files.writeString(t, "half");
            throw new IOException("disk full");
        })).hasMessage("disk full");

        assertThat(file).hasContent("old");
        try (var left = Files.list(tmp)) {
            assertThat(left).containsExactly(file);
        }
    }
}
