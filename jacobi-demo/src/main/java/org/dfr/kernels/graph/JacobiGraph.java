package org.dfr.kernels.graph;

import java.util.Arrays;

/**
 * The undirected graph of DESIGN.md's {@code graph-jacobi} on vertices {@code 0..n-1}, as sorted adjacency
 * rows (compressed sparse rows, no duplicates, no self-loops): for every {@code i}, {@code {i, i+1}} if
 * {@code i+1 < n}; {@code {i, i+w}} if {@code i+w < n}, {@code w = max(1, floor(sqrt(n)))}; and if
 * {@code i % 97 == 0}, {@code {i, (31*i + 7) % n}} unless that is {@code i}. Memory {@code O(n + edges)}.
 */
public final class JacobiGraph {

    private final int n;
    private final int[] rowStart;
    private final int[] neighbours;

    private JacobiGraph(int n, int[] rowStart, int[] neighbours) {
        this.n = n;
        this.rowStart = rowStart;
        this.neighbours = neighbours;
    }

    /**
     * The graph on {@code n} vertices.
     *
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public static JacobiGraph of(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("graph-jacobi needs at least 1 vertex but got " + n);
        }
        int w = Math.max(1, (int) Math.floor(Math.sqrt(n)));
        int[] count = new int[n + 1];
        for (int i = 0; i < n; i++) {
            if (i + 1 < n) {
                count[i]++;
                count[i + 1]++;
            }
            if ((long) i + w < n) {
                count[i]++;
                count[i + w]++;
            }
            int j = special(i, n);
            if (j >= 0) {
                count[i]++;
                count[j]++;
            }
        }
        int[] start = new int[n + 1];
        for (int i = 0; i < n; i++) {
            start[i + 1] = start[i] + count[i];
        }
        int[] fill = Arrays.copyOf(start, n);
        int[] raw = new int[start[n]];
        for (int i = 0; i < n; i++) {
            if (i + 1 < n) {
                raw[fill[i]++] = i + 1;
                raw[fill[i + 1]++] = i;
            }
            if ((long) i + w < n) {
                raw[fill[i]++] = i + w;
                raw[fill[i + w]++] = i;
            }
            int j = special(i, n);
            if (j >= 0) {
                raw[fill[i]++] = j;
                raw[fill[j]++] = i;
            }
        }
        // sort each row and drop duplicates (i+1 == i+w when w = 1; a special edge may repeat another)
        int[] rowStart = new int[n + 1];
        int at = 0;
        for (int i = 0; i < n; i++) {
            Arrays.sort(raw, start[i], start[i + 1]);
            rowStart[i] = at;
            for (int k = start[i]; k < start[i + 1]; k++) {
                if (at == rowStart[i] || raw[at - 1] != raw[k]) {
                    raw[at++] = raw[k];
                }
            }
        }
        rowStart[n] = at;
        return new JacobiGraph(n, rowStart, at == raw.length ? raw : Arrays.copyOf(raw, at));
    }

    /** The third edge of vertex {@code i}, or -1 when it has none. */
    private static int special(int i, int n) {
        if (i % 97 != 0) {
            return -1;
        }
        int j = (int) ((31L * i + 7) % n);
        return j == i ? -1 : j;
    }

    /** Number of vertices. */
    public int vertexCount() {
        return n;
    }

    /** Number of undirected edges. */
    public long edgeCount() {
        return neighbours.length / 2;
    }

    /** Number of distinct neighbours of {@code v}. */
    public int degree(int v) {
        return rowStart[v + 1] - rowStart[v];
    }

    /** Index in {@link #neighbourArray()} of {@code v}'s first neighbour. */
    public int rowStart(int v) {
        return rowStart[v];
    }

    /** Every adjacency row, concatenated; row {@code v} is {@code rowStart(v) .. rowStart(v+1)-1}. Not a copy. */
    int[] neighbourArray() {
        return neighbours;
    }

    /** The neighbours of {@code v}, ascending. */
    public int[] neighbours(int v) {
        return Arrays.copyOfRange(neighbours, rowStart[v], rowStart[v + 1]);
    }

    /** The right-hand side {@code b[i] = ((31*i) % 101) / 100.0}. */
    public static double b(int i) {
        return (int) ((31L * i) % 101) / 100.0;
    }
}
