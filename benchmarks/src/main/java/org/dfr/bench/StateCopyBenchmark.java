package org.dfr.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.jacobi.SequentialJacobi;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one rank's checkpoint copy costs against one update of the same rank, on one core: the floor of a
 * processes-mode checkpoint, whose one copy goes into a file in shared memory (the runtime's
 * {@code SharedMemoryFiles}: a 64-byte header, then the doubles in the machine's byte order, through a
 * mapping kept from one checkpoint to the next).
 * <ul>
 *   <li>{@code intoSharedMemoryFile}: the state into such a mapping, in {@code /dev/shm} (the temporary
 *       directory where there is none);</li>
 *   <li>{@code intoHeapArray}: the same doubles into another array, {@code System.arraycopy};</li>
 *   <li>{@code jacobiUpdate}: one 5-point Jacobi update of a block of the same size (2048 x 1024 cells is one
 *       rank's block of 4096 x 4096 on 2 x 4 ranks, 16 MiB).</li>
 *   <li>{@code jacobiUpdateInSharedMemory}: the same update with both buffers in mapped files in shared memory,
 *       in the vectors of the CPU ({@code DoubleVector.fromByteBuffer}), as a rank whose states lived there would
 *       compute: such a rank would checkpoint by keeping a buffer, with no copy at all. It is not the kernel's
 *       loop (the kernel SPI hands kernels {@code double[]}); it asks what that loop would cost there.</li>
 * </ul>
 * A copy and an update both stream the block once in and once out. {@code ranks} is how many such states the
 * benchmark cycles through, one per operation: with 1 the 32 MiB an operation touches stay in a large last-level
 * cache (32 MiB here), with 8 (the states of 8 ranks, as on one 2 x 4 machine) they come from memory, as in a run.
 *
 * <p>{@code java -jar benchmarks/target/benchmarks.jar StateCopy -f 1 -wi 3 -i 5}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g", "-XX:+UseParallelGC", "--add-modules", "jdk.incubator.vector"})
public class StateCopyBenchmark {

    /** The header before the doubles, as in the runtime's shared files. */
    private static final int HEADER_BYTES = 64;
    private static final int NX = 2048;
    private static final int NY = 1024;

    @Param({"1", "8"})
    int ranks;

    private double[][] states;
    private double[][] heapCopies;
    private Path[] files;
    private DoubleBuffer[] mapped;
    private SequentialJacobi[] jacobi;
    private ByteBuffer[][] sharedPairs;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        states = new double[ranks][NX * NY];
        heapCopies = new double[ranks][NX * NY];
        files = new Path[ranks];
        mapped = new DoubleBuffer[ranks];
        jacobi = new SequentialJacobi[ranks];
        SplittableRandom random = new SplittableRandom(42);
        Path shm = Paths.get("/dev/shm");
        Path dir = Files.isDirectory(shm) ? shm : Paths.get(System.getProperty("java.io.tmpdir"));
        long bytes = HEADER_BYTES + (long) NX * NY * Double.BYTES;
        for (int r = 0; r < ranks; r++) {
            for (int i = 0; i < states[r].length; i++) {
                states[r][i] = random.nextDouble();
            }
            files[r] = Files.createTempFile(dir, "dfr-state-copy-", ".bin");
            try (FileChannel channel = FileChannel.open(files[r], StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                channel.write(ByteBuffer.allocate(1), bytes - 1);
                MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes);
                mapped[r] = map.position(HEADER_BYTES).slice().order(ByteOrder.nativeOrder()).asDoubleBuffer();
            }
            jacobi[r] = new SequentialJacobi(new JacobiProblem(NX, NY));
        }
        sharedPairs = new ByteBuffer[ranks][];
        long framed = (long) (NX + 2) * (NY + 2) * Double.BYTES;
        files = Arrays.copyOf(files, ranks * 3);
        for (int r = 0; r < ranks; r++) {
            sharedPairs[r] = new ByteBuffer[2];
            for (int b = 0; b < 2; b++) {
                Path f = Files.createTempFile(dir, "dfr-state-pair-", ".bin");
                files[ranks + 2 * r + b] = f;
                try (FileChannel channel = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    channel.write(ByteBuffer.allocate(1), HEADER_BYTES + framed - 1);
                    ByteBuffer map = channel.map(FileChannel.MapMode.READ_WRITE, 0, HEADER_BYTES + framed)
                            .position(HEADER_BYTES).slice().order(ByteOrder.nativeOrder());
                    for (int i = 0; i < framed / Double.BYTES; i++) {
                        map.putDouble(i * Double.BYTES, random.nextDouble());
                    }
                    sharedPairs[r][b] = map;
                }
            }
        }
    }

    private int nextRank() {
        int r = next;
        next = (next + 1) % ranks;
        return r;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        for (Path f : files) {
            Files.deleteIfExists(f);
        }
    }

    /** The next rank's state into its mapped file, as a processes-mode checkpoint writes it. */
    @Benchmark
    public double intoSharedMemoryFile() {
        int r = nextRank();
        mapped[r].clear();
        mapped[r].put(states[r]);
        return mapped[r].get(NX * NY - 1);
    }

    /** The next rank's state into another array. */
    @Benchmark
    public double intoHeapArray() {
        int r = nextRank();
        System.arraycopy(states[r], 0, heapCopies[r], 0, NX * NY);
        return heapCopies[r][NX * NY - 1];
    }

    /** One Jacobi update of the next rank's block, as large as its state. */
    @Benchmark
    public double jacobiUpdate() {
        return jacobi[nextRank()].iterate();
    }

    /** One Jacobi update of the next rank's framed block, from one mapped file in shared memory into another. */
    @Benchmark
    public double jacobiUpdateInSharedMemory() {
        ByteBuffer[] pair = sharedPairs[nextRank()];
        double residual = SharedMemorySweep.sweep(pair[0], pair[1], NX + 2, NY, NX);
        ByteBuffer t = pair[0];
        pair[0] = pair[1];
        pair[1] = t;
        return residual;
    }

    /**
     * The runtime's vector loop ({@code VectorStencilSweep}: two rows per pass, the centre row of each doubling as
     * the other's north or south) on byte buffers; columns beyond the last whole vector in scalar.
     */
    static final class SharedMemorySweep {
        private static final VectorSpecies<Double> SPECIES = DoubleVector.SPECIES_PREFERRED;
        private static final ByteOrder ORDER = ByteOrder.nativeOrder();
        private static final int LANES = SPECIES.length();
        private static final int D = Double.BYTES;

        private SharedMemorySweep() {
        }

        static double sweep(ByteBuffer in, ByteBuffer out, int stride, int rows, int cols) {
            int vectorCols = SPECIES.loopBound(cols);
            double residual = 0;
            int y = 1;
            for (; y < rows; y += 2) {
                residual += rowPair(in, out, y * stride, stride, vectorCols);
                residual += tail(in, out, y * stride, stride, vectorCols + 1, cols);
                residual += tail(in, out, (y + 1) * stride, stride, vectorCols + 1, cols);
            }
            if (y == rows) {
                residual += tail(in, out, y * stride, stride, 1, cols);
            }
            return residual;
        }

        private static DoubleVector at(ByteBuffer b, int index) {
            return DoubleVector.fromByteBuffer(SPECIES, b, index * D, ORDER);
        }

        private static double rowPair(ByteBuffer in, ByteBuffer out, int upper, int stride, int vectorCols) {
            int north = upper - stride;
            int lower = upper + stride;
            int south = lower + stride;
            DoubleVector sum = DoubleVector.zero(SPECIES);
            for (int x = 1; x <= vectorCols; x += LANES) {
                DoubleVector upperOld = at(in, upper + x);
                DoubleVector lowerOld = at(in, lower + x);
                DoubleVector upperNew = at(in, north + x).add(lowerOld).add(at(in, upper + x - 1))
                        .add(at(in, upper + x + 1)).mul(0.25);
                DoubleVector lowerNew = upperOld.add(at(in, south + x)).add(at(in, lower + x - 1))
                        .add(at(in, lower + x + 1)).mul(0.25);
                upperNew.intoByteBuffer(out, (upper + x) * D, ORDER);
                lowerNew.intoByteBuffer(out, (lower + x) * D, ORDER);
                DoubleVector upperDelta = upperNew.sub(upperOld);
                DoubleVector lowerDelta = lowerNew.sub(lowerOld);
                sum = sum.add(upperDelta.mul(upperDelta).add(lowerDelta.mul(lowerDelta)));
            }
            return sum.reduceLanes(VectorOperators.ADD);
        }

        private static double tail(ByteBuffer in, ByteBuffer out, int row, int stride, int from, int cols) {
            double residual = 0;
            for (int x = from; x <= cols; x++) {
                int i = row + x;
                double v = 0.25 * (((in.getDouble((i - stride) * D) + in.getDouble((i + stride) * D))
                        + in.getDouble((i - 1) * D)) + in.getDouble((i + 1) * D));
                out.putDouble(i * D, v);
                double d = v - in.getDouble(i * D);
                residual += d * d;
            }
            return residual;
        }
    }
}
