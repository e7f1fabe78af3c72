package org.dfr.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.dfr.analysis.ConeAnalyzer;
import org.dfr.analysis.DependencyDeclarations;
import org.dfr.analysis.PartitionDependencies;
import org.dfr.analysis.RecoveryPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Explicit failure schedules: every recovery must be exactly what the cone analyzer plans. */
class ExplicitScheduleTest {

    private static SimulationSpec spec(PartitionDependencies deps, int iterations, int every, Strategy strategy) {
        return SimulationSpec.paper(deps).withIterations(iterations, every).withStrategy(strategy);
    }

    @Test
    void when_paper_case_rank1_dies_at_4_then_dfr_recomputes_9_with_idle_4_6_7() {
        // the runtime's README output for ./dfr run --ranks-grid 2x4 --cells 256x256 --iterations 10 --fail 1@4
        SimulationSpec spec = spec(DependencyDeclarations.twoD5Point(2, 4, false), 10, 10, Strategy.DFR);

        SimulationResult result = Simulation.run(spec, FailureSchedule.explicit(List.of(ScheduledFailure.at(4, 1))));

        assertThat(result.recoveriesRecorded()).hasSize(1);
        RecoveryRecord rec = result.recoveriesRecorded().get(0);
        assertThat(rec.lostPartitions()).containsExactly(1);
        assertThat(rec.checkpointIteration()).isZero();
        assertThat(rec.lostIterations()).isEqualTo(3);
        assertThat(rec.recomputedPartitionIterations()).isEqualTo(9);
        assertThat(rec.participatingPartitions()).containsExactly(0, 1, 2, 3, 5);
        assertThat(rec.idlePartitions()).containsExactly(4, 6, 7);
    }

    @Test
    void when_checkpointsCountWithALag_then_aFailureInsideTheLagRollsBackToTheCheckpointBefore() {
        // K = 6: checkpoint 6 counts from iteration 6 + L on; the initial checkpoint 0 counts at once
        PartitionDependencies deps = DependencyDeclarations.twoD5Point(2, 4, false);
        ConeAnalyzer analyzer = new ConeAnalyzer(deps);
        List<ScheduledFailure> failures = List.of(ScheduledFailure.at(8, 1));

        RecoveryRecord atOnce = Simulation.run(spec(deps, 14, 6, Strategy.DFR), FailureSchedule.explicit(failures))
                .recoveriesRecorded().get(0);
        RecoveryRecord lagTwo = Simulation.run(spec(deps, 14, 6, Strategy.DFR).withCommitLagIterations(2),
                FailureSchedule.explicit(failures)).recoveriesRecorded().get(0);
        RecoveryRecord lagOne = Simulation.run(spec(deps, 14, 6, Strategy.DFR).withCommitLagIterations(1),
                FailureSchedule.explicit(failures)).recoveriesRecorded().get(0);

        assertThat(atOnce.checkpointIteration()).isEqualTo(6);
        assertThat(lagOne.checkpointIteration()).isEqualTo(6);
        assertThat(lagTwo.checkpointIteration()).isZero();
        assertThat(lagTwo.lostIterations()).isEqualTo(7);
        RecoveryPlan plan = analyzer.plan(new int[] {1}, 0, 8).asRun();
        assertThat(lagTwo.recomputedPartitionIterations()).isEqualTo(plan.recomputedPartitionIterations());
        // a failure in the first K iterations finds only the initial checkpoint, lag or not
        assertThat(Simulation.run(spec(deps, 14, 6, Strategy.DFR).withCommitLagIterations(5),
                FailureSchedule.explicit(List.of(ScheduledFailure.at(3, 1)))).recoveriesRecorded().get(0)
                .checkpointIteration()).isZero();
    }

    static Stream<Arguments> schedules() {
        return Stream.of(
                Arguments.of(2, 4, List.of(ScheduledFailure.at(4, 1))),
                Arguments.of(2, 4, List.of(ScheduledFailure.at(3, 6), ScheduledFailure.at(11, 2))),
                Arguments.of(2, 4, List.of(ScheduledFailure.at(5, 0, 7))),
                Arguments.of(4, 4, List.of(ScheduledFailure.at(6, 5))),
                Arguments.of(4, 4, List.of(ScheduledFailure.at(2, 15), ScheduledFailure.at(9, 10), ScheduledFailure.at(12, 0))),
                Arguments.of(4, 4, List.of(ScheduledFailure.at(7, 5, 6, 9))),
                Arguments.of(4, 4, List.of(ScheduledFailure.at(7, 3))));
    }

