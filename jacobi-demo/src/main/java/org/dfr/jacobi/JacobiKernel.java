package org.dfr.jacobi;

import org.dfr.analysis.BlockLayout;
import org.dfr.analysis.CellStencil;
import org.dfr.analysis.DependencyDeclarations;
import org.dfr.analysis.PartitionDependencies;
import org.dfr.runtime.PartitionKernel;

/**
 * The Jacobi problem as a {@link PartitionKernel} over a {@link BlockDecomposition}.
 *
 * <p>State layout: partition {@code p} with a {@code w x h} block owns a flat row-major
 * {@code double[(h+2) * (w+2)]}, the block plus a one-cell ghost frame; local cell {@code (lx, ly)},
 * {@code 0 <= lx <= w+1}, {@code 0 <= ly <= h+1}, is global cell {@code (x0-1+lx, y0-1+ly)}. Ghost cells
 * on the global boundary hold the fixed boundary values; those facing a neighbour are overwritten by
 * its halo before every update. Corners of the ghost frame are never read.
 *
 * <p>Halos travel only between the 4 Cartesian neighbours (north = smaller y). A north/south halo is
 * one row of {@code w} values, a west/east halo one column of {@code h} values.
 *
 * <p>Immutable and stateless apart from the decomposition: safe for concurrent calls on distinct
 * partitions (and on distinct buffers of the same partition).
 */
public final class JacobiKernel implements PartitionKernel {

    private final BlockDecomposition decomposition;
    private final PartitionDependencies dependencies;

    /** A kernel computing {@code decomposition.problem()} split as {@code decomposition} says. */
    public JacobiKernel(BlockDecomposition decomposition) {
        this.decomposition = decomposition;
        // the partition dependencies come from the cell stencil through the analyzer, never from a table
        this.dependencies = DependencyDeclarations.stencil(CellStencil.fivePoint2d(),
                BlockLayout.of(new int[] {decomposition.problem().nx(), decomposition.problem().ny()},
                        new int[] {decomposition.px(), decomposition.py()}), false);
    }

    /** The decomposition this kernel computes. */
    public BlockDecomposition decomposition() {
        return decomposition;
    }

    @Override
    public PartitionDependencies dependencies() {
        return dependencies;
    }

    @Override
    public int partitionCount() {
        return decomposition.partitionCount();
    }

    /** Length of {@code partition}'s state buffer, {@code (h+2) * (w+2)}. */
    public int stateLength(int partition) {
        BlockDecomposition.Block block = decomposition.block(partition);
        long length = (long) (block.width() + 2) * (block.height() + 2);
        if (length > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("partition " + partition + " owns a " + block.width() + " x "
                    + block.height() + " block, too large for one Java array; use more partitions");
        }
        return (int) length;
    }

    @Override
    public double[] initialState(int partition) {
        BlockDecomposition.Block block = decomposition.block(partition);
        JacobiProblem problem = decomposition.problem();
        int stride = block.width() + 2;
        double[] state = new double[stateLength(partition)];
        // every frame cell is a real cell of the global array: the boundary, or a neighbour's initial value
        for (int ly = 0; ly <= block.height() + 1; ly++) {
            int y = block.y0() - 1 + ly;
            for (int lx = 0; lx < stride; lx++) {
                state[ly * stride + lx] = problem.initialValue(block.x0() - 1 + lx, y);
            }
        }
        return state;
    }

    @Override
    public int haloLength(int from, int to) {
        Side side = sideOf(to, from);
        BlockDecomposition.Block block = decomposition.block(to);
        return side.isRow() ? block.width() : block.height();
    }

