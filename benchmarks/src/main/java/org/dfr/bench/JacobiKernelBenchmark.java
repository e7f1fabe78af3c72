package org.dfr.bench;

import java.util.concurrent.TimeUnit;
import org.dfr.jacobi.BlockDecomposition;
import org.dfr.jacobi.InThreadPartitionRunner;
import org.dfr.jacobi.JacobiKernel;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.jacobi.JacobiStencil;
import org.dfr.jacobi.SequentialJacobi;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * Throughput of one Jacobi iteration on an {@code NX x NY} interior: the plain
 * {@link SequentialJacobi} (the baseline of every other figure) and the same problem run as a
 * {@link JacobiKernel} on a 2 x 2 block decomposition in one thread (stencil plus halo packing),
 * each with the stencil loop {@link JacobiStencil} picks (the vector form: the forks get
 * {@code --add-modules jdk.incubator.vector}) and, in the {@code ...Scalar} methods, with the scalar
 * loop forced by {@code -Ddfr.stencil=scalar}. Every fork prints the loop it ran as {@code # kernel: ...}.
 *
 * <p>The primary score is iterations per second; the {@code cellUpdates} secondary score is cell
 * updates per second. At 16 bytes moved per cell update, {@code cellUpdates * 16} compared with a
 * STREAM copy figure ({@code org.dfr.jacobi.bench.MemoryBandwidth}) gives the fraction of the
 * bandwidth bound. The size {@code 2048x1024} is one block of 4096 x 4096 on 2 x 4 ranks.
 *
 * <pre>java -jar benchmarks/target/benchmarks.jar JacobiKernel -f 1 -wi 3 -i 5 -w 1s -r 1s</pre>
 *
 * A {@code -jvmArgsAppend} on the command line replaces the flags below: repeat
 * {@code --add-modules jdk.incubator.vector} (and {@code -Ddfr.stencil=scalar} for the scalar methods).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+UseParallelGC", "--add-modules", "jdk.incubator.vector"})
public class JacobiKernelBenchmark {

    /** The solvers, rebuilt per trial so every trial starts from iteration 0. */
    @State(Scope.Thread)
    public static class Solvers {
        /** Interior cells, {@code NXxNY}. */
        @Param({"4096x4096", "2048x1024"})
        public String cells;

        SequentialJacobi sequential;
        InThreadPartitionRunner blocked;
        long cellsPerIteration;

        @Setup(Level.Trial)
        public void setUp() {
            String[] sides = cells.split("x");
            JacobiProblem problem = new JacobiProblem(Integer.parseInt(sides[0]), Integer.parseInt(sides[1]));
            sequential = new SequentialJacobi(problem);
            blocked = new InThreadPartitionRunner(new JacobiKernel(new BlockDecomposition(problem, 2, 2)));
            cellsPerIteration = problem.interiorCells();
            System.out.println("# kernel: " + JacobiStencil.implementation());
        }
    }

    /** Counts cell updates so JMH reports them per second next to iterations per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class CellUpdates {
        public long cellUpdates;

        @Setup(Level.Iteration)
        public void reset() {
            cellUpdates = 0;
        }
    }

    /** One iteration of the plain reference implementation; returns the residual so it is not dead code. */
    @Benchmark
    public double sequential(Solvers solvers, CellUpdates counter) {
        counter.cellUpdates += solvers.cellsPerIteration;
        return solvers.sequential.iterate();
    }

    /** {@link #sequential} with the scalar stencil loop. */
    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+UseParallelGC", "--add-modules", "jdk.incubator.vector",
            "-Ddfr.stencil=scalar"})
    public double sequentialScalar(Solvers solvers, CellUpdates counter) {
        return sequential(solvers, counter);
    }

    /** One iteration of the kernel on 2 x 2 blocks, halos exchanged in the same thread. */
    @Benchmark
    public double blocked2x2InThread(Solvers solvers, CellUpdates counter) {
        counter.cellUpdates += solvers.cellsPerIteration;
        return solvers.blocked.iterate();
    }

    /** {@link #blocked2x2InThread} with the scalar stencil loop. */
    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+UseParallelGC", "--add-modules", "jdk.incubator.vector",
            "-Ddfr.stencil=scalar"})
    public double blocked2x2InThreadScalar(Solvers solvers, CellUpdates counter) {
        return blocked2x2InThread(solvers, counter);
    }
}
