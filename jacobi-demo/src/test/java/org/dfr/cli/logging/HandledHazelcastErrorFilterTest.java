package org.dfr.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.spi.FilterReply;
import com.hazelcast.core.HazelcastException;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.spi.exception.RetryableHazelcastException;
import java.net.BindException;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

class HandledHazelcastErrorFilterTest {

    private final LoggerContext context = new LoggerContext();

    private FilterReply decide(String logger, Level level, Throwable thrown) {
        return decide(logger, level, "failed", thrown, "OFF");
    }

    private FilterReply decide(String logger, Level level, String message, Throwable thrown, String expectedErrors) {
        HandledHazelcastErrorFilter filter = new HandledHazelcastErrorFilter();
        filter.setExpectedErrors(expectedErrors);
        Logger log = context.getLogger(logger);
        return filter.decide(new LoggingEvent(Logger.class.getName(), log, level, message, thrown, null));
    }

    /** Hazelcast ignores the message itself; its sender left because its run ended or its rank died. */
    @Test
    void when_aPartitionMessageComesFromAMemberThatLeft_then_theErrorIsDroppedUnlessAskedFor() {
        String logged = "[127.0.0.1]:44441 [dfr-6801563a] [5.5.0] Received completed migrations from an unknown member!"
                + " => Sender: [127.0.0.1]:44435! ";
        String partitions = "com.hazelcast.internal.partition.impl.InternalPartitionServiceImpl";
        assertThat(decide(partitions, Level.ERROR, logged, null, "OFF")).isEqualTo(FilterReply.DENY);
        assertThat(decide(partitions, Level.ERROR, logged, null, "ERROR")).isEqualTo(FilterReply.NEUTRAL);
        assertThat(decide(partitions, Level.ERROR, "Partition table version 7 is stale", null, "OFF"))
                .isEqualTo(FilterReply.NEUTRAL);
    }

    /** The runtime forms the cluster again with a warning of its own, or the rank fails in a line of its own. */
    @Test
    void when_aMemberCouldNotJoin_then_hazelcastsErrorIsDroppedUnlessAskedFor() {
        String logged = "[127.0.0.1]:43140 [dfr-f58af289] [5.5.0] Could not join cluster. Shutting down now!";
        String node = "com.hazelcast.instance.impl.Node";
        assertThat(decide(node, Level.ERROR, logged, null, "OFF")).isEqualTo(FilterReply.DENY);
        assertThat(decide(node, Level.ERROR, logged, null, "ERROR")).isEqualTo(FilterReply.NEUTRAL);
        assertThat(decide(node, Level.ERROR, "Node could not start", null, "OFF")).isEqualTo(FilterReply.NEUTRAL);
    }

    /** The survivors refuse a claim of a member that died with another: what keeps them one cluster. */
    @Test
    void when_aRemovedMemberClaimsMastership_then_theRefusalIsDroppedUnlessAskedFor() {
        String logged = "[127.0.0.1]:31834 [dfr-bc821fad] [5.5.0] [127.0.0.1]:31831 claims mastership but it is not a member!";
        String op = "com.hazelcast.internal.cluster.impl.operations.FetchMembersViewOp";
        IllegalArgumentException thrown = new IllegalArgumentException("[127.0.0.1]:31831 claims mastership but it is not"
                + " a member!");
        assertThat(decide(op, Level.ERROR, logged, thrown, "OFF")).isEqualTo(FilterReply.DENY);
        assertThat(decide(op, Level.ERROR, logged, thrown, "ERROR")).isEqualTo(FilterReply.NEUTRAL);
        assertThat(decide(op, Level.ERROR, "[127.0.0.1]:31831 claims mastership", thrown, "OFF"))
                .isEqualTo(FilterReply.NEUTRAL);
    }

    @Test
    void when_hazelcastErrsBecauseAMemberStopped_then_theErrorIsDropped() {
        assertThat(decide("com.hazelcast.internal.server.tcp", Level.ERROR,
                new RejectedExecutionException("Executor[hz:io] was shut down"))).isEqualTo(FilterReply.DENY);
        assertThat(decide("com.hazelcast.spi.impl.operationservice", Level.ERROR,
                new IllegalStateException("wrapped", new RetryableHazelcastException(
                        "HazelcastInstance[[127.0.0.1]:5701] is not active!")))).isEqualTo(FilterReply.DENY);
        assertThat(decide("com.hazelcast.internal.partition", Level.ERROR,
                new HazelcastInstanceNotActiveException())).isEqualTo(FilterReply.DENY);
        // the invocation monitor's task, refused by its own pool as the member stops (an experiment's console)
        assertThat(decide("com.hazelcast.spi.impl.operationservice.impl.InvocationMonitor", Level.ERROR,
                new RejectedExecutionException("Task ScheduledFutureTask@6ad835d2[Not completed] rejected from"
                        + " java.util.concurrent.ScheduledThreadPoolExecutor@19973d3a[Shutting down, pool size = 1,"
                        + " active threads = 1, queued tasks = 1, completed tasks = 18]"))).isEqualTo(FilterReply.DENY);
    }

    /** The runtime says it in one line of its own: "rank R could not join the cluster: Cannot bind ...". */
    @Test
    void when_hazelcastCannotBindItsPort_then_theErrorIsDropped() {
        assertThat(decide("com.hazelcast.instance.AddressPicker", Level.ERROR,
                new HazelcastException("Cannot bind to a given address: /127.0.0.1. Hazelcast cannot start. Port [5920]"
                        + " is already in use and auto-increment is disabled.",
                        new BindException("Address already in use")))).isEqualTo(FilterReply.DENY);
        assertThat(decide("com.hazelcast.instance.AddressPicker", Level.ERROR,
                new HazelcastException("Cannot bind"))).isEqualTo(FilterReply.NEUTRAL);
    }

    @Test
    void when_anotherErrorOrAnotherLoggerOrAWarning_then_itPasses() {
        assertThat(decide("com.hazelcast.internal.server.tcp", Level.ERROR,
                new RejectedExecutionException("queue full"))).isEqualTo(FilterReply.NEUTRAL);
        assertThat(decide("org.dfr.runtime.RankNode", Level.ERROR,
                new RejectedExecutionException("Executor[hz:io] was shut down"))).isEqualTo(FilterReply.NEUTRAL);
        assertThat(decide("com.hazelcast.internal.server.tcp", Level.WARN,
                new HazelcastInstanceNotActiveException())).isEqualTo(FilterReply.NEUTRAL);
    }
}
