package org.dfr.analysis;

import java.util.Arrays;

/**
 * {@code R(p)} derived from a cell-level {@link CellStencil} on a {@link BlockLayout}: {@code q in R(p)}
 * iff for some offset {@code o} the block of {@code p} shifted by {@code o} (wrapped around every axis
 * when periodic) intersects the block of {@code q}; {@code p} is always in {@code R(p)}.
 *
 * <p>Exact: a 5-point stencil never reaches diagonal partitions, a 9-point one does, and a radius-2
 * stencil on blocks narrower than 2 cells reaches partitions two blocks away. Computed once on
 * construction, per offset and axis as a range of block indices (never over all pairs), and stored as
 * compressed rows.
 */
public final class CellStencilDependencies implements PartitionDependencies {

    private final CellStencil stencil;
    private final BlockLayout layout;
    private final boolean periodic;
    private final AdjacencyDependencies rows;

    CellStencilDependencies(CellStencil stencil, BlockLayout layout, boolean periodic) {
        if (stencil == null || layout == null) {
            throw new IllegalArgumentException("a stencil declaration needs a stencil and a layout but got "
                    + stencil + " and " + layout);
        }
        if (stencil.dimensions() != layout.dimensions()) {
            throw new IllegalArgumentException("a " + stencil.dimensions() + "-axis stencil cannot run on the "
                    + layout.dimensions() + "-axis layout " + layout);
        }
        this.stencil = stencil;
        this.layout = layout;
        this.periodic = periodic;
        this.rows = new AdjacencyDependencies(compute(), false);
    }

    private int[][] compute() {
        int n = layout.partitionCount();
        int dims = layout.dimensions();
        int points = stencil.points();
        int[][] result = new int[n][];
        int[][] perAxis = new int[dims][];
        int[] buffer = new int[16];
        int[] coordinates = new int[dims];
        for (int p = 0; p < n; p++) {
            int rest = p;
            for (int a = 0; a < dims; a++) {
                coordinates[a] = rest % layout.parts(a);
                rest /= layout.parts(a);
            }
            int count = 0;
            buffer[count++] = p;
            offsets:
            for (int i = 0; i < points; i++) {
                for (int a = 0; a < dims; a++) {
                    int o = stencil.offset(i, a);
                    int lo = layout.first(a, coordinates[a]) + o;
                    int hi = layout.first(a, coordinates[a]) + layout.extent(a, coordinates[a]) - 1 + o;
                    perAxis[a] = blocksHit(a, lo, hi);
                    if (perAxis[a].length == 0) {
                        continue offsets;
                    }
                }
                long product = 1;
                for (int a = 0; a < dims; a++) {
                    product *= perAxis[a].length;
                }
                if (count + product > buffer.length) {
                    buffer = Arrays.copyOf(buffer, (int) Math.min(Integer.MAX_VALUE - 8,
                            Math.max(2L * buffer.length, count + product)));
                }
                count = addProduct(perAxis, buffer, count);
            }
            Arrays.sort(buffer, 0, count);
            result[p] = Partitions.distinctPrefix(buffer, count);
        }
        return result;
    }

    /** Appends every id of the Cartesian product of the per-axis block indices to {@code out}. */
    private int addProduct(int[][] perAxis, int[] out, int count) {
        int dims = perAxis.length;
        int[] at = new int[dims];
        while (true) {
            int id = 0;
            for (int a = dims - 1; a >= 0; a--) {
                id = id * layout.parts(a) + perAxis[a][at[a]];
            }
            out[count++] = id;
            int a = 0;
            while (a < dims && ++at[a] == perAxis[a].length) {
                at[a] = 0;
                a++;
            }
            if (a == dims) {
                return count;
            }
        }
    }

    /** Block indices along {@code axis} owning some cell of {@code lo..hi} (wrapped when periodic). */
    private int[] blocksHit(int axis, int lo, int hi) {
        int n = layout.cells(axis);
        if (!periodic) {
            int from = Math.max(lo, 1);
            int to = Math.min(hi, n);
            return from > to ? new int[0] : range(layout.owner(axis, from), layout.owner(axis, to));
        }
        if ((long) hi - lo + 1 >= n) {
            return range(0, layout.parts(axis) - 1);
        }
        int wlo = Math.floorMod(lo - 1, n) + 1;
        int whi = Math.floorMod(hi - 1, n) + 1;
        int first = layout.owner(axis, wlo);
        int last = layout.owner(axis, whi);
        if (wlo <= whi) {
            return range(first, last);
        }
        // wraps: first..P-1 and 0..last, which may overlap when the blocks are large
        if (last >= first) {
            return range(0, layout.parts(axis) - 1);
        }
        int[] head = range(0, last);
        int[] tail = range(first, layout.parts(axis) - 1);
        int[] both = Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, both, head.length, tail.length);
        return both;
    }

    private static int[] range(int from, int to) {
        int[] r = new int[to - from + 1];
        for (int i = 0; i < r.length; i++) {
            r[i] = from + i;
        }
        return r;
    }

    /** The cell stencil the dependencies come from. */
    public CellStencil stencil() {
        return stencil;
    }

    /** The block layout. */
    public BlockLayout layout() {
        return layout;
    }

    /** Whether every axis wraps around. */
    public boolean periodic() {
        return periodic;
    }

    @Override
    public int partitionCount() {
        return rows.partitionCount();
    }

    @Override
    public int[] inputsOf(int partition) {
        return rows.inputsOf(partition);
    }

    @Override
    public String toString() {
        return stencil.points() + "-point cell stencil" + (periodic ? " periodic" : "") + " on " + layout;
    }
}
