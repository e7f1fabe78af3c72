package org.dfr.bench;

import java.util.concurrent.TimeUnit;
import org.dfr.analysis.DependencyDeclarations;
import org.dfr.analysis.PartitionDependencies;
import org.dfr.simulator.FailureSchedule;
import org.dfr.simulator.Simulation;
import org.dfr.simulator.SimulationResult;
import org.dfr.simulator.SimulationSpec;
import org.dfr.simulator.Strategy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Simulated tasks per second of the large-scale simulator on one core: 10^5 partitions x 100 iterations
 * (10^7 tasks per operation, so the score is tasks/s) of a 1D 3-point, 2D 5-point or 3D 7-point stencil.
 * {@code failureFree} evaluates the plain level recurrence; {@code paperFailures} adds the paper's failures
 * (node MTBF 100 h, checkpoint every 6) recovered by the chosen strategy, whose recovery tasks count too.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar Simulator -f 1 -wi 2 -i 3 -w 2s -r 2s}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class SimulatorBenchmark {

    private static final int PARTITIONS = 100_000;
    private static final int ITERATIONS = 100;

    /** 1, 2 or 3: the stencil's dimensions (10^5 = 100000, 250x400, 40x50x50 partitions). */
    @Param({"1", "2", "3"})
    public int dimensions;

    /** Strategy recovering the failures of {@code paperFailures}. */
    @Param({"dfr"})
    public String strategy;

    private SimulationSpec spec;

    @Setup(Level.Trial)
    public void setUp() {
        PartitionDependencies deps = switch (dimensions) {
            case 1 -> DependencyDeclarations.oneD3Point(PARTITIONS, false);
            case 2 -> DependencyDeclarations.twoD5Point(250, 400, false);
            default -> DependencyDeclarations.threeD7Point(40, 50, 50, false);
        };
        spec = SimulationSpec.paper(deps).withIterations(ITERATIONS, 6).withStrategy(Strategy.parse(strategy))
                .withRecordRecoveries(false);
    }

    /** Tasks/s of the failure-free recurrence: the score times 10^7 per operation. */
    @Benchmark
    @OperationsPerInvocation(PARTITIONS * ITERATIONS)
    public SimulationResult failureFree() {
        return Simulation.run(spec, FailureSchedule.none());
    }

    /** Tasks/s with the paper's random failures (the first run's tasks; recovery tasks ride along). */
    @Benchmark
    @OperationsPerInvocation(PARTITIONS * ITERATIONS)
    public SimulationResult paperFailures() {
        return Simulation.run(spec, FailureSchedule.random());
    }
}
