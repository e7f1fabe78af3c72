package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared-memory directories of launchers that were SIGKILLed are deleted by the next launcher. */
class SharedMemorySweepTest {

    @TempDir
    Path root;

    @Test
    void when_aDirectorysLauncherIsGone_then_itIsDeletedAndTheOthersStay() throws Exception {
        Process exited = new ProcessBuilder("true").start();
        exited.waitFor();
        long live = ProcessHandle.current().pid();
        Path orphan = Files.createDirectories(root.resolve(ProcessLauncher.SHARED_MEMORY_PREFIX + exited.pid() + "-123"));
        Files.writeString(Files.createDirectories(orphan.resolve("w3")).resolve("h1-p3"), "copy");
        Files.createDirectories(root.resolve(ProcessLauncher.SHARED_MEMORY_PREFIX + live + "-456"));
        Files.createDirectories(root.resolve(ProcessLauncher.SHARED_MEMORY_PREFIX + "789")); // not named by a launcher
        Files.createDirectories(root.resolve("someone-else"));

        ProcessLauncher.sweepOrphanedSharedMemory(root);

        assertThat(names()).containsExactlyInAnyOrder(ProcessLauncher.SHARED_MEMORY_PREFIX + live + "-456",
                ProcessLauncher.SHARED_MEMORY_PREFIX + "789", "someone-else");
    }

    private List<String> names() throws IOException {
        try (Stream<Path> all = Files.list(root)) {
            return all.map(p -> p.getFileName().toString()).toList();
        }
    }
}