    @ParameterizedTest(name = "{0}x{1} {2}")
    @MethodSource("schedules")
    void when_failures_at_given_iterations_then_dfr_recoveries_equal_the_cone_analyzer_plan(int px, int py,
                                                                                          List<ScheduledFailure> failures) {
        PartitionDependencies deps = DependencyDeclarations.twoD5Point(px, py, false);
        int every = 6;
        int iterations = 14;
        ConeAnalyzer analyzer = new ConeAnalyzer(deps);

        SimulationResult result = Simulation.run(spec(deps, iterations, every, Strategy.DFR), FailureSchedule.explicit(failures));

        assertThat(result.recoveriesRecorded()).hasSize(failures.size());
        long planned = 0;
        for (int i = 0; i < failures.size(); i++) {
            ScheduledFailure f = failures.get(i);
            int c = (f.iteration() - 1) / every * every;
            RecoveryPlan plan = analyzer.plan(f.partitions(), c, f.iteration()).asRun();
            RecoveryRecord rec = result.recoveriesRecorded().get(i);
            assertThat(rec.failureIteration()).isEqualTo(f.iteration());
            assertThat(rec.checkpointIteration()).isEqualTo(c);
            assertThat(rec.lostPartitions()).containsExactly(f.partitions());
            assertThat(rec.recomputedPartitionIterations()).isEqualTo(plan.recomputedPartitionIterations());
            assertThat(rec.participatingPartitions()).containsExactly(plan.participatingPartitions());
            assertThat(rec.idlePartitions()).containsExactly(plan.idlePartitions());
            planned += plan.recomputedPartitionIterations();
        }
        assertThat(result.recomputedPartitionIterations()).isEqualTo(planned);
        // the engine evaluated exactly the first runs plus the plans' work: nothing more, nothing less
        assertThat(result.tasksSimulated()).isEqualTo((long) deps.partitionCount() * iterations + planned);
    }

    @ParameterizedTest(name = "{0}x{1} {2}")
    @MethodSource("schedules")
    void when_failures_at_given_iterations_then_global_recomputes_everything_and_message_log_only_the_lost(
            int px, int py, List<ScheduledFailure> failures) {
        PartitionDependencies deps = DependencyDeclarations.twoD5Point(px, py, false);
        int n = deps.partitionCount();

        SimulationResult global = Simulation.run(spec(deps, 14, 6, Strategy.GLOBAL), FailureSchedule.explicit(failures));
        SimulationResult log = Simulation.run(spec(deps, 14, 6, Strategy.MESSAGE_LOG), FailureSchedule.explicit(failures));

        for (int i = 0; i < failures.size(); i++) {
            ScheduledFailure f = failures.get(i);
            int m = f.iteration() - 1 - (f.iteration() - 1) / 6 * 6;
            RecoveryRecord g = global.recoveriesRecorded().get(i);
            RecoveryRecord l = log.recoveriesRecorded().get(i);
            assertThat(g.recomputedPartitionIterations()).isEqualTo((long) n * m);
            assertThat(g.idlePartitions()).isEmpty();
            assertThat(l.recomputedPartitionIterations()).isEqualTo((long) f.partitions().length * m);
            assertThat(l.participatingPartitions()).containsExactly(f.partitions());
        }
    }

    @Test
    void when_the_graph_is_declared_by_adjacency_then_recoveries_follow_its_directed_inputs() {
        // a directed ring with a chord: p reads p-1 (and 0 also reads 5); recovery flows against data flow
        int[][] inputs = {{0, 5, 7}, {0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}};
        PartitionDependencies deps = DependencyDeclarations.fromAdjacency(inputs, false);
        ConeAnalyzer analyzer = new ConeAnalyzer(deps);

        SimulationResult result = Simulation.run(spec(deps, 12, 12, Strategy.DFR),
                FailureSchedule.explicit(List.of(ScheduledFailure.at(5, 3))));

        RecoveryRecord rec = result.recoveriesRecorded().get(0);
        RecoveryPlan plan = analyzer.plan(new int[] {3}, 0, 5).asRun();
        assertThat(rec.participatingPartitions()).containsExactly(plan.participatingPartitions())
                .containsExactly(0, 1, 2, 3);
        assertThat(rec.recomputedPartitionIterations()).isEqualTo(plan.recomputedPartitionIterations()).isEqualTo(10);
        assertThat(result.tasksSimulated()).isEqualTo(8L * 12 + 10);
    }

    @Test
    void when_a_partition_dies_during_recovery_then_the_recovery_restarts_with_the_union_cone() {
        PartitionDependencies deps = DependencyDeclarations.twoD5Point(4, 4, false);
        ConeAnalyzer analyzer = new ConeAnalyzer(deps);
        FailureSchedule schedule = FailureSchedule.explicit(List.of(ScheduledFailure.at(5, 5)), List.of(15));

        SimulationResult result = Simulation.run(spec(deps, 12, 6, Strategy.DFR), schedule);

        RecoveryRecord rec = result.recoveriesRecorded().get(0);
        assertThat(rec.attempts()).isEqualTo(2);
        assertThat(rec.lostPartitions()).containsExactly(5, 15);
        assertThat(rec.abortedPartitionIterations()).isEqualTo(analyzer.plan(new int[] {5}, 0, 5).asRun().levelSize(1));
        RecoveryPlan union = analyzer.plan(new int[] {5, 15}, 0, 5).asRun();
        assertThat(rec.recomputedPartitionIterations()).isEqualTo(union.recomputedPartitionIterations());
        assertThat(rec.idlePartitions()).containsExactly(union.idlePartitions());
        assertThat(result.failures()).isEqualTo(2);
    }

    @Test
    void when_the_failure_follows_a_checkpoint_then_nothing_is_recomputed_and_only_the_lost_reload() {
        PartitionDependencies deps = DependencyDeclarations.oneD3Point(8, false);

        SimulationResult result = Simulation.run(spec(deps, 12, 4, Strategy.DFR),
                FailureSchedule.explicit(List.of(ScheduledFailure.at(9, 3))));

        RecoveryRecord rec = result.recoveriesRecorded().get(0);
        assertThat(rec.checkpointIteration()).isEqualTo(8);
        assertThat(rec.lostIterations()).isZero();
        assertThat(rec.recomputedPartitionIterations()).isZero();
        assertThat(rec.participatingPartitions()).containsExactly(3);
    }
}
