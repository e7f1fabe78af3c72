package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assumptions.assumeThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.hazelcast.core.Hazelcast;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.dfr.harness.RunConfig;
import org.dfr.harness.Runner;
import org.dfr.jacobi.BlockDecomposition;
import org.dfr.jacobi.JacobiKernel;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.recovery.ResilientRun;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.EmbeddedCluster;
import org.dfr.runtime.HazelcastConfigs;
import org.dfr.runtime.InJvmDeaths;
import org.dfr.runtime.IterationHook;
import org.dfr.runtime.PartitionKernel;
import org.dfr.runtime.RankNode;
import org.dfr.runtime.RunFailedException;
import org.dfr.runtime.RunSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.slf4j.LoggerFactory;

/**
 * Embedded members that do not form their cluster: the run fails with the formation's own kind after
 * a second attempt, and no member of either attempt is left running in this JVM.
 */
@Isolated // looks at every Hazelcast member of this JVM
class EmbeddedFormationIT {

    @Test
    void when_theMembersDoNotFormTheirCluster_then_theRunFailsAsSuchAndNoMemberIsLeft() {
        // a join timeout of 1 ms: no attempt can see its members settle in time
        ClusterSettings impatient = new ClusterSettings().joinTimeoutMillis(1);

        RunFailedException failure = catchThrowableOfType(RunFailedException.class,
                () -> new Runner(impatient).run(RunConfig.of(2, 2, 37, 29, 4, 2)));

        assertThat(failure).isNotNull();
        assertThat(failure.kind()).isEqualTo(RunFailedException.Kind.CLUSTER_NOT_FORMED);
        assertThat(Hazelcast.getAllHazelcastInstances()).as("members left in this JVM").isEmpty();
    }

    /**
     * Members join {@link EmbeddedCluster#JOINING_AT_ONCE} at a time; rank 1's kernel throws as it builds its initial
     * state (after its join). The members still waiting for their turn do not start: the run fails naming rank 1's
     * start, and no member is left.
     * <pre>
     *   rank 0 founds; ranks 1..J join (J at once), rank 1 fails; ranks J+1..3J wait their turn -> not started
     * </pre>
     */
    @Test
    void when_aStartFailsWhileOthersWaitTheirTurn_then_theWaitingOnesDoNotStart() {
        int atOnce = EmbeddedCluster.JOINING_AT_ONCE;
        assumeThat(atOnce).as("members join 2 a core at a time: 3 waves of more than 8 is too many members here")
                .isLessThanOrEqualTo(8);
        int members = 3 * atOnce + 1;
        BlockDecomposition dec = new BlockDecomposition(new JacobiProblem(8 * members, 8), members, 1);
        JacobiKernel jacobi = new JacobiKernel(dec);
        Set<Integer> built = ConcurrentHashMap.newKeySet();
        PartitionKernel failingAtRank1 = new DelegatingKernel(jacobi) {
            @Override
            public double[] initialState(int partition) {
                built.add(partition);
                if (partition == 1) {
                    throw new IllegalStateException("rank 1's kernel fails to build its state");
                }
                return jacobi.initialState(partition);
            }
        };
        RunSpec spec = new RunSpec(members, 4, 2, 2, 0);

        RunFailedException failure = catchThrowableOfType(RunFailedException.class, () -> new EmbeddedCluster(spec,
                failingAtRank1, new ClusterSettings(), new ResilientRun(jacobi, spec).failureHandler(),
                IterationHook.NONE).run());

        assertThat(failure).isNotNull();
        assertThat(failure).hasMessageContaining("rank 1's start");
        // without the stop, every member starts (and joins) before the failure is thrown
        assertThat(built).as("members that started and built their state, of %d", members).hasSizeLessThan(members);
        assertThat(Hazelcast.getAllHazelcastInstances()).as("members left in this JVM").isEmpty();
    }

    @Test
    void when_theFounderIsNotThere_then_aJoiningMemberWaitsOutTheJoinLimitOnlyOnce_andFailsAsNotFormed() {
        // rank 1 of a 2x2 run whose founder never starts: an attempt that waited out Hazelcast's join limit is not
        // tried again (by hand, with the default 60 s, three attempts took three minutes). Hazelcast now and then
        // gives up at once instead ("Node failed to start!"), and such a quick failure is tried again: so the bound is
        // on the time, under three limits (two quick failures, under half a limit each, and one limit waited out)
        RunConfig config = RunConfig.of(2, 2, 37, 29, 4, 2);
        long joinMillis = 4000;
        ClusterSettings noFounder = new ClusterSettings().joinTimeoutMillis(joinMillis)
                .basePort(HazelcastConfigs.freeBasePort(6, List.of("127.0.0.1")));

        long start = System.nanoTime();
        List<String> retries = joinRetries(() -> {
            RunFailedException failure = catchThrowableOfType(RunFailedException.class,
                    () -> startJoining(config, noFounder));
            assertThat(failure).isNotNull();
            assertThat(failure.kind()).isEqualTo(RunFailedException.Kind.CLUSTER_NOT_FORMED);
        });
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(retries).hasSizeLessThan(RankNode.JOIN_ATTEMPTS);
        assertThat(took).as("attempts that waited out the join limit are not tried again (retries: %s)", retries)
                .isLessThan(Duration.ofMillis(RankNode.JOIN_ATTEMPTS * joinMillis - joinMillis / 4));
        assertThat(Hazelcast.getAllHazelcastInstances()).as("members left in this JVM").isEmpty();
    }

