package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dfr.runtime.CheckpointFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileCheckpointsDescribeTest {

    /** {@code count} valid partition files of {@code iteration} in {@code dir}. */
    private static void files(Path dir, int iteration, int count) throws IOException {
        Files.createDirectories(dir);
        for (int p = 0; p < count; p++) {
            CheckpointFile.write(dir.resolve(p + CheckpointFile.SUFFIX), p, iteration, new double[] {p, iteration});
        }
    }

    @Test
    void when_aRunStoppedWhileWritingALevel_then_thatIterationIsCalledIncomplete(@TempDir Path root) throws IOException {
        files(root.resolve("mine/10"), 10, 5); // stopped after 5 of 8 files
        files(root.resolve("mine/20"), 20, 8);
        files(root.resolve("mine/30"), 30, 8);
        Files.writeString(root.resolve("mine/30/7.ckpt"), "cut short"); // all there, one invalid
        files(root.resolve("mine/007"), 7, 8); // named oddly, still listed as what it is
        files(root.resolve("other/30"), 30, 2);

        String described = FileCheckpoints.describe(root, "mine", 8);

        assertThat(described).contains("this problem at iterations [7, 10 (incomplete: 5 of 8 partitions valid), 20,"
                        + " 30 (incomplete: 7 of 8 partitions valid)]")
                .contains("other at iterations [30]");
    }
}
