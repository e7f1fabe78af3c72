package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.harness.Runner;
import org.dfr.recovery.FaultPlan;
import org.dfr.simulator.FailureSchedule;
import org.dfr.simulator.RecoveryRecord;
import org.dfr.simulator.ScheduledFailure;
import org.dfr.simulator.Simulation;
import org.dfr.simulator.SimulationResult;
import org.dfr.simulator.SimulationSpec;
import org.dfr.simulator.Strategy;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The simulator against the real runtime, same kernel dependencies and same failure schedule: every
 * recovery's recomputed partition-iterations, participating and idle partitions are equal.
 *
 * <p>Failures are written {@code RANK@ITER} separated by {@code ;}; the victims are never rank 0, the
 * rank that adopts lost partitions, so rank r always holds partition r when it dies.
 */
class SimulatorVersusRuntimeIT {

    @ParameterizedTest(name = "{0}x{1}, K = {2}, {3}, {4}")
    @CsvSource({
            "2, 4, 10, 1@4,          dfr",
            "2, 4, 10, 1@4,          global",
            "2, 4, 5,  3@4;6@9,      dfr",
            "4, 4, 6,  5@3;10@3,     dfr",
            "4, 4, 6,  5@5;10@8;15@11, dfr",
            "4, 4, 6,  6@9;9@14,     global"})
    void when_sameScheduleIsRunAndSimulated_then_everyRecoveryIsTheSame(int px, int py, int k, String failures,
                                                                         String strategy) {
        int iterations = 16;
        List<FaultPlan.Kill> kills = new ArrayList<>();
        List<ScheduledFailure> schedule = new ArrayList<>();
        for (String f : failures.split(";")) {
            FaultPlan.Kill kill = FaultPlan.parseKill(f.trim());
            kills.add(kill);
        }
        // simultaneous kills are one simulated failure of several partitions
        kills.stream().mapToInt(FaultPlan.Kill::iteration).distinct().sorted().forEach(t -> schedule.add(
                ScheduledFailure.at(t, kills.stream().filter(x -> x.iteration() == t).mapToInt(FaultPlan.Kill::rank).toArray())));
        RunConfig config = RunConfig.of(px, py, 8 * px, 6 * py, iterations, k)
                .withStrategy(org.dfr.recovery.Strategy.parse(strategy)).withFaults(kills, List.of(), Set.of());

        RunReport real = new Runner().run(config);
        SimulationResult simulated = Simulation.run(SimulationSpec.paper(config.kernelSetup().dependencies())
                        .withIterations(iterations, k).withStrategy(Strategy.parse(strategy)),
                FailureSchedule.explicit(schedule));

        List<RecoveryRecord> sim = simulated.recoveriesRecorded();
        assertThat(real.recoveries()).hasSameSizeAs(sim).isNotEmpty();
        int n = px * py;
        for (int i = 0; i < sim.size(); i++) {
            RunReport.Recovery r = real.recoveries().get(i);
            RecoveryRecord s = sim.get(i);
            String what = "recovery " + (i + 1) + " of " + failures;
            assertThat(r.lostPartitions()).as(what).containsExactlyElementsOf(boxed(s.lostPartitions()));
            assertThat(r.checkpointIteration()).as(what).isEqualTo(s.checkpointIteration());
            assertThat(r.failureIteration()).as(what).isEqualTo(s.failureIteration());
            assertThat(r.recomputedPartitionIterations()).as(what).isEqualTo(s.recomputedPartitionIterations());
            List<Integer> participating = r.effectiveStrategy().equals("global") || r.levels().isEmpty()
                    ? IntStream.range(0, n).boxed().toList() : r.levels().get(0);
            if (r.lostIterations() > 0) {
                assertThat(participating).as(what).containsExactlyElementsOf(boxed(s.participatingPartitions()));
                List<Integer> idle = IntStream.range(0, n).boxed().filter(p -> !participating.contains(p)).toList();
                assertThat(idle).as(what).containsExactlyElementsOf(boxed(s.idlePartitions()));
            }
        }
    }

    private static List<Integer> boxed(int[] values) {
        return Arrays.stream(values).boxed().toList();
    }
}
