package org.dfr.runtime.stencil;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.IntFunction;
import org.dfr.analysis.BlockLayout;

/**
 * The field digest of a stencil problem (DESIGN.md): SHA-256 of the interior as little-endian IEEE-754
 * doubles, z outermost, then y, then x, as lowercase hex. Assembled row by row from the partitions'
 * state buffers, without building the global array. Bits are hashed as stored.
 */
public final class StencilDigest {

    private StencilDigest() {
    }

    /**
     * Digest of the states of every partition of {@code kernel}.
     *
     * @param states the state buffer of each partition, laid out as {@link StencilKernel#grid(int)} says
     * @throws IllegalArgumentException if a buffer is missing or has the wrong length
     */
    public static String of(StencilKernel kernel, IntFunction<double[]> states) {
        BlockLayout layout = kernel.layout();
        int dims = layout.dimensions();
        int px = layout.parts(0);
        int py = dims > 1 ? layout.parts(1) : 1;
        int pz = dims > 2 ? layout.parts(2) : 1;
        MessageDigest sha = sha256();
        ByteBuffer row = ByteBuffer.allocate(Math.multiplyExact(layout.cells(0), Double.BYTES)).order(ByteOrder.LITTLE_ENDIAN);
        double[][] planeStates = new double[px * py][];
        LocalGrid[] planeGrids = new LocalGrid[px * py];
        for (int bz = 0; bz < pz; bz++) {
            for (int b = 0; b < px * py; b++) {
                int p = bz * py * px + b;
                planeGrids[b] = kernel.grid(p);
                planeStates[b] = checked(p, planeGrids[b], states.apply(p));
            }
            for (int k = 0; k < planeGrids[0].nz(); k++) {
                for (int by = 0; by < py; by++) {
                    for (int j = 0; j < planeGrids[by * px].ny(); j++) {
                        for (int bx = 0; bx < px; bx++) {
                            LocalGrid g = planeGrids[by * px + bx];
                            row.asDoubleBuffer().put(planeStates[by * px + bx], g.index(0, j, k), g.nx());
                            row.position(row.position() + g.nx() * Double.BYTES);
                        }
                        row.flip();
                        sha.update(row);
                        row.clear();
                    }
                }
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform must provide SHA-256", e);
        }
    }

    private static double[] checked(int partition, LocalGrid g, double[] state) {
        if (state == null) {
            throw new IllegalArgumentException("no state buffer for partition " + partition);
        }
        if (state.length != g.length()) {
            throw new IllegalArgumentException("partition " + partition + " owns a " + g.nx() + " x " + g.ny() + " x "
                    + g.nz() + " block whose state buffer has " + g.length() + " doubles (ghost frame included) but got "
                    + state.length);
        }
        return state;
    }
}
