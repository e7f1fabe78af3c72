package org.dfr.runtime.stencil;

/**
 * The layout of one partition's state buffer: its block of {@code nx x ny x nz} interior cells surrounded
 * by a ghost frame {@code rx, ry, rz} cells wide (0 along axes the stencil does not reach or the problem
 * does not have), flat with x fastest, then y, then z.
 *
 * <p>Local coordinates {@code (i, j, k)} are 0-based in the interior ({@code 0..nx-1} etc.) and extend into
 * the frame ({@code -rx..nx+rx-1}); local {@code (i, j, k)} is global cell {@code (x0+i, y0+j, z0+k)}.
 *
 * @param dimensions axes of the problem, 1 to 3
 * @param nx interior cells along x
 * @param ny interior cells along y (1 for a 1D problem)
 * @param nz interior cells along z (1 for a 1D or 2D problem)
 * @param rx frame width along x
 * @param ry frame width along y
 * @param rz frame width along z
 * @param x0 global x (1-based) of the first interior cell
 * @param y0 global y of the first interior cell
 * @param z0 global z of the first interior cell
 */
public record LocalGrid(int dimensions, int nx, int ny, int nz, int rx, int ry, int rz, int x0, int y0, int z0) {

    /** @throws IllegalArgumentException if the buffer would exceed a Java array */
    public LocalGrid {
        long length = (long) (nx + 2 * rx) * (ny + 2 * ry) * (nz + 2 * rz);
        if (length > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a block of " + nx + " x " + ny + " x " + nz + " cells with its frame needs "
                    + length + " doubles, too many for one Java array; use more partitions");
        }
    }

    /** Padded extent along x, {@code nx + 2 rx}. */
    public int paddedX() {
        return nx + 2 * rx;
    }

    /** Padded extent along y, {@code ny + 2 ry}. */
    public int paddedY() {
        return ny + 2 * ry;
    }

    /** Padded extent along z, {@code nz + 2 rz}. */
    public int paddedZ() {
        return nz + 2 * rz;
    }

    /** Distance between x neighbours in the buffer: 1. */
    public int strideX() {
        return 1;
    }

    /** Distance between y neighbours in the buffer, {@link #paddedX()}. */
    public int strideY() {
        return paddedX();
    }

    /** Distance between z neighbours in the buffer, {@code paddedX() * paddedY()}. */
    public int strideZ() {
        return paddedX() * paddedY();
    }

    /** Length of the state buffer. */
    public int length() {
        return strideZ() * paddedZ();
    }

    /** Number of interior cells. */
    public long cells() {
        return (long) nx * ny * nz;
    }

    /** Buffer index of local cell {@code (i, j, k)} (interior 0-based, frame negative or beyond). */
    public int index(int i, int j, int k) {
        return ((k + rz) * paddedY() + (j + ry)) * paddedX() + (i + rx);
    }

    /** Buffer offset of a cell displaced by {@code (dx, dy, dz)}. */
    public int delta(int dx, int dy, int dz) {
        return dz * strideZ() + dy * strideY() + dx;
    }
}
