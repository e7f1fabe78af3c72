package org.dfr.simulator.sweep;

import org.dfr.analysis.DependencyDeclarations;
import org.dfr.analysis.PartitionDependencies;

/**
 * A Cartesian decomposition of {@code px x py x pz} partitions (one per node) and its stencil: 1D 3-point,
 * 2D 5-point or 3D 7-point, not periodic.
 *
 * @param dimensions 1, 2 or 3
 * @param px         partitions along x
 * @param py         partitions along y (1 in 1D)
 * @param pz         partitions along z (1 in 1D and 2D)
 */
public record Decomposition(int dimensions, int px, int py, int pz) {

    /** @throws IllegalArgumentException if the dimensions or sizes do not fit together */
    public Decomposition {
        if (dimensions < 1 || dimensions > 3) {
            throw new IllegalArgumentException("dimensions must be 1, 2 or 3 but was " + dimensions);
        }
        if (px < 1 || py < 1 || pz < 1 || (dimensions < 3 && pz != 1) || (dimensions < 2 && py != 1)) {
            throw new IllegalArgumentException("grid " + px + "x" + py + "x" + pz + " does not fit " + dimensions + "D");
        }
    }

    /**
     * The most balanced decomposition of {@code nodes} partitions in {@code dimensions} dimensions: 1D is a
     * line; 2D the factor pair {@code px <= py} with the largest {@code px} (near-square); 3D the factor triple
     * {@code px <= py <= pz} with the smallest {@code pz}, then the largest {@code px} (near-cubic).
     */
    public static Decomposition balanced(int dimensions, int nodes) {
        if (nodes < 1) {
            throw new IllegalArgumentException("nodes must be at least 1 but was " + nodes);
        }
        return switch (dimensions) {
            case 1 -> new Decomposition(1, nodes, 1, 1);
            case 2 -> {
                int best = 1;
                for (int a = 1; (long) a * a <= nodes; a++) {
                    if (nodes % a == 0) {
                        best = a;
                    }
                }
                yield new Decomposition(2, best, nodes / best, 1);
            }
            case 3 -> {
                int bx = 1;
                int by = 1;
                int bz = nodes;
                for (int a = 1; (long) a * a * a <= nodes; a++) {
                    if (nodes % a != 0) {
                        continue;
                    }
                    int rest = nodes / a;
                    for (int b = a; (long) b * b <= rest; b++) {
                        if (rest % b != 0) {
                            continue;
                        }
                        int c = rest / b;
                        if (c < bz || (c == bz && a > bx)) {
                            bx = a;
                            by = b;
                            bz = c;
                        }
                    }
                }
                yield new Decomposition(3, bx, by, bz);
            }
            default -> throw new IllegalArgumentException("dimensions must be 1, 2 or 3 but was " + dimensions);
        };
    }

    /** Number of partitions (= nodes). */
    public int nodes() {
        return px * py * pz;
    }

    /** The stencil's dependency declaration on this grid. */
    public PartitionDependencies dependencies() {
        return switch (dimensions) {
            case 1 -> DependencyDeclarations.oneD3Point(px, false);
            case 2 -> DependencyDeclarations.twoD5Point(px, py, false);
            default -> DependencyDeclarations.threeD7Point(px, py, pz, false);
        };
    }

    /** {@code "1000"}, {@code "25x40"} or {@code "10x10x10"}. */
    public String grid() {
        return switch (dimensions) {
            case 1 -> Integer.toString(px);
            case 2 -> px + "x" + py;
            default -> px + "x" + py + "x" + pz;
        };
    }
}