    @Test
    void when_aJoiningMembersPortsAreTaken_then_itFailsAtOnce_triesJoinAttemptsTimes_andFailsAsNotFormed()
            throws IOException {
        // every port a joining rank may bind (base + 1 .. base + members + 2) is held: each attempt fails at once
        RunConfig config = RunConfig.of(2, 2, 37, 29, 4, 2);
        int base = HazelcastConfigs.freeBasePort(7, List.of("127.0.0.1"));
        ClusterSettings portsTaken = new ClusterSettings().joinTimeoutMillis(30_000).basePort(base);
        List<ServerSocket> held = new ArrayList<>();
        try {
            for (int port = base + 1; port <= base + 6; port++) {
                held.add(new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1")));
            }
            List<String> retries = joinRetries(() -> {
                RunFailedException failure = catchThrowableOfType(RunFailedException.class,
                        () -> startJoining(config, portsTaken));
                assertThat(failure).isNotNull();
                assertThat(failure.kind()).isEqualTo(RunFailedException.Kind.CLUSTER_NOT_FORMED);
            });

            assertThat(retries).hasSize(RankNode.JOIN_ATTEMPTS - 1).last().asString().endsWith("attempt 3 of 3");
            assertThat(Hazelcast.getAllHazelcastInstances()).as("members left in this JVM").isEmpty();
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
    }

    /*
     * Members started once (embedded mode) forming a 2x2 cluster; rank 1 leaves before ranks 2 and 3 join:
     *
     *   rank 0  up ---- waits for 4 members ---------------> fails at once: "ranks [1] left the cluster while it formed"
     *   rank 1  up ---- X
     *   rank 2, 3       (never start)
     *
     * Without formingOnce the wait runs out its limit and fails without naming rank 1 (campaign seed 136, trial 319:
     * two formations each waited out 60 s for a member Hazelcast had removed).
     */
    @Test
    void when_aMemberLeavesWhileMembersStartedOnceForm_then_theWaitFailsNamingIt() {
        RunConfig config = RunConfig.of(2, 2, 37, 29, 4, 2);
        ClusterSettings settings = new ClusterSettings()
                .basePort(HazelcastConfigs.freeBasePort(6, List.of("127.0.0.1")));
        RankNode founder = null;
        RankNode leaving = null;
        try {
            founder = start(0, config, settings);
            leaving = start(1, config, settings);
            founder.awaitClusterSize(2, 30_000);
            founder.formingOnce(true);
            leaving.shareJvmWith(new InJvmDeaths());
            leaving.killAbruptly();

            RankNode waiting = founder;
            RunFailedException failure = catchThrowableOfType(RunFailedException.class,
                    () -> waiting.awaitClusterSize(config.runSpec().memberCount(), 20_000));

            assertThat(failure).isNotNull();
            assertThat(failure.kind()).isEqualTo(RunFailedException.Kind.CLUSTER_NOT_FORMED);
            assertThat(failure.getMessage()).contains("ranks [1] left the cluster while it formed");
        } finally {
            for (RankNode node : new RankNode[] {founder, leaving}) {
                if (node != null && !node.isKilled()) {
                    node.shareJvmWith(new InJvmDeaths());
                    node.killAbruptly();
                }
            }
        }
        assertThat(Hazelcast.getAllHazelcastInstances()).as("members left in this JVM").isEmpty();
    }

    private static RankNode start(int rank, RunConfig config, ClusterSettings settings) {
        return RankNode.start(rank, config.runSpec(), config.kernelSetup().kernel(), settings,
                new ResilientRun(config.kernelSetup().kernel(), config.runSpec()).failureHandler(), IterationHook.NONE);
    }

    private static RankNode startJoining(RunConfig config, ClusterSettings settings) {
        return RankNode.startJoining(1, config.runSpec(), config.kernelSetup().kernel(), settings,
                new ResilientRun(config.kernelSetup().kernel(), config.runSpec()).failureHandler(), IterationHook.NONE);
    }

    /** The "could not join; attempt N of M" lines {@link RankNode} logs while {@code action} runs. */
    private static List<String> joinRetries(Runnable action) {
        Logger rankNodeLog = (Logger) LoggerFactory.getLogger(RankNode.class);
        ListAppender<ILoggingEvent> lines = new ListAppender<>();
        lines.start();
        rankNodeLog.addAppender(lines);
        try {
            action.run();
        } finally {
            rankNodeLog.detachAppender(lines);
        }
        return lines.list.stream().map(ILoggingEvent::getFormattedMessage)
                .filter(m -> m.startsWith("rank 1: its member could not join")).toList();
    }
}
