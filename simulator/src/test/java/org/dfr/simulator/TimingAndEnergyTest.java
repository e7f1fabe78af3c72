package org.dfr.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.dfr.analysis.ConeAnalyzer;
import org.dfr.analysis.DependencyDeclarations;
import org.dfr.analysis.PartitionDependencies;
import org.dfr.analysis.RecoveryPlan;
import org.dfr.simulator.sweep.Stats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Times and energies against closed forms of the constant-time model. */
class TimingAndEnergyTest {

    private static final PartitionDependencies GRID = DependencyDeclarations.twoD5Point(4, 4, false);
    private static final TimingModel TIMING = TimingModel.PAPER;
    private static final double STEP = TIMING.taskSeconds() + TIMING.haloSeconds();

    private static SimulationSpec spec(Strategy s) {
        return SimulationSpec.paper(GRID).withIterations(20, 6).withStrategy(s);
    }

    @Test
    void when_no_failure_then_makespan_is_iterations_times_task_and_halo_plus_the_checkpoints() {
        SimulationResult r = Simulation.run(spec(Strategy.DFR), FailureSchedule.none());

        assertThat(r.makespanSeconds()).isCloseTo(20 * STEP + 3 * TIMING.checkpointSeconds(), within(1e-9));
        assertThat(r.tasksSimulated()).isEqualTo(16L * 20);
        assertThat(r.failures()).isZero();
    }

    @ParameterizedTest
    @EnumSource(value = Strategy.class, names = {"GLOBAL", "DFR"})
    void when_one_failure_then_the_run_is_delayed_by_m_iterations_and_the_reload(Strategy strategy) {
        double clean = Simulation.run(spec(strategy), FailureSchedule.none()).makespanSeconds();

        SimulationResult r = Simulation.run(spec(strategy), FailureSchedule.explicit(List.of(ScheduledFailure.at(11, 5))));

        // the replacement reloads the checkpoint before its neighbours get its halo: one transfer on the critical path
        int m = 11 - 1 - 6;
        double delay = m * STEP + TIMING.checkpointSeconds();
        assertThat(r.makespanSeconds() - clean).isCloseTo(delay, within(1e-6));
        RecoveryRecord rec = r.recoveriesRecorded().get(0);
        assertThat(rec.recoverySeconds()).isCloseTo(delay, within(1e-6));
    }

    @Test
    void when_one_failure_then_dfr_saves_the_idle_partitions_capped_power_over_the_recovery() {
        FailureSchedule schedule = FailureSchedule.explicit(List.of(ScheduledFailure.at(11, 5)));
        Map<Strategy, SimulationResult> both = Simulation.compare(spec(Strategy.DFR), schedule);
        RecoveryPlan plan = new ConeAnalyzer(GRID).plan(new int[] {5}, 6, 11);
        RecoveryRecord rec = both.get(Strategy.DFR).recoveriesRecorded().get(0);

        double saved = both.get(Strategy.GLOBAL).energy().totalJoules() - both.get(Strategy.DFR).energy().totalJoules();

        PowerModel p = PowerModel.PAPER;
        double expected = plan.idlePartitionCount() * rec.recoverySeconds() * (p.idleWatts() - p.cappedIdleWatts());
        assertThat(plan.idlePartitionCount()).isPositive();
        assertThat(saved).isCloseTo(expected, within(1e-6));
    }

    @Test
    void when_no_failure_then_energy_is_busy_power_over_all_node_seconds() {
        SimulationResult r = Simulation.run(spec(Strategy.GLOBAL), FailureSchedule.none());

        // the default idle power equals the busy power, so the node-seconds decide alone
        assertThat(r.energy().totalJoules()).isCloseTo(16 * r.makespanSeconds() * PowerModel.PAPER.busyWatts(), within(1e-3));
        assertThat(r.energy().busySeconds()).isCloseTo(16 * (20 * TIMING.taskSeconds() + 3 * TIMING.checkpointSeconds()),
                within(1e-6));
    }

