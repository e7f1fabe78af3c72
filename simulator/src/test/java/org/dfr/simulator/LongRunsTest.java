package org.dfr.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.dfr.analysis.DependencyDeclarations;
import org.dfr.simulator.sweep.Decomposition;
import org.dfr.simulator.sweep.FailureOutlook;
import org.dfr.simulator.sweep.HeapEstimate;
import org.dfr.simulator.sweep.SweepPoint;
import org.junit.jupiter.api.Test;

/** What a user of a long or huge simulation sees: progress, the failure cap, the outlook and the heap. */
class LongRunsTest {

    private record Report(int iterationsDone, int iterations, long failures, long elapsedNanos) {
    }

    @Test
    void when_the_ticker_passes_the_period_then_the_listener_hears_where_the_run_is() {
        AtomicLong now = new AtomicLong();
        List<Report> reports = new ArrayList<>();
        // every read of the clock moves it 1 s on: with a 10 s period, one report per 10 looks at the clock
        ProgressReporter every10s = ProgressReporter.every(Duration.ofSeconds(10), () -> now.addAndGet(1_000_000_000L),
                (done, of, failures, elapsed) -> reports.add(new Report(done, of, failures, elapsed)));
        SimulationSpec spec = SimulationSpec.paper(DependencyDeclarations.oneD3Point(200, false)).withIterations(300, 6)
                .withFailures(FailureModel.PAPER.withNodeMtbfSeconds(200 * 300.0));

        SimulationResult r = Simulation.run(spec, FailureSchedule.random(), every10s);

        assertThat(r.failures()).isPositive();
        assertThat(reports).hasSizeGreaterThan(20);
        assertThat(reports).allSatisfy(p -> assertThat(p.iterations()).isEqualTo(300));
        assertThat(reports).extracting(Report::iterationsDone).isSorted().allSatisfy(i -> assertThat(i).isBetween(0, 300));
        assertThat(reports).extracting(Report::failures).isSorted();
        assertThat(reports.get(reports.size() - 1).failures()).isLessThanOrEqualTo(r.failures());
        assertThat(reports).extracting(Report::elapsedNanos).isSorted()
                .allSatisfy(ns -> assertThat(ns % 10_000_000_000L).isZero());
    }

    @Test
    void when_the_reporter_is_none_then_the_result_is_the_same_as_with_one() {
        SimulationSpec spec = SimulationSpec.paper(DependencyDeclarations.oneD3Point(100, false)).withIterations(200, 6)
                .withFailures(FailureModel.PAPER.withNodeMtbfSeconds(100 * 500.0));
        AtomicLong now = new AtomicLong();
        List<Integer> heard = new ArrayList<>();

        SimulationResult quiet = Simulation.run(spec, FailureSchedule.random(), ProgressReporter.none());
        SimulationResult told = Simulation.run(spec, FailureSchedule.random(), ProgressReporter.every(Duration.ofNanos(1),
                () -> now.incrementAndGet(), (done, of, failures, elapsed) -> heard.add(done)));

        assertThat(heard).isNotEmpty();
        assertThat(told.failures()).isEqualTo(quiet.failures());
        assertThat(told.makespanSeconds()).isEqualTo(quiet.makespanSeconds());
        assertThat(told.recomputedPartitionIterations()).isEqualTo(quiet.recomputedPartitionIterations());
    }

    @Test
    void when_failures_come_faster_than_iterations_then_the_run_stops_at_the_cap_incomplete() {
        // 50 nodes failing every 0.2 s each on average: the machine fails every 4 ms, an iteration takes 11 s
        SimulationSpec spec = SimulationSpec.paper(DependencyDeclarations.oneD3Point(50, false)).withIterations(100, 6)
                .withStrategy(Strategy.GLOBAL)
                .withFailures(FailureModel.PAPER.withNodeMtbfSeconds(0.2).withMaxFailures(5000));

        SimulationResult r = Simulation.run(spec);

        assertThat(r.completed()).isFalse();
        assertThat(r.failures()).isEqualTo(5000);
        assertThat(FailureOutlook.of(50, 100, TimingModel.PAPER, spec.failures()).exceeds(5000)).isTrue();
    }

