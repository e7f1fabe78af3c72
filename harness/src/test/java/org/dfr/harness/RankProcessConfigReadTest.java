package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RankProcessConfigReadTest {

    @TempDir
    Path tmp;

    @Test
    void when_theConfigurationIsCutShort_then_theErrorIsOneLineNamingTheFileAndWhere() throws IOException {
        Path file = Files.writeString(tmp.resolve("run.json"), "{\"run\": {\n");

        assertThatThrownBy(() -> RankProcessConfig.read(file))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageStartingWith("cannot read rank configuration " + file + " (line 2, column 1): ")
                .hasMessageEndingWith("; write it again with dfr run ... --write-rank-config")
                .hasMessageNotContaining("\n");
    }
}
