package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileCheckpointsDescribeTest {

    private static void files(Path dir, int count) throws IOException {
        Files.createDirectories(dir);
        for (int p = 0; p < count; p++) {
            Files.writeString(dir.resolve(p + ".ckpt"), "x");
        }
    }

    @Test
    void when_aRunStoppedWhileWritingALevel_then_thatIterationIsCalledIncomplete(@TempDir Path root) throws IOException {
        files(root.resolve("mine/10"), 5); // stopped after 5 of 8 files
        files(root.resolve("mine/20"), 8);
        files(root.resolve("other/30"), 2);

        String described = FileCheckpoints.describe(root, "mine", 8);

        assertThat(described).contains("this problem at iterations [10 (incomplete: 5 of 8 partitions), 20]")
                .contains("other at iterations [30]");
    }
}
