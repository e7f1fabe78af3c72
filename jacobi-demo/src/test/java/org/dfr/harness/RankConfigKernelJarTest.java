package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.dfr.runtime.ClusterSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A rank started by hand on a host its kernel jar was not copied to is told so, not to write its file again. */
class RankConfigKernelJarTest {

    @TempDir
    Path tmp;

    @Test
    void when_theKernelJarIsNotOnThisHost_then_theErrorSaysToCopyIt_notToWriteTheFileAgain() throws IOException {
        Path file = tmp.resolve("run.json");
        RankProcessConfig.of(RunConfig.of(2, 2, 16, 16, 4, 2).withMode(Mode.PROCESSES), new ClusterSettings(), 40_000,
                60_000, -1).write(file);
        ObjectNode json = (ObjectNode) new ObjectMapper().readTree(file.toFile());
        Path missing = tmp.resolve("elsewhere/kernel.jar");
        ((ObjectNode) json.get("run")).putArray("kernelJars").add(missing.toString());
        new ObjectMapper().writeValue(file.toFile(), json);

        assertThatThrownBy(() -> RankProcessConfig.read(file))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage("rank configuration " + file + " names kernel jar " + missing + ", which is not on this host"
                        + " (or not readable): copy it to that same path on every host");
    }
}
