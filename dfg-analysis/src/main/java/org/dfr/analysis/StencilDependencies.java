package org.dfr.analysis;

import java.util.Arrays;

/**
 * {@code R(p)} of a {@link Stencil} on a {@link CartesianGrid}: every partition reached by one of the
 * stencil's offsets, clipped at the grid's edges or, when periodic, wrapped around (a torus).
 *
 * <p>Inputs are computed on demand rather than stored, so a layout of millions of partitions costs
 * nothing until it is analysed. On small periodic grids two offsets may wrap onto the same partition;
 * it is then listed once.
 */
public final class StencilDependencies implements PartitionDependencies {

    private final Stencil stencil;
    private final CartesianGrid grid;
    private final boolean periodic;

    StencilDependencies(Stencil stencil, CartesianGrid grid, boolean periodic) {
        if (stencil.dimensions() < 3 && grid.pz() != 1) {
            throw new IllegalArgumentException("a " + stencil.displayName() + " layout needs pz = 1 but was " + grid.pz());
        }
        if (stencil.dimensions() < 2 && grid.py() != 1) {
            throw new IllegalArgumentException("a " + stencil.displayName() + " layout needs py = 1 but was " + grid.py());
        }
        this.stencil = stencil;
        this.grid = grid;
        this.periodic = periodic;
    }

    /** The stencil whose reach this declares. */
    public Stencil stencil() {
        return stencil;
    }

    /** The partition layout. */
    public CartesianGrid grid() {
        return grid;
    }

    /** Whether neighbours wrap around the grid's edges. */
    public boolean periodic() {
        return periodic;
    }

    @Override
    public int partitionCount() {
        return grid.partitionCount();
    }

    @Override
    public int[] inputsOf(int partition) {
        Partitions.requireInRange(partition, partitionCount());
        int x = grid.xOf(partition);
        int y = grid.yOf(partition);
        int z = grid.zOf(partition);
        int[] ids = new int[stencil.points()];
        int count = 0;
        for (int i = 0; i < ids.length; i++) {
            int nx = neighbour(x + stencil.dx(i), grid.px());
            int ny = neighbour(y + stencil.dy(i), grid.py());
            int nz = neighbour(z + stencil.dz(i), grid.pz());
            if (nx >= 0 && ny >= 0 && nz >= 0) {
                ids[count++] = grid.idOf(nx, ny, nz);
            }
        }
        Arrays.sort(ids, 0, count);
        return Partitions.distinctPrefix(ids, count);
    }

    /** The coordinate {@code c} mapped into {@code 0..size-1}, or -1 when it falls off a clipped edge. */
    private int neighbour(int c, int size) {
        if (c >= 0 && c < size) {
            return c;
        }
        if (!periodic) {
            return -1;
        }
        return Math.floorMod(c, size);
    }

    @Override
    public String toString() {
        return stencil.displayName() + (periodic ? " periodic" : "") + " on " + grid;
    }
}
