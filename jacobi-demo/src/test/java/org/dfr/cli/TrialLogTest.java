package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A campaign keeps the runtime's DEBUG log of the running trial and writes it only for a failing one. */
class TrialLogTest {

    private static final Logger RUNTIME = LoggerFactory.getLogger("org.dfr.runtime.SomePart");

    @TempDir
    Path dir;

    @Test
    void when_aTrialFails_then_itsDebugLinesSinceTheLastTrialAreWritten() throws Exception {
        assertThat(RUNTIME.isDebugEnabled()).as("the shipped configuration logs WARN and above").isFalse();
        Path file;
        try (TrialLog log = TrialLog.recording(dir, TrialLog.DEFAULT_MAX_LINES)) {
            RUNTIME.debug("status of epoch {} sent", 1);
            log.clear(); // the previous trial passed
            RUNTIME.debug("waiting for the status of rank {}", 2);
            RUNTIME.warn("rank {} failed", 4);
            file = log.keep(87, 536);
        }

        assertThat(file).isEqualTo(dir.resolve("campaign-87-trial-536.log"));
        assertThat(Files.readAllLines(file))
                .hasSize(2)
                .anySatisfy(l -> assertThat(l).contains("DEBUG").contains("waiting for the status of rank 2"))
                .anySatisfy(l -> assertThat(l).contains("WARN").contains("rank 4 failed"))
                .noneMatch(l -> l.contains("epoch 1"));
        try (var files = Files.list(dir)) {
            assertThat(files).as("no temporary file left").containsExactly(file);
        }
    }

    @Test
    void when_closed_then_theRuntimeLogsAtItsConfiguredLevelAgain() {
        try (TrialLog log = TrialLog.recording(dir, 10)) {
            assertThat(RUNTIME.isDebugEnabled()).isTrue();
        }
        assertThat(RUNTIME.isDebugEnabled()).isFalse();
        assertThat(RUNTIME.isWarnEnabled()).isTrue();
    }

    @Test
    void when_moreLinesThanKept_then_theNewestAreWritten() throws Exception {
        Path file;
        try (TrialLog log = TrialLog.recording(dir, 3)) {
            for (int i = 0; i < 10; i++) {
                RUNTIME.debug("line {}", i);
            }
            file = log.keep(1, 0);
        }
        assertThat(Files.readAllLines(file)).hasSize(3)
                .allSatisfy(l -> assertThat(l).containsAnyOf("line 7", "line 8", "line 9"));
    }
}