    @Override
    public void packHalo(int from, double[] fromState, int to, double[] out) {
        // the side of `from` that faces `to` is the edge `to` needs
        Side facing = sideOf(from, to);
        BlockDecomposition.Block block = decomposition.block(from);
        int w = block.width();
        int h = block.height();
        int stride = w + 2;
        checkLengths(from, fromState, block, out, facing.isRow() ? w : h);
        switch (facing) {
            case NORTH -> System.arraycopy(fromState, stride + 1, out, 0, w);
            case SOUTH -> System.arraycopy(fromState, h * stride + 1, out, 0, w);
            case WEST -> copyColumnOut(fromState, stride, 1, h, out);
            case EAST -> copyColumnOut(fromState, stride, w, h, out);
            default -> throw new AssertionError(facing);
        }
    }

    @Override
    public void unpackHalo(int to, double[] toState, int from, double[] in) {
        Side side = sideOf(to, from);
        BlockDecomposition.Block block = decomposition.block(to);
        int w = block.width();
        int h = block.height();
        int stride = w + 2;
        checkLengths(to, toState, block, in, side.isRow() ? w : h);
        switch (side) {
            case NORTH -> System.arraycopy(in, 0, toState, 1, w);
            case SOUTH -> System.arraycopy(in, 0, toState, (h + 1) * stride + 1, w);
            case WEST -> copyColumnIn(in, toState, stride, 0, h);
            case EAST -> copyColumnIn(in, toState, stride, w + 1, h);
            default -> throw new AssertionError(side);
        }
    }

    @Override
    public double update(int partition, double[] in, double[] out) {
        BlockDecomposition.Block block = decomposition.block(partition);
        return JacobiStencil.sweep(in, out, block.width() + 2, block.height(), block.width());
    }

    @Override
    public long cellsOf(int partition) {
        return decomposition.block(partition).cells();
    }

    private static void copyColumnOut(double[] state, int stride, int lx, int h, double[] out) {
        for (int ly = 1; ly <= h; ly++) {
            out[ly - 1] = state[ly * stride + lx];
        }
    }

    private static void copyColumnIn(double[] in, double[] state, int stride, int lx, int h) {
        for (int ly = 1; ly <= h; ly++) {
            state[ly * stride + lx] = in[ly - 1];
        }
    }

    private void checkLengths(int partition, double[] state, BlockDecomposition.Block block, double[] halo,
            int haloLength) {
        int expected = (block.width() + 2) * (block.height() + 2);
        if (state.length != expected) {
            throw new IllegalArgumentException("partition " + partition + " has a state buffer of " + expected
                    + " doubles but got " + state.length);
        }
        if (halo.length < haloLength) {
            throw new IllegalArgumentException("halo buffer of " + halo.length + " doubles is shorter than the "
                    + haloLength + " needed at partition " + partition);
        }
    }

    /**
     * On which side of {@code partition} its Cartesian neighbour {@code neighbour} lies.
     *
     * @throws IllegalArgumentException if the two are not Cartesian neighbours
     */
    private Side sideOf(int partition, int neighbour) {
        int column = decomposition.columnOf(partition);
        int row = decomposition.rowOf(partition);
        int otherColumn = decomposition.columnOf(neighbour);
        int otherRow = decomposition.rowOf(neighbour);
        if (otherColumn == column && otherRow == row - 1) {
            return Side.NORTH;
        }
        if (otherColumn == column && otherRow == row + 1) {
            return Side.SOUTH;
        }
        if (otherRow == row && otherColumn == column - 1) {
            return Side.WEST;
        }
        if (otherRow == row && otherColumn == column + 1) {
            return Side.EAST;
        }
        throw new IllegalArgumentException("partitions " + partition + " and " + neighbour
                + " are not Cartesian neighbours in the " + decomposition.px() + " x " + decomposition.py()
                + " grid; halos only travel between north/south/west/east neighbours");
    }

    /** Where a neighbour lies; north is the smaller y. */
    private enum Side {
        NORTH, SOUTH, WEST, EAST;

        boolean isRow() {
            return this == NORTH || this == SOUTH;
        }
    }

    @Override
    public String toString() {
        return "JacobiKernel[" + decomposition + "]";
    }
}