    /*
     * A failure discards the iteration in progress whatever the strategy, so DFR too needs a failure-free
     * iteration to progress: its failures follow the same outlook (a walk-through read the warning as global
     * rollback's alone, and DFR's runs stopped at the cap as well).
     */
    @Test
    void when_dfr_runs_at_a_failure_heavy_scale_then_its_failures_match_the_outlook_too() {
        int nodes = 2000;
        FailureModel failures = FailureModel.PAPER.withNodeMtbfSeconds(6 * 3600.0);
        FailureOutlook outlook = FailureOutlook.of(nodes, 200, TimingModel.PAPER, failures);
        double mean = 0;
        int seeds = 4;
        for (int s = 1; s <= seeds; s++) {
            mean += Simulation.run(SimulationSpec.paper(DependencyDeclarations.oneD3Point(nodes, false))
                    .withIterations(200, 6).withStrategy(Strategy.DFR).withFailures(failures).withSeed(s)).failures();
        }
        mean /= seeds;

        // the failure-free time alone gives 204: DFR's are the outlook's, not those
        assertThat(mean).isCloseTo(outlook.expectedFailures(), within(0.15 * outlook.expectedFailures()));
        assertThat(outlook.warning(100)).contains("whatever the strategy");
    }

    @Test
    void when_global_rollback_runs_at_a_failure_heavy_scale_then_its_failures_match_the_outlook() {
        // 2000 nodes, node MTBF 6 h: the machine fails every 10.8 s, about an iteration (11 s): e^1.02 - 1 per iteration
        int nodes = 2000;
        FailureModel failures = FailureModel.PAPER.withNodeMtbfSeconds(6 * 3600.0);
        FailureOutlook outlook = FailureOutlook.of(nodes, 200, TimingModel.PAPER, failures);
        double mean = 0;
        int seeds = 8;
        for (int s = 1; s <= seeds; s++) {
            mean += Simulation.run(SimulationSpec.paper(DependencyDeclarations.oneD3Point(nodes, false))
                    .withIterations(200, 6).withStrategy(Strategy.GLOBAL).withFailures(failures).withSeed(s)).failures();
        }
        mean /= seeds;

        assertThat(outlook.secondsBetweenFailures()).isCloseTo(10.8, within(1e-9));
        assertThat(outlook.expectedFailures()).isCloseTo(200 * Math.expm1(11.0 / 10.8), within(1.0));
        assertThat(mean).isCloseTo(outlook.expectedFailures(), within(0.15 * outlook.expectedFailures()));
        assertThat(outlook.exceeds(10_000_000)).isFalse();
        assertThat(outlook.warning(100)).contains("at 2000 nodes a node fails every 10.8 s")
                .contains("more than --max-failures 100");
    }

    @Test
    void when_a_sweep_runs_on_two_threads_then_the_heap_is_that_of_its_two_biggest_runs() {
        SweepPoint small = new SweepPoint(Decomposition.balanced(1, 1000), 6);
        SweepPoint big = new SweepPoint(Decomposition.balanced(3, 1_000_000), 6);

        assertThat(HeapEstimate.bytes(big)).isEqualTo(1_000_000L * HeapEstimate.bytesPerPartition(3));
        assertThat(HeapEstimate.bytes(List.of(small, big), 3, 2)).isEqualTo(2 * HeapEstimate.bytes(big));
        assertThat(HeapEstimate.bytes(List.of(small, big), 1, 2)).isEqualTo(HeapEstimate.bytes(big) + HeapEstimate.bytes(small));
        assertThat(HeapEstimate.bytes(List.of(), 3, 2)).isZero();
        assertThat(HeapEstimate.bytesPerPartition(1)).isLessThan(HeapEstimate.bytesPerPartition(3));
        // a kernel's own declaration: the same figures per dependency edge as the stencils'
        assertThat(HeapEstimate.bytes(DependencyDeclarations.oneD3Point(1000, false)))
                .isEqualTo(1000 * HeapEstimate.bytesPerPartition(1) - 2 * 16);
        assertThat(HeapEstimate.bytes(DependencyDeclarations.oneD3Point(1000, true)))
                .isEqualTo(1000 * HeapEstimate.bytesPerPartition(1));
    }
}
