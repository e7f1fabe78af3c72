package org.dfr.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.spi.FilterReply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ranks' log configuration: a file per rank with the runtime's DEBUG lines, a console as without it. */
class RankLogFilesTest {

    @TempDir
    Path dir;

    @Test
    void when_aRankRunsWithTheRankLogConfiguration_then_itsFileHasTheDebugLinesAndTheConsoleOnlyWarnings()
            throws Exception {
        LoggerContext context = new LoggerContext();
        context.setMDCAdapter(new LogbackMDCAdapter()); // a rank's context has SLF4J's; this one is made by hand
        context.putProperty(RankLogFiles.DIRECTORY_PROPERTY, dir.toString());
        context.putProperty("dfr.rank", "5");
        JoranConfigurator configurator = new JoranConfigurator();
        configurator.setContext(context);
        configurator.doConfigure(RankLogFiles.class.getClassLoader().getResource(RankLogFiles.CONFIGURATION));
        Logger runtime = context.getLogger("org.dfr.runtime.RankNode");
        Logger partitions = context.getLogger("com.hazelcast.internal.partition.impl.MigrationManager");
        Logger handled = context.getLogger("com.hazelcast.internal.partition.operation.PromotionCommitOperation");

        runtime.debug("rank 5: status of epoch 1 sent");
        partitions.info("fetching partition tables");
        partitions.warn("a Hazelcast warning");
        handled.error("Promotion of 3 partitions failed");
        Appender<ILoggingEvent> console = context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR");
        context.stop();

        assertThat(RankLogFiles.in(dir)).containsExactly(dir.resolve("rank-5.log"));
        List<String> lines = Files.readAllLines(dir.resolve("rank-5.log"));
        assertThat(lines).hasSize(3)
                .anySatisfy(l -> assertThat(l).contains("DEBUG").contains("status of epoch 1 sent"))
                .anySatisfy(l -> assertThat(l).contains("INFO").contains("fetching partition tables"))
                .anySatisfy(l -> assertThat(l).contains("WARN").contains("a Hazelcast warning"));
        assertThat(console.getFilterChainDecision(event(runtime, Level.DEBUG))).isEqualTo(FilterReply.DENY);
        assertThat(console.getFilterChainDecision(event(runtime, Level.WARN))).isEqualTo(FilterReply.NEUTRAL);
        assertThat(console.getFilterChainDecision(event(partitions, Level.WARN)))
                .as("Hazelcast prints its errors only, as without the file").isEqualTo(FilterReply.DENY);
        assertThat(console.getFilterChainDecision(event(partitions, Level.ERROR))).isEqualTo(FilterReply.NEUTRAL);
    }

    @Test
    void when_theLaunchersOptionsAreMade_then_theyNameTheConfigurationAndTheDirectory() {
        assertThat(RankLogFiles.jvmOptions(dir)).containsExactly("-Dlogback.configurationFile=dfr-rank-log.xml",
                "-Ddfr.rankLogDirectory=" + dir.toAbsolutePath());
    }

    @Test
    void when_hazelcastIsShownMoreThanTheRest_then_theConsoleShowsItsInfoLinesAsTheShippedConfigurationDoes() {
        // -Ddfr.hazelcast.log=INFO with dfr.log at WARN: logback.xml's Hazelcast logger level overrides the root's
        ConsoleLevelFilter filter = new ConsoleLevelFilter(Level.WARN, Level.INFO);
        LoggerContext context = new LoggerContext();
        Logger hazelcast = context.getLogger("com.hazelcast.internal.cluster.ClusterService");
        Logger runtime = context.getLogger("org.dfr.runtime.RankNode");

        assertThat(filter.decide(event(hazelcast, Level.INFO))).isEqualTo(FilterReply.NEUTRAL);
        assertThat(filter.decide(event(hazelcast, Level.DEBUG))).isEqualTo(FilterReply.DENY);
        assertThat(filter.decide(event(runtime, Level.INFO))).isEqualTo(FilterReply.DENY);
    }

    private static LoggingEvent event(Logger logger, Level level) {
        return new LoggingEvent(Logger.class.getName(), logger, level, "message", null, null);
    }
}