    @Test
    void when_strategies_share_a_seed_then_global_and_dfr_see_the_same_failures() {
        SimulationSpec base = SimulationSpec.paper(DependencyDeclarations.oneD3Point(200, false)).withRecordRecoveries(true)
                .withFailures(FailureModel.PAPER.withNodeMtbfSeconds(200 * 1000.0));

        Map<Strategy, SimulationResult> results = Simulation.compare(base, FailureSchedule.random());

        List<Integer> globalIterations = results.get(Strategy.GLOBAL).recoveriesRecorded().stream()
                .map(RecoveryRecord::failureIteration).toList();
        List<Integer> dfrIterations = results.get(Strategy.DFR).recoveriesRecorded().stream()
                .map(RecoveryRecord::failureIteration).toList();
        assertThat(globalIterations).hasSizeGreaterThan(5).isEqualTo(dfrIterations);
        assertThat(results.get(Strategy.GLOBAL).recomputedPartitionIterations())
                .isGreaterThan(results.get(Strategy.DFR).recomputedPartitionIterations());
        assertThat(results.get(Strategy.DFR).recomputedPartitionIterations())
                .isGreaterThan(results.get(Strategy.MESSAGE_LOG).recomputedPartitionIterations());
    }

    @Test
    void when_the_same_seed_runs_twice_then_the_results_are_identical() {
        SimulationSpec base = SimulationSpec.paper(DependencyDeclarations.twoD5Point(10, 10, false))
                .withTiming(TIMING.withTaskJitter(0.2))
                .withFailures(FailureModel.PAPER.withNodeMtbfSeconds(100 * 5000.0));

        SimulationResult a = Simulation.run(base);
        SimulationResult b = Simulation.run(base);

        assertThat(a.failures()).isPositive().isEqualTo(b.failures());
        assertThat(a.makespanSeconds()).isEqualTo(b.makespanSeconds());
        assertThat(a.recomputedPartitionIterations()).isEqualTo(b.recomputedPartitionIterations());
    }

    @Test
    void when_failures_may_strike_during_recovery_then_some_recoveries_restart_and_throw_work_away() {
        SimulationSpec base = SimulationSpec.paper(DependencyDeclarations.oneD3Point(100, false)).withRecordRecoveries(true)
                .withFailures(FailureModel.PAPER.withNodeMtbfSeconds(100 * 40.0).withFailuresDuringRecovery(true));

        SimulationResult r = Simulation.run(base);

        assertThat(r.recoveriesRecorded()).anyMatch(rec -> rec.attempts() > 1);
        assertThat(r.abortedPartitionIterations()).isPositive();
        assertThat(r.failures()).isGreaterThan(r.recoveries());
    }

    @Test
    void when_two_nodes_share_a_failure_then_both_partitions_are_lost_together() {
        SimulationSpec base = SimulationSpec.paper(DependencyDeclarations.oneD3Point(64, false)).withRecordRecoveries(true)
                .withFailures(FailureModel.PAPER.withNodeMtbfSeconds(64 * 2000.0).withPartitionsPerNode(2));

        SimulationResult r = Simulation.run(base);

        assertThat(r.recoveriesRecorded()).isNotEmpty().allSatisfy(rec -> {
            assertThat(rec.lostPartitions()).hasSize(2);
            assertThat(rec.lostPartitions()[0] / 2).isEqualTo(rec.lostPartitions()[1] / 2);
        });
    }

    @Test
    void when_weibull_shape_is_one_then_failure_counts_match_the_exponential_model() {
        SimulationSpec exp = SimulationSpec.paper(DependencyDeclarations.oneD3Point(100, false)).withRecordRecoveries(false)
                .withFailures(FailureModel.PAPER.withNodeMtbfSeconds(100 * 2000.0));
        SimulationSpec weibull = exp.withFailures(exp.failures().withDistribution(FailureDistribution.WEIBULL, 1.0));
        double[] e = new double[20];
        double[] w = new double[20];
        for (int s = 0; s < 20; s++) {
            e[s] = Simulation.run(exp.withSeed(s)).failures();
            w[s] = Simulation.run(weibull.withSeed(s)).failures();
        }
        double meanE = Stats.mean(e);
        double meanW = Stats.mean(w);
        double band = Stats.confidenceHalfWidth(e, 0.99)
                + Stats.confidenceHalfWidth(w, 0.99);
        assertThat(meanW).isCloseTo(meanE, within(band));
    }
}
