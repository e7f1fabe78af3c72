package org.dfr.cli;

import static org.assertj.core.api.Assertions.assertThat;

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
            "com.hazelcast.internal.cluster.impl.operations.LockClusterStateOp"})
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
}
