package org.dfr.jacobi;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * The update with the incubating Vector API of JDK 17 ({@code jdk.incubator.vector}), in the widest
 * vectors of the CPU ({@link DoubleVector#SPECIES_PREFERRED}): lane {@code i} of each vector operation
 * computes column {@code x + i} with exactly the scalar operations
 * {@code 0.25 * (((north + south) + west) + east)} (vector add and multiply are IEEE-754 lane by lane,
 * and C2 never fuses them), so the output is bit-for-bit that of {@link ScalarStencilSweep}. The
 * columns beyond the last full vector use the scalar loop. Only the residual is summed in another
 * order: per lane, then across the lanes.
 *
 * <p>Two rows are updated per pass, so that two input rows and two output rows stream to and from
 * memory at the same time (presumably more misses in flight for the prefetcher, which stops at
 * every 4 KiB page): on 4096 x 4096 this measured 25-35% faster than one row per pass, and the
 * centre row of each doubles as the other's north or south. Four rows per pass were no faster.
 *
 * <p>Loading this class needs the module {@code jdk.incubator.vector} in the boot layer; see
 * {@link JacobiStencil} for the choice. Use a single species per JVM: C2 intrinsifies the Vector API
 * only when each call site sees one vector class.
 */
final class VectorStencilSweep implements StencilSweep {

    private static final VectorSpecies<Double> SPECIES = DoubleVector.SPECIES_PREFERRED;
    private static final int LANES = SPECIES.length();
    private static final double QUARTER = 0.25;

    /** Doubles per vector on this CPU; 1 means there are no SIMD registers worth using. */
    static int lanes() {
        return LANES;
    }

    @Override
    public double sweep(double[] in, double[] out, int stride, int rows, int cols) {
        // the columns 1..vectorCols go in whole vectors, the rest one by one
        final int vectorCols = SPECIES.loopBound(cols);
        double residual = 0.0;
        int y = 1;
        for (; y < rows; y += 2) {
            int upper = y * stride;
            residual += sweepRowPair(in, out, upper, stride, vectorCols);
            residual += ScalarStencilSweep.sweepCells(in, out, upper, stride, vectorCols + 1, cols);
            residual += ScalarStencilSweep.sweepCells(in, out, upper + stride, stride, vectorCols + 1, cols);
        }
        if (y == rows) {
            int row = y * stride;
            residual += sweepRow(in, out, row, stride, vectorCols);
            residual += ScalarStencilSweep.sweepCells(in, out, row, stride, vectorCols + 1, cols);
        }
        return residual;
    }

    /** Columns {@code 1..vectorCols} (a multiple of the lane count) of the rows at {@code upper} and below it. */
    private static double sweepRowPair(double[] in, double[] out, int upper, int stride, int vectorCols) {
        final int north = upper - stride;
        final int lower = upper + stride;
        final int south = lower + stride;
        DoubleVector sum = DoubleVector.zero(SPECIES);
        for (int x = 1; x <= vectorCols; x += LANES) {
            DoubleVector upperOld = DoubleVector.fromArray(SPECIES, in, upper + x);
            DoubleVector lowerOld = DoubleVector.fromArray(SPECIES, in, lower + x);
            DoubleVector upperNew = DoubleVector.fromArray(SPECIES, in, north + x)
                    .add(lowerOld)
                    .add(DoubleVector.fromArray(SPECIES, in, upper + x - 1))
                    .add(DoubleVector.fromArray(SPECIES, in, upper + x + 1))
                    .mul(QUARTER);
            DoubleVector lowerNew = upperOld
                    .add(DoubleVector.fromArray(SPECIES, in, south + x))
                    .add(DoubleVector.fromArray(SPECIES, in, lower + x - 1))
                    .add(DoubleVector.fromArray(SPECIES, in, lower + x + 1))
                    .mul(QUARTER);
            upperNew.intoArray(out, upper + x);
            lowerNew.intoArray(out, lower + x);
            DoubleVector upperDelta = upperNew.sub(upperOld);
            DoubleVector lowerDelta = lowerNew.sub(lowerOld);
            sum = sum.add(upperDelta.mul(upperDelta).add(lowerDelta.mul(lowerDelta)));
        }
        return sum.reduceLanes(VectorOperators.ADD);
    }

    /** Columns {@code 1..vectorCols} of the single row at {@code row} (the last one of an odd count). */
    private static double sweepRow(double[] in, double[] out, int row, int stride, int vectorCols) {
        final int north = row - stride;
        final int south = row + stride;
        DoubleVector sum = DoubleVector.zero(SPECIES);
        for (int x = 1; x <= vectorCols; x += LANES) {
            DoubleVector old = DoubleVector.fromArray(SPECIES, in, row + x);
            DoubleVector next = DoubleVector.fromArray(SPECIES, in, north + x)
                    .add(DoubleVector.fromArray(SPECIES, in, south + x))
                    .add(DoubleVector.fromArray(SPECIES, in, row + x - 1))
                    .add(DoubleVector.fromArray(SPECIES, in, row + x + 1))
                    .mul(QUARTER);
            next.intoArray(out, row + x);
            DoubleVector delta = next.sub(old);
            sum = sum.add(delta.mul(delta));
        }
        return sum.reduceLanes(VectorOperators.ADD);
    }

    @Override
    public String description() {
        return "vector (" + instructionSet(SPECIES.vectorBitSize(), System.getProperty("os.arch", "")) + ", "
                + LANES + " lanes)";
    }

    /** A name for vectors of {@code bits} bits: the x86 extension that provides them, else the width. */
    static String instructionSet(int bits, String osArch) {
        boolean x86 = osArch.equals("amd64") || osArch.equals("x86_64");
        if (!x86) {
            return bits + "-bit";
        }
        return switch (bits) {
            case 512 -> "AVX-512";
            case 256 -> "AVX";
            case 128 -> "SSE";
            default -> bits + "-bit";
        };
    }

    @Override
    public String toString() {
        return description();
    }
}
