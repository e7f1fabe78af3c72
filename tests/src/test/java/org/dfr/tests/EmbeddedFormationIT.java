package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.hazelcast.core.Hazelcast;
import java.util.List;
import org.dfr.harness.RunConfig;
import org.dfr.harness.Runner;
import org.dfr.recovery.ResilientRun;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.HazelcastConfigs;
import org.dfr.runtime.IterationHook;
import org.dfr.runtime.RankNode;
import org.dfr.runtime.RunFailedException;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Embedded members that do not form their cluster: the run fails with the formation's own kind after
 * a second attempt, and no member of either attempt is left running in this JVM.
 */
class EmbeddedFormationIT {

    @Test
    void when_theMembersDoNotFormTheirCluster_then_theRunFailsAsSuchAndNoMemberIsLeft() {
        // a join timeout of 1 ms: no attempt can see its members settle in time
        ClusterSettings impatient = new ClusterSettings().joinTimeoutMillis(1);

        RunFailedException failure = catchThrowableOfType(
                () -> new Runner(impatient).run(RunConfig.of(2, 2, 37, 29, 4, 2)), RunFailedException.class);

        assertThat(failure).isNotNull();
        assertThat(failure.kind()).isEqualTo(RunFailedException.Kind.CLUSTER_NOT_FORMED);
        assertThat(Hazelcast.getAllHazelcastInstances()).as("members left in this JVM").isEmpty();
    }

    @Test
    void when_aJoiningMemberCannotJoin_then_itTriesJoinAttemptsTimes_andFailsAsNotFormed() {
        // rank 1 of a 2x2 run whose founder never starts: every attempt gives up after Hazelcast's 1 s join limit
        RunConfig config = RunConfig.of(2, 2, 37, 29, 4, 2);
        ClusterSettings noFounder = new ClusterSettings().joinTimeoutMillis(1000)
                .basePort(HazelcastConfigs.freeBasePort(6, List.of("127.0.0.1")));
        Logger rankNodeLog = (Logger) LoggerFactory.getLogger(RankNode.class);
        ListAppender<ILoggingEvent> retries = new ListAppender<>();
        retries.start();
        rankNodeLog.addAppender(retries);
        try {
            RunFailedException failure = catchThrowableOfType(() -> RankNode.startJoining(1, config.runSpec(),
                    config.kernelSetup().kernel(), noFounder,
                    new ResilientRun(config.kernelSetup().kernel(), config.runSpec()).failureHandler(),
                    IterationHook.NONE), RunFailedException.class);

            assertThat(failure).isNotNull();
            assertThat(failure.kind()).isEqualTo(RunFailedException.Kind.CLUSTER_NOT_FORMED);
            assertThat(retries.list).extracting(ILoggingEvent::getFormattedMessage)
                    .filteredOn(m -> m.startsWith("rank 1: its member could not join"))
                    .hasSize(RankNode.JOIN_ATTEMPTS - 1)
                    .last().asString().endsWith("attempt 3 of 3");
            assertThat(Hazelcast.getAllHazelcastInstances()).as("members left in this JVM").isEmpty();
        } finally {
            rankNodeLog.detachAppender(retries);
        }
    }
}
