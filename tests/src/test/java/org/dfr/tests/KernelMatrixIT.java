package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.dfr.analysis.ConeAnalyzer;
import org.dfr.analysis.RecoveryPlan;
import org.dfr.harness.Campaign;
import org.dfr.harness.Mode;
import org.dfr.harness.ProcessLauncher;
import org.dfr.harness.RankProcessListener;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.harness.Runner;
import org.dfr.recovery.FaultPlan;
import org.dfr.recovery.Strategy;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.kernel.KernelCatalog;
import org.dfr.runtime.kernel.KernelChoice;
import org.dfr.runtime.kernel.KernelProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every built-in kernel, in every mode, with both strategies and one or two failures: the digest is
 * the sequential reference's, and the recomputed work and cone levels are exactly what the analyzer
 * plans from the kernel's own declared dependencies.
 *
 * <p>8 partitions shaped like the kernel's axes ({@code 8}, {@code 2x4}, {@code 2x2x2}), checkpoint every 5
 * iterations, 12 iterations; rank 1 dies at the start of 4 ({@code c = 0}, {@code m = 3}) and, in the
 * two-failure runs, rank 6 at the start of 9 ({@code c = 5}, {@code m = 3}):
 * <pre>
 *   iteration  0    1  2  3 | 4    5 ... 8 | 9 ... 12
 *              ckpt         kill 1  ckpt    kill 6
 * </pre>
 */
@Isolated // starts rank processes
class KernelMatrixIT {

    private static final int ITERATIONS = 12;
    private static final int CHECKPOINT_EVERY = 5;
    private static final FaultPlan.Kill FIRST = new FaultPlan.Kill(1, 4, FaultPlan.Point.ITERATION_START);
    private static final FaultPlan.Kill SECOND = new FaultPlan.Kill(6, 9, FaultPlan.Point.ITERATION_START);
    private static final List<String> BUILT_IN = List.of("jacobi2d5", "jacobi2d9", "heat3d7", "heat1d3", "graph-jacobi");

    private final Map<Integer, ProcessHandle> children = new ConcurrentHashMap<>();

    /** Every kernel with both strategies and one and two failures. */
    static Stream<Arguments> fullMatrix() {
        List<Arguments> out = new ArrayList<>();
        for (String kernel : BUILT_IN) {
            for (Strategy strategy : Strategy.values()) {
                out.add(Arguments.of(kernel, strategy, 1));
                out.add(Arguments.of(kernel, strategy, 2));
            }
        }
        return out.stream();
    }

    /**
     * In {@code ./mvnw verify} (its 15-minute budget): every kernel with dfr and one failure and with global
     * and two. {@code -Ddfr.fullMatrix=true} runs the whole matrix in both modes.
     */
    static Stream<Arguments> embeddedMatrix() {
        if (Boolean.getBoolean("dfr.fullMatrix")) {
            return fullMatrix();
        }
        List<Arguments> out = new ArrayList<>();
        for (String kernel : BUILT_IN) {
            out.add(Arguments.of(kernel, Strategy.DFR, 1));
            out.add(Arguments.of(kernel, Strategy.GLOBAL, 2));
        }
        return out.stream();
    }

    /**
     * Processes runs, with {@code -Pthorough} only (8 rank JVMs are slow to start on 2 cores, and {@code ./mvnw
     * verify} has a 15-minute budget): a stencil in 3 axes with dfr and the graph kernel with global rollback, two
     * failures each. Without it, kernels other than jacobi2d5 run in processes mode in CampaignIT's processes trial
     * and every processes campaign ({@code --kernel any}), and {@code ExternalKernelIT} runs a kernel of its own jar
     * there. {@code -Ddfr.fullMatrix=true} runs the whole matrix, as embedded.
     */
    static Stream<Arguments> processesMatrix() {
        if (Boolean.getBoolean("dfr.fullMatrix")) {
            return fullMatrix();
        }
        return Stream.of(Arguments.of("heat3d7", Strategy.DFR, 2), Arguments.of("graph-jacobi", Strategy.GLOBAL, 2));
    }

