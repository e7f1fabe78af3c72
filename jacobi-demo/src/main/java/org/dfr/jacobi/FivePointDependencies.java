package org.dfr.jacobi;

import java.util.Arrays;
import org.dfr.analysis.PartitionDependencies;

/**
 * {@code R(p)} of a 5-point stencil on a non-periodic {@code px x py} partition grid: {@code p} itself
 * and its up-to-4 Cartesian neighbours, sorted ascending; partition id = {@code row * px + column}.
 *
 * <p>Kept private to this package so the Jacobi demo does not wait for dfg-analysis' general factory;
 * the two must agree, and can be swapped once that factory exists.
 */
final class FivePointDependencies implements PartitionDependencies {

    private final int px;
    private final int[][] inputs;

    FivePointDependencies(int px, int py) {
        if (px < 1 || py < 1) {
            throw new IllegalArgumentException("partition grid must be at least 1 x 1 but was " + px + " x " + py);
        }
        this.px = px;
        this.inputs = new int[px * py][];
        for (int p = 0; p < inputs.length; p++) {
            inputs[p] = neighbourhood(p % px, p / px, px, py);
        }
    }

    private static int[] neighbourhood(int column, int row, int px, int py) {
        int[] ids = new int[5];
        int n = 0;
        if (row > 0) {
            ids[n++] = (row - 1) * px + column;
        }
        if (column > 0) {
            ids[n++] = row * px + column - 1;
        }
        ids[n++] = row * px + column;
        if (column < px - 1) {
            ids[n++] = row * px + column + 1;
        }
        if (row < py - 1) {
            ids[n++] = (row + 1) * px + column;
        }
        // north < west < self < east < south holds by construction; sort anyway as the contract demands it
        int[] result = Arrays.copyOf(ids, n);
        Arrays.sort(result);
        return result;
    }

    @Override
    public int partitionCount() {
        return inputs.length;
    }

    @Override
    public int[] inputsOf(int partition) {
        if (partition < 0 || partition >= inputs.length) {
            throw new IllegalArgumentException("partition " + partition + " is out of range 0.." + (inputs.length - 1));
        }
        return inputs[partition];
    }

    /** Partition columns of the grid this declaration describes. */
    int px() {
        return px;
    }

    @Override
    public String toString() {
        return "FivePointDependencies[" + px + " x " + (inputs.length / px) + "]";
    }
}
