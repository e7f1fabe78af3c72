package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.spi.FilterReply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.dfr.cli.logging.ConsoleLevelFilter;
import org.dfr.cli.logging.RankLogFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A campaign keeps the runtime's DEBUG log of the running trial and writes it only for a failing one. */
class TrialLogTest {

    private static final Logger RUNTIME = LoggerFactory.getLogger("org.dfr.runtime.SomePart");
    private static final Logger PARTITIONS = LoggerFactory.getLogger("com.hazelcast.internal.partition.impl.MigrationManager");
    private static final Logger HANDLED = LoggerFactory.getLogger("com.hazelcast.internal.partition.operation.PromotionCommitOperation");

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
    void when_aProcessesTrialFails_then_eachRankLogFollowsUnderItsRank() throws Exception {
        Path ranks = Files.createDirectory(dir.resolve("ranks"));
        Files.writeString(ranks.resolve("rank-10.log"), "respawned line\n");
        Files.writeString(ranks.resolve("rank-2.log"), "rank two line\n");
        Path file;
        try (TrialLog log = TrialLog.recording(dir, TrialLog.DEFAULT_MAX_LINES)) {
            RUNTIME.warn("rank {} exited with code 4", 1);
            file = log.keep(132, 0, RankLogFiles.in(ranks));
        }

        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(5);
        assertThat(lines.get(0)).contains("rank 1 exited with code 4");
        assertThat(lines.subList(1, 5)).containsExactly("==== rank 2's own log (rank-2.log) ====", "rank two line",
                "==== rank 10's own log (rank-10.log) ====", "respawned line");
    }

    @Test
    void when_hazelcastLogsInfo_then_theTrialKeepsItButNotWhatTheShippedConfigurationSilences() throws Exception {
        assertThat(PARTITIONS.isInfoEnabled()).as("the shipped configuration logs Hazelcast's ERRORs only").isFalse();
        Path file;
        try (TrialLog log = TrialLog.recording(dir, TrialLog.DEFAULT_MAX_LINES)) {
            PARTITIONS.info("fetching partition tables from cluster members");
            HANDLED.error("Promotion of 3 partitions failed");
            file = log.keep(88, 1314);
        }
        assertThat(Files.readAllLines(file)).singleElement().asString()
                .contains("INFO").contains("fetching partition tables");
        assertThat(PARTITIONS.isInfoEnabled()).as("Hazelcast's level is given back").isFalse();
    }

    @Test
    void when_recording_then_theConsolePrintsWhatItPrintedBefore() {
        ConsoleLevelFilter printed = new ConsoleLevelFilter(Level.WARN, Level.ERROR);
        assertThat(printed.decide(event("org.dfr.runtime.RankNode", Level.DEBUG))).isEqualTo(FilterReply.DENY);
        assertThat(printed.decide(event("org.dfr.runtime.RankNode", Level.WARN))).isEqualTo(FilterReply.NEUTRAL);
        assertThat(printed.decide(event("com.hazelcast.cluster", Level.INFO))).isEqualTo(FilterReply.DENY);
        assertThat(printed.decide(event("com.hazelcast.cluster", Level.WARN))).isEqualTo(FilterReply.DENY);
        assertThat(printed.decide(event("com.hazelcast.cluster", Level.ERROR))).isEqualTo(FilterReply.NEUTRAL);
    }

    private static LoggingEvent event(String logger, Level level) {
        LoggingEvent e = new LoggingEvent();
        e.setLoggerName(logger);
        e.setLevel(level);
        e.setMessage("m");
        return e;
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
