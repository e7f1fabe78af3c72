package org.dfr.jacobi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * The field digest of DESIGN.md: SHA-256 of the interior as little-endian IEEE-754 doubles, row-major
 * ({@code y = 1..ny} outer, {@code x = 1..nx} inner), as lowercase hex. Any run of the same problem
 * must give the same digest as {@link SequentialJacobi}.
 *
 * <p>Bits are hashed as stored ({@code -0.0} and {@code 0.0} differ, NaN payloads are kept).
 */
public final class FieldDigest {

    private FieldDigest() {
    }

    /**
     * Digest of a global array laid out as {@link SequentialJacobi#field()}: row-major,
     * {@code (ny+2) x (nx+2)}, boundary included.
     *
     * @throws IllegalArgumentException if {@code field} has the wrong length
     */
    public static String ofField(JacobiProblem problem, double[] field) {
        int stride = problem.nx() + 2;
        long expected = (long) stride * (problem.ny() + 2);
        if (field.length != expected) {
            throw new IllegalArgumentException("a " + problem.nx() + " x " + problem.ny() + " field has "
                    + expected + " doubles (boundary included) but the array has " + field.length);
        }
        RowHasher hasher = new RowHasher(problem.nx());
        for (int y = 1; y <= problem.ny(); y++) {
            hasher.add(field, y * stride + 1, problem.nx());
            hasher.endRow();
        }
        return hasher.hex();
    }

    /**
     * Digest assembled from the state buffers of a {@link JacobiKernel} on {@code decomposition}
     * (block plus ghost frame, as {@link JacobiKernel#initialState} lays them out), row by row
     * without building the global array.
     *
     * @param states the state buffer of each partition; must cover every partition
     * @throws IllegalArgumentException if a partition's buffer is missing or has the wrong length
     */
    public static String ofPartitions(BlockDecomposition decomposition, Map<Integer, double[]> states) {
        return ofPartitions(decomposition, p -> {
            double[] state = states.get(p);
            if (state == null) {
                throw new IllegalArgumentException("no state buffer for partition " + p + "; the map has "
                        + states.keySet() + " but the " + decomposition.px() + " x " + decomposition.py()
                        + " decomposition needs 0.." + (decomposition.partitionCount() - 1));
            }
            return state;
        });
    }

    /**
     * As {@link #ofPartitions(BlockDecomposition, Map)}, with the buffers looked up by a function.
     *
     * @throws IllegalArgumentException if a buffer is null or has the wrong length
     */
    public static String ofPartitions(BlockDecomposition decomposition, IntFunction<double[]> states) {
        int px = decomposition.px();
        RowHasher hasher = new RowHasher(decomposition.problem().nx());
        double[][] rowOfStates = new double[px][];
        BlockDecomposition.Block[] rowOfBlocks = new BlockDecomposition.Block[px];
        for (int row = 0; row < decomposition.py(); row++) {
            for (int column = 0; column < px; column++) {
                int p = decomposition.partitionAt(column, row);
                rowOfBlocks[column] = decomposition.block(p);
                rowOfStates[column] = checkedState(p, rowOfBlocks[column], states.apply(p));
            }
            int height = rowOfBlocks[0].height();
            for (int y = 1; y <= height; y++) {
                for (int column = 0; column < px; column++) {
                    int width = rowOfBlocks[column].width();
                    hasher.add(rowOfStates[column], y * (width + 2) + 1, width);
                }
                hasher.endRow();
            }
        }
        return hasher.hex();
    }

    private static double[] checkedState(int partition, BlockDecomposition.Block block, double[] state) {
        long expected = (long) (block.width() + 2) * (block.height() + 2);
        if (state == null) {
            throw new IllegalArgumentException("no state buffer for partition " + partition);
        }
        if (state.length != expected) {
            throw new IllegalArgumentException("partition " + partition + " owns a " + block.width() + " x "
                    + block.height() + " block whose state buffer has " + expected
                    + " doubles (ghost frame included) but got " + state.length);
        }
        return state;
    }

    /** Feeds whole interior rows to SHA-256 through one reusable little-endian byte buffer. */
    private static final class RowHasher {
        private final MessageDigest sha256;
        private final ByteBuffer bytes;

        RowHasher(int nx) {
            try {
                sha256 = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java platform must provide SHA-256", e);
            }
            bytes = ByteBuffer.allocate(Math.multiplyExact(nx, Double.BYTES)).order(ByteOrder.LITTLE_ENDIAN);
        }

        void add(double[] source, int offset, int count) {
            bytes.asDoubleBuffer().put(source, offset, count);
            bytes.position(bytes.position() + count * Double.BYTES);
        }

        void endRow() {
            if (bytes.hasRemaining()) {
                throw new IllegalStateException("row incomplete: " + bytes.remaining() + " bytes missing");
            }
            bytes.flip();
            sha256.update(bytes);
            bytes.clear();
        }

        String hex() {
            return HexFormat.of().formatHex(sha256.digest());
        }
    }
}
