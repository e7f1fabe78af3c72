package org.dfr.power.sysfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writes to a fake tree's files (a regular file system), as a cap and its restore do. */
class NioSysfsFileSystemTest {

    private final NioSysfsFileSystem fs = NioSysfsFileSystem.INSTANCE;

    @Test
    void when_aFakeTreesFileIsWritten_then_itIsReplacedWholeWithItsNewlineAndPermissions(@TempDir Path dir)
            throws IOException {
        Path max = Files.writeString(dir.resolve("scaling_max_freq"), "2600000\n");
        Files.setPosixFilePermissions(max, PosixFilePermissions.fromString("rw-r--r--"));

        fs.write(max, "1200000");
        assertThat(Files.readString(max)).isEqualTo("1200000\n");
        fs.write(max, "2600000");

        // restored, the file is what it was: an untouched tree's files end in a newline
        assertThat(Files.readString(max)).isEqualTo("2600000\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(max))).isEqualTo("rw-r--r--");
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left).containsExactly(max);
        }
    }

    @Test
    void when_theFileIsMissingOrReadOnly_then_theWriteFailsAndNothingIsCreated(@TempDir Path dir) throws IOException {
        Path readOnly = Files.writeString(dir.resolve("cpuinfo_max_freq"), "2600000\n");
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r--r--r--"));

        assertThatThrownBy(() -> fs.write(dir.resolve("scaling_max_freq"), "1")).isInstanceOf(NoSuchFileException.class);
        // root may write a read-only file: the refusal shows only for another user
        assumeFalse(Files.isWritable(readOnly), "running as root");
        assertThatThrownBy(() -> fs.write(readOnly, "1")).isInstanceOf(AccessDeniedException.class);
        assertThat(Files.readString(readOnly)).isEqualTo("2600000\n");
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left).containsExactly(readOnly);
        }
    }
}
