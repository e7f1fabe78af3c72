package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.dfr.harness.Mode;
import org.dfr.harness.ProcessLauncher;
import org.dfr.harness.RankProcessListener;
import org.dfr.harness.Replacement;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.jacobi.SequentialJacobi;
import org.dfr.recovery.FaultPlan;
import org.dfr.runtime.ClusterSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code --replacement respawn}: a rank process SIGKILLed by the fault plan is replaced by a fresh
 * process the launcher starts at once (rank id = dead rank + 8, on the dead rank's host); it joins
 * the running cluster, adopts the lost partition from the replicated checkpoint, and the cone is
 * recomputed as with a spare. Checked: the digest of the failure-free run, the adoption by the fresh
 * rank (not by a survivor), the cone's work, and no process left.
 */
@Isolated // starts rank processes
class RespawnIT {

    private static final int NX = 37;
    private static final int NY = 29;
    private static final int ITERATIONS = 10;
    private static final long TEST_RUN_TIMEOUT_MILLIS = 120_000;
    /** C1 only: rank JVMs start about a third faster; the tiny kernel does not need C2. */
    private static final List<String> FAST_START = List.of("-XX:TieredStopAtLevel=1");

    private static String failureFreeDigest;

    private final Map<Integer, ProcessHandle> children = new ConcurrentHashMap<>();
    private final Map<Integer, Integer> exits = new ConcurrentHashMap<>();

    @BeforeAll
    static void sequentialReference() {
        SequentialJacobi reference = new SequentialJacobi(new JacobiProblem(NX, NY));
        reference.iterate(ITERATIONS);
        failureFreeDigest = reference.digest();
    }

    @AfterEach
    void noRankProcessOutlivesTheRun() {
        assertThat(children).isNotEmpty();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(children.values())
                .allSatisfy(p -> assertThat(ProcessHandle.of(p.pid()).map(ProcessHandle::isAlive))
                        .as("rank process %d is alive", p.pid())
                        .isNotEqualTo(Optional.of(true))));
    }

    @Test
    void when_rank1IsSigkilledWithRespawn_then_aFreshProcessAdoptsItsPartitionAndTheDigestIsExact() {
        RunConfig config = RunConfig.of(2, 4, NX, NY, ITERATIONS, 10)
                .withMode(Mode.PROCESSES)
                .withFaults(List.of(FaultPlan.parseKill("1@4")), List.of(), Set.of());

        RunReport report = launcher().run(config);

        assertThat(report.fieldSha256()).isEqualTo(failureFreeDigest);
        RunReport.Recovery recovery = report.recoveries().get(0);
        assertThat(recovery.lostPartitions()).containsExactly(1);
        assertThat(recovery.adoptions()).containsExactly("1:9");
        // the same cone as when a survivor adopts (ProcessModeIT): who adopts does not change it
        assertThat(recovery.recomputedPartitionIterations()).isEqualTo(9);
        assertThat(recovery.participatingRanks()).contains(9).doesNotContain(1);
        assertThat(children.keySet()).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7, 9);
    }

    @Test
    @Thorough
    void when_aHostIsSigkilledWithRespawn_then_bothRanksAreRespawnedOnItAndTheDigestIsExact() {
        RunConfig config = RunConfig.of(2, 4, NX, NY, ITERATIONS, 10)
                .withMode(Mode.PROCESSES)
                .withFaults(List.of(), List.of(FaultPlan.parseKill("1@5")), Set.of());

        RunReport report = launcher().run(config);

        assertThat(report.fieldSha256()).isEqualTo(failureFreeDigest);
        RunReport.Recovery recovery = report.recoveries().get(0);
        assertThat(recovery.lostPartitions()).containsExactly(2, 3);
        assertThat(recovery.adoptions()).containsExactlyInAnyOrder("2:10", "3:11");
        assertThat(config.runSpec().hostOf(10)).isEqualTo(1);
        assertThat(config.runSpec().hostOf(11)).isEqualTo(1);
        assertThat(children.keySet()).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7, 10, 11);
    }

    @Test
    @Thorough
    void when_aRankIsSigkilledAfterItsEndNoticesWithRespawn_then_theRunEndsExactWithoutARecovery() {
        RunConfig config = RunConfig.of(2, 4, NX, NY, ITERATIONS, 10)
                .withMode(Mode.PROCESSES)
                .withFaults(List.of(new FaultPlan.Kill(5, ITERATIONS, FaultPlan.Point.AFTER_END_NOTICES)), List.of(),
                        Set.of());

        RunReport report = launcher().run(config);

        assertThat(report.fieldSha256()).isEqualTo(failureFreeDigest);
        assertThat(report.recoveries()).isEmpty();
        assertThat(report.failures()).singleElement().satisfies(f -> assertThat(f.ranks()).containsExactly(5));
        // the fresh rank the launcher started in rank 5's place found the run over and left by itself, instead
        // of waiting until the launcher's grace after the end ran out and it was killed
        int fresh = config.runSpec().respawnedRank(5);
        assertThat(children).containsKey(fresh);
        assertThat(exits).containsEntry(fresh, 0);
    }

    private ProcessLauncher launcher() {
        ClusterSettings settings = Replacement.RESPAWN.applyTo(new ClusterSettings());
        return new ProcessLauncher(settings)
                .runTimeoutMillis(TEST_RUN_TIMEOUT_MILLIS)
                .jvmOptions(FAST_START)
                .listener(new RankProcessListener() {
                    @Override
                    public void started(int rank, ProcessHandle process) {
                        children.put(rank, process);
                    }

                    @Override
                    public void exited(int rank, int exitCode) {
                        exits.put(rank, exitCode);
                    }
                });
    }
}