    @Test
    void when_catalogIsLoaded_then_everyBuiltInKernelIsInstalled() {
        assertThat(KernelCatalog.installed().providers()).extracting(KernelProvider::name).containsAll(BUILT_IN);
        assertThat(KernelCatalog.installed().loadErrors()).isEmpty();
    }

    @ParameterizedTest(name = "embedded {0} {1} with {2} failure(s)")
    @MethodSource("embeddedMatrix")
    void when_kernelRunsEmbeddedWithFailures_then_digestIsTheReferenceAndWorkIsThePlan(String kernel, Strategy strategy,
                                                                                      int failures) {
        RunConfig config = config(kernel, strategy, failures, Mode.EMBEDDED);

        RunReport report = new Runner().run(config);

        checkAgainstReferenceAndPlan(config, report, failures);
    }

    @ParameterizedTest(name = "processes {0} {1} with {2} failure(s)")
    @MethodSource("processesMatrix")
    @Thorough
    void when_kernelRunsAsProcessesWithSigkills_then_digestIsTheReferenceAndWorkIsThePlan(String kernel,
                                                                                         Strategy strategy, int failures) {
        RunConfig config = config(kernel, strategy, failures, Mode.PROCESSES);

        RunReport report = new ProcessLauncher(new ClusterSettings())
                .jvmOptions(List.of("-XX:TieredStopAtLevel=1"))
                .listener(new RankProcessListener() {
                    @Override
                    public void started(int rank, ProcessHandle handle) {
                        children.put(rank, handle);
                    }
                })
                .runTimeoutMillis(120_000)
                .run(config);

        checkAgainstReferenceAndPlan(config, report, failures);
        assertThat(report.mode()).isEqualTo("processes");
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(children.values())
                .allSatisfy(p -> assertThat(ProcessHandle.of(p.pid()).map(ProcessHandle::isAlive))
                        .as("rank process %d is alive", p.pid()).isNotEqualTo(Optional.of(true))));
    }

    private static RunConfig config(String kernel, Strategy strategy, int failures, Mode mode) {
        KernelProvider provider = KernelCatalog.installed().get(kernel);
        List<FaultPlan.Kill> kills = failures == 1 ? List.of(FIRST) : List.of(FIRST, SECOND);
        return RunConfig.of(KernelChoice.of(kernel), Campaign.smallCells(provider.dimensions()),
                        Campaign.eightPartitions(provider.dimensions()), ITERATIONS, CHECKPOINT_EVERY)
                .withStrategy(strategy).withMode(mode).withFaults(kills, List.of(), Set.of());
    }

    private static void checkAgainstReferenceAndPlan(RunConfig config, RunReport report, int failures) {
        assertThat(report.kernel()).isEqualTo(config.kernel().name());
        assertThat(report.fieldSha256()).as("digest of %s", config.kernel()).isEqualTo(Campaign.referenceDigest(config));
        assertThat(report.recoveries()).hasSize(failures);
        ConeAnalyzer analyzer = new ConeAnalyzer(config.kernelSetup().dependencies());
        List<FaultPlan.Kill> kills = config.kills();
        for (int i = 0; i < failures; i++) {
            FaultPlan.Kill kill = kills.get(i);
            int c = (kill.iteration() - 1) / CHECKPOINT_EVERY * CHECKPOINT_EVERY;
            RecoveryPlan plan = analyzer.plan(new int[] {kill.rank()}, c, kill.iteration());
            RunReport.Recovery recovery = report.recoveries().get(i);
            assertThat(recovery.lostPartitions()).containsExactly(kill.rank());
            assertThat(recovery.checkpointIteration()).isEqualTo(c);
            long expected = config.strategy() == Strategy.GLOBAL ? plan.globalRollbackPartitionIterations()
                    : plan.asRun().recomputedPartitionIterations();
            assertThat(recovery.recomputedPartitionIterations()).as("recovery %d of %s", i + 1, config.kernel())
                    .isEqualTo(expected);
            if (config.strategy() == Strategy.DFR && !plan.isGlobalRollback()) {
                List<List<Integer>> levels = plan.levels().stream()
                        .map(l -> Arrays.stream(l).boxed().toList()).toList();
                assertThat(recovery.levels()).isEqualTo(levels);
            }
        }
    }
}
