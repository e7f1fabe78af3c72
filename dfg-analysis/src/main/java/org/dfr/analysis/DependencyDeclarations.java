package org.dfr.analysis;

import java.util.List;
import java.util.Set;
import org.jgrapht.Graph;

/**
 * Ready-made partition dependency declarations {@code R(p)}.
 *
 * <p>Cartesian layouts number partitions {@code (z * PY + y) * PX + x} (see {@link CartesianGrid}); every
 * stencil includes {@code p} itself in {@code R(p)}. With {@code periodic} the layout is a torus: the
 * neighbour past the last partition along an axis is the first one.
 *
 * <p>Every factory validates its input and throws {@link IllegalArgumentException} naming the bad value:
 * empty layouts, ids out of range, inputs listed twice, and asymmetric inputs where symmetry is claimed.
 */
public final class DependencyDeclarations {

    private DependencyDeclarations() {
    }

    /** 1D 3-point stencil on {@code n} partitions: {@code R(p) = {p-1, p, p+1}}, clipped or wrapped. */
    public static StencilDependencies oneD3Point(int n, boolean periodic) {
        return new StencilDependencies(Stencil.ONE_D_3_POINT, CartesianGrid.oneD(n), periodic);
    }

    /** 2D 5-point stencil on a {@code px x py} grid: {@code p} and its 4 Cartesian neighbours. */
    public static StencilDependencies twoD5Point(int px, int py, boolean periodic) {
        return new StencilDependencies(Stencil.TWO_D_5_POINT, CartesianGrid.twoD(px, py), periodic);
    }

    /** 2D 9-point stencil on a {@code px x py} grid: {@code p} and its 8 neighbours including diagonals. */
    public static StencilDependencies twoD9Point(int px, int py, boolean periodic) {
        return new StencilDependencies(Stencil.TWO_D_9_POINT, CartesianGrid.twoD(px, py), periodic);
    }

    /** 3D 7-point stencil on a {@code px x py x pz} grid: {@code p} and its 6 Cartesian neighbours. */
    public static StencilDependencies threeD7Point(int px, int py, int pz, boolean periodic) {
        return new StencilDependencies(Stencil.THREE_D_7_POINT, CartesianGrid.threeD(px, py, pz), periodic);
    }

    /** Any stencil on any grid of matching dimensionality. */
    public static StencilDependencies stencil(Stencil stencil, CartesianGrid grid, boolean periodic) {
        return new StencilDependencies(stencil, grid, periodic);
    }

    /**
     * Partition dependencies derived from a cell-level stencil, never from a hand-written table:
     * {@code q in R(p)} iff for some offset {@code o} of {@code stencil}, the block of {@code p} shifted by
     * {@code o} (wrapped around every axis when {@code periodic}) intersects the block of {@code q};
     * {@code p} is always in {@code R(p)}. Exact for any radius and any (uneven) split.
     *
     * @throws IllegalArgumentException if the stencil and the layout have different numbers of axes
     */
    public static CellStencilDependencies stencil(CellStencil stencil, BlockLayout layout, boolean periodic) {
        return new CellStencilDependencies(stencil, layout, periodic);
    }

    /** Every partition needs every partition (e.g. a global reduction inside each update). */
    public static PartitionDependencies global(int n) {
        return new GlobalDependencies(n);
    }

    /**
     * Explicit inputs: {@code inputs[p]} lists {@code R(p)} in any order (include {@code p} itself when the
     * kernel needs its own previous state).
     *
     * @param claimSymmetric when true, {@code q in R(p)} must imply {@code p in R(q)}, else rejected
     */
    public static PartitionDependencies fromAdjacency(int[][] inputs, boolean claimSymmetric) {
        return new AdjacencyDependencies(inputs, claimSymmetric);
    }

    /** As {@link #fromAdjacency(int[][], boolean)}, with {@code inputs.get(p)} listing {@code R(p)}. */
    public static PartitionDependencies fromAdjacency(List<int[]> inputs, boolean claimSymmetric) {
        if (inputs == null) {
            throw new IllegalArgumentException("a dependency declaration needs at least 1 partition but had null");
        }
        return new AdjacencyDependencies(inputs.toArray(new int[0][]), claimSymmetric);
    }

    /**
     * Inputs read off a JGraphT graph whose vertices are exactly the partition ids {@code 0..n-1}.
     *
     * <p>A directed edge {@code q -> p} is a data-flow edge: {@code q in R(p)} (the direction of
     * {@link ConeAnalyzer#dataFlowGraph()}). An undirected edge {@code {p, q}} puts each in the other's
     * inputs. {@code p} is its own input only when the graph has a loop at {@code p}. Parallel edges
     * count once.
     *
     * @throws IllegalArgumentException if the graph is empty or its vertices are not {@code 0..n-1}
     */
    public static <E> PartitionDependencies fromGraph(Graph<Integer, E> graph) {
        Set<Integer> vertices = graph.vertexSet();
        int n = vertices.size();
        if (n == 0) {
            throw new IllegalArgumentException("a dependency declaration needs at least 1 partition but the graph has 0 vertices");
        }
        for (Integer v : vertices) {
            if (v == null || v < 0 || v >= n) {
                throw new IllegalArgumentException("graph vertex " + v + " is not a partition id: a graph with " + n
                        + " vertices must use exactly the ids 0.." + (n - 1));
            }
        }
        boolean directed = graph.getType().isDirected();
        int[][] rows = new int[n][];
        for (int p = 0; p < n; p++) {
            rows[p] = inputsInGraph(graph, p, directed);
        }
        return new AdjacencyDependencies(rows, !directed);
    }

    private static <E> int[] inputsInGraph(Graph<Integer, E> graph, int p, boolean directed) {
        Set<E> edges = directed ? graph.incomingEdgesOf(p) : graph.edgesOf(p);
        return edges.stream()
                .mapToInt(e -> {
                    int source = graph.getEdgeSource(e);
                    return directed || source != p ? source : graph.getEdgeTarget(e);
                })
                .distinct()
                .toArray();
    }
}
