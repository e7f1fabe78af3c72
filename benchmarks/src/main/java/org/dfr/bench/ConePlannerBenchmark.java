package org.dfr.bench;

import java.util.concurrent.TimeUnit;
import org.dfr.analysis.ConeAnalyzer;
import org.dfr.analysis.DependencyDeclarations;
import org.dfr.analysis.RecoveryPlan;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time to plan one recovery on a 2D 5-point layout of 10^4, 10^5 and 10^6 partitions with {@code m = 100}
 * lost iterations, the lost partition in the middle (an unclipped cone of {@code 2*99^2+2*99+1 = 19801}
 * partitions). {@code plan} is the analyzer's hot path; {@code planAndListIdle} adds materialising the
 * idle list (O(n)), as the JSON output does; {@code buildAnalyzer} is the one-off cost of reading the
 * declaration into compact arrays.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar ConePlanner -f 1 -wi 2 -i 3 -w 1s -r 1s}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx2g")
public class ConePlannerBenchmark {

    /** {@code PXxPY}: 10^4, 10^5 and 10^6 partitions. */
    @Param({"100x100", "250x400", "1000x1000"})
    public String grid;

    @Param("100")
    public int lostIterations;

    private int px;
    private int py;
    private ConeAnalyzer analyzer;
    private int[] lost;

    @Setup(Level.Trial)
    public void setUp() {
        String[] sizes = grid.split("x");
        px = Integer.parseInt(sizes[0]);
        py = Integer.parseInt(sizes[1]);
        analyzer = new ConeAnalyzer(DependencyDeclarations.twoD5Point(px, py, false));
        lost = new int[] {(py / 2) * px + px / 2};
    }

    @Benchmark
    public RecoveryPlan plan() {
        return analyzer.plan(lost, 0, lostIterations + 1);
    }

    @Benchmark
    public int[] planAndListIdle() {
        return analyzer.plan(lost, 0, lostIterations + 1).idlePartitions();
    }

    @Benchmark
    public ConeAnalyzer buildAnalyzer() {
        return new ConeAnalyzer(DependencyDeclarations.twoD5Point(px, py, false));
    }
}
