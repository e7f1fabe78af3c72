package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.spi.FilterReply;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * The shipped {@code logback.xml} (the one the dfr JVM and every rank JVM read) silences exactly the
 * Hazelcast errors that the runtime expects and handles, and nothing else of Hazelcast's errors: a
 * successful processes run printed "Promotion of N partitions failed" at ERROR level (issue #16's audit).
 */
class LogConfigTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            "com.hazelcast.internal.partition.operation.PromotionCommitOperation",
            "com.hazelcast.internal.partition.impl.MigrationManagerImpl",
            "com.hazelcast.internal.cluster.impl.operations.LockClusterStateOp",
            "com.hazelcast.internal.cluster.impl.operations.CommitClusterStateOp"})
    void when_hazelcastLogsAnExpectedAndHandledError_then_itIsNotPrinted(String logger) {
        assertThat(LoggerFactory.getLogger(logger).isErrorEnabled()).isFalse();
    }

    @Test
    void when_anyOtherHazelcastPartLogsAnError_then_itIsPrinted() {
        assertThat(LoggerFactory.getLogger("com.hazelcast.internal.partition.operation.MigrationOperation")
                .isErrorEnabled()).isTrue();
        assertThat(LoggerFactory.getLogger("com.hazelcast.instance.impl.Node").isErrorEnabled()).isTrue();
        assertThat(LoggerFactory.getLogger("com.hazelcast.instance.impl.Node").isWarnEnabled())
                .as("Hazelcast's warnings stay off by default").isFalse();
    }

    @Test
    void when_hazelcastLogsAnErrorCausedByItsStoppedMember_then_itIsNotPrinted() {
        Throwable stopped = new ExecutionException(new HazelcastInstanceNotActiveException());

        assertThat(stderr().getFilterChainDecision(error("com.hazelcast.internal.partition.InternalPartitionService",
                stopped))).isEqualTo(FilterReply.DENY);
    }

    @Test
    void when_hazelcastLogsAnyOtherError_then_theFilterLetsItThrough() {
        assertThat(stderr().getFilterChainDecision(error("com.hazelcast.internal.partition.InternalPartitionService",
                new ExecutionException(new IllegalStateException("a real failure"))))).isEqualTo(FilterReply.NEUTRAL);
        assertThat(stderr().getFilterChainDecision(error("org.dfr.runtime.RankNode",
                new HazelcastInstanceNotActiveException()))).as("dfr's own errors always pass")
                .isEqualTo(FilterReply.NEUTRAL);
    }

    private static Appender<ILoggingEvent> stderr() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Appender<ILoggingEvent> appender = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("STDERR");
        assertThat(appender).as("the shipped logback.xml's appender").isNotNull();
        return appender;
    }

    private static ILoggingEvent error(String logger, Throwable t) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Logger log = context.getLogger(logger);
        return new LoggingEvent(Logger.class.getName(), log, Level.ERROR, "Failed to fetch partition table", t, null);
    }
}
