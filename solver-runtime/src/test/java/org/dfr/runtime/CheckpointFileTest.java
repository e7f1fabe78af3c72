package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointFileTest {

    @TempDir
    Path dir;

    private static double[] state(int n, double seed) {
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            s[i] = seed + i / 7.0 + (i % 3 == 0 ? -0.0 : Math.ulp(seed + i));
        }
        s[0] = Double.NaN;
        return s;
    }

    @Test
    void roundTripIsBitExact() throws Exception {
        double[] s = state(1000, 3.25);
        Path file = CheckpointFile.path(dir, "key", 40, 3);
        CheckpointFile.write(file, 3, 40, s);
        assertThat(Files.size(file)).isEqualTo(20 + 8 * 1000 + 4);
        double[] back = CheckpointFile.read(file, 3, 40);
        assertThat(Arrays.equals(back, s)).isTrue();
        for (int i = 0; i < s.length; i++) {
            assertThat(Double.doubleToRawLongBits(back[i])).isEqualTo(Double.doubleToRawLongBits(s[i]));
        }
        try (var listing = Files.list(file.getParent())) {
            assertThat(listing.map(p -> p.getFileName().toString()).toList()).containsExactly("3.ckpt");
        }
    }

    @Test
    void aFlippedByteAnywhereIsDetected() throws Exception {
        Path file = CheckpointFile.path(dir, "key", 10, 0);
        CheckpointFile.write(file, 0, 10, state(64, 1));
        byte[] good = Files.readAllBytes(file);
        for (int at : new int[] {0, 5, 9, 13, 17, 20, 100, good.length - 1}) {
            byte[] bad = good.clone();
            bad[at] ^= 0x10;
            Files.write(file, bad);
            assertThatThrownBy(() -> CheckpointFile.read(file, 0, 10))
                    .as("byte %d flipped", at)
                    .isInstanceOf(CheckpointFile.InvalidCheckpointException.class)
                    .hasMessageContaining(file.toString());
        }
        byte[] bad = good.clone();
        bad[200] ^= 1;
        Files.write(file, bad);
        assertThatThrownBy(() -> CheckpointFile.read(file, 0, 10)).hasMessageContaining("checksum mismatch");
    }

    @Test
    void aTruncatedFileIsDetected() throws Exception {
        Path file = CheckpointFile.path(dir, "key", 10, 0);
        CheckpointFile.write(file, 0, 10, state(64, 1));
        byte[] good = Files.readAllBytes(file);
        for (int length : new int[] {0, 10, 24, good.length - 8, good.length - 1}) {
            Files.write(file, Arrays.copyOf(good, length));
            assertThatThrownBy(() -> CheckpointFile.read(file, 0, 10))
                    .as("truncated to %d bytes", length)
                    .isInstanceOf(CheckpointFile.InvalidCheckpointException.class)
                    .hasMessageContaining("truncated");
        }
    }

    @Test
    void aFileOfAnotherPartitionOrIterationIsRejected() throws Exception {
        Path file = CheckpointFile.path(dir, "key", 10, 1);
        CheckpointFile.write(file, 2, 10, state(8, 1));
        assertThatThrownBy(() -> CheckpointFile.read(file, 1, 10)).hasMessageContaining("holds partition 2");
    }

    @Test
    void newestCompleteSkipsPartialAndCorruptIterations() throws Exception {
        for (int c : new int[] {10, 20, 30, 40}) {
            for (int p = 0; p < 3; p++) {
                if (c == 40 && p == 2) {
                    continue; // partial
                }
                CheckpointFile.write(CheckpointFile.path(dir, "key", c, p), p, c, state(16, c + p));
            }
        }
        Path corrupt = CheckpointFile.path(dir, "key", 30, 1);
        byte[] bytes = Files.readAllBytes(corrupt);
        bytes[40] ^= 1;
        Files.write(corrupt, bytes);
        List<String> skipped = new ArrayList<>();
        assertThat(CheckpointFile.newestComplete(dir, "key", 3, 1000, skipped::add)).isEqualTo(20);
        assertThat(skipped).hasSize(2);
        assertThat(skipped.get(0)).contains("iteration 40").contains("2.ckpt").contains("missing");
        assertThat(skipped.get(1)).contains("iteration 30").contains("1.ckpt").contains("checksum");
        // only iterations before the end of the run count
        assertThat(CheckpointFile.newestComplete(dir, "key", 3, 20, s -> { })).isEqualTo(10);
        assertThat(CheckpointFile.newestComplete(dir, "other", 3, 1000, s -> { })).isEqualTo(-1);
        assertThatThrownBy(() -> CheckpointFile.read(CheckpointFile.path(dir, "key", 50, 0), 0, 50))
                .isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void fileIterationsAreMultiplesOfTheFileInterval() {
        DiskCheckpoints disk = new DiskCheckpoints(dir, 3, "key", null, -1);
        assertThat(disk.isFileIteration(0, 5)).isFalse();
        assertThat(disk.isFileIteration(5, 5)).isFalse();
        assertThat(disk.isFileIteration(15, 5)).isTrue();
        assertThat(disk.isFileIteration(30, 5)).isTrue();
        assertThat(DiskCheckpoints.NONE.isFileIteration(15, 5)).isFalse();
        assertThatThrownBy(() -> new DiskCheckpoints(dir, 0, "key", null, -1)).hasMessageContaining(">= 1");
    }
}
