package org.dfr.kernels.graph;

import java.util.Arrays;
import org.dfr.analysis.BlockLayout;
import org.dfr.analysis.DependencyDeclarations;
import org.dfr.analysis.PartitionDependencies;
import org.dfr.runtime.PartitionKernel;

/**
 * {@code graph-jacobi} as a {@link PartitionKernel}: partition {@code p} owns the vertex range
 * {@code first(p) .. first(p)+count(p)-1} (the first {@code n mod P} ranges get one more vertex).
 *
 * <p>State of {@code p}: its own {@code x} values, followed by ghost values of the external vertices its
 * vertices are adjacent to, ascending by vertex id. The halo from {@code q} to {@code p} is {@code x} of
 * {@code q}'s vertices that {@code p}'s vertices are adjacent to, ascending (a contiguous run of {@code p}'s
 * ghosts). Dependencies come from the graph: {@code R(p)} is {@code p} and the owners of the far ends of
 * {@code p}'s cut edges. Memory {@code O(n + edges)}. Safe for concurrent calls on distinct partitions.
 */
public final class GraphJacobiKernel implements PartitionKernel {

    private final JacobiGraph graph;
    private final BlockLayout ranges;
    private final PartitionDependencies dependencies;
    private final Part[] parts;

    /**
     * @param graph the graph
     * @param partitions number of vertex ranges, {@code 1..n}
     * @throws IllegalArgumentException if {@code partitions} is out of range
     */
    public GraphJacobiKernel(JacobiGraph graph, int partitions) {
        this.graph = graph;
        int n = graph.vertexCount();
        if (partitions < 1 || partitions > n) {
            throw new IllegalArgumentException(partitions + " partitions of the " + n
                    + "-vertex graph: must be 1.." + n + " (every partition needs at least one vertex)");
        }
        this.ranges = new BlockLayout(new int[] {n}, new int[] {partitions});
        this.parts = new Part[partitions];
        int[][] inputs = new int[partitions][];
        int[] adjacency = graph.neighbourArray();
        for (int p = 0; p < partitions; p++) {
            parts[p] = new Part(p, adjacency);
            inputs[p] = parts[p].inputs;
        }
        this.dependencies = DependencyDeclarations.fromAdjacency(inputs, true);
    }

    /** The graph. */
    public JacobiGraph graph() {
        return graph;
    }

    /** First vertex (0-based) of {@code partition}. */
    public int firstVertex(int partition) {
        return part(partition).first;
    }

    /** Number of vertices of {@code partition}. */
    public int vertexCount(int partition) {
        return part(partition).count;
    }

    /** The external vertices {@code partition} reads, ascending (its ghost order). */
    public int[] ghosts(int partition) {
        return part(partition).ghosts.clone();
    }

    /** Length of {@code partition}'s state buffer: its vertices plus its ghosts. */
    public int stateLength(int partition) {
        Part part = part(partition);
        return part.count + part.ghosts.length;
    }

    @Override
    public PartitionDependencies dependencies() {
        return dependencies;
    }

    @Override
    public int partitionCount() {
        return parts.length;
    }

    @Override
    public double[] initialState(int partition) {
        return new double[stateLength(partition)];
    }

    @Override
    public int haloLength(int from, int to) {
        Part receiver = part(to);
        int i = receiver.inputIndex(from);
        return receiver.haloStart[i + 1] - receiver.haloStart[i];
    }

    @Override
    public void packHalo(int from, double[] fromState, int to, double[] out) {
        Part receiver = part(to);
        Part sender = part(from);
        checkState(sender, fromState);
        int i = receiver.inputIndex(from);
        int lo = receiver.haloStart[i];
        int length = receiver.haloStart[i + 1] - lo;
        checkHalo(out, length, from, to);
        int[] ghosts = receiver.ghosts;
        for (int t = 0; t < length; t++) {
            out[t] = fromState[ghosts[lo + t] - sender.first];
        }
    }

    @Override
    public void unpackHalo(int to, double[] toState, int from, double[] in) {
        Part receiver = part(to);
        checkState(receiver, toState);
        int i = receiver.inputIndex(from);
        int lo = receiver.haloStart[i];
        int length = receiver.haloStart[i + 1] - lo;
        checkHalo(in, length, from, to);
        System.arraycopy(in, 0, toState, receiver.count + lo, length);
    }

    @Override
    public double update(int partition, double[] in, double[] out) {
        Part part = part(partition);
        checkState(part, in);
        checkState(part, out);
        int[] row = part.localRowStart;
        int[] local = part.localNeighbours;
        int first = part.first;
        double residual = 0.0;
        for (int v = 0; v < part.count; v++) {
            double s = JacobiGraph.b(first + v);
            int end = row[v + 1];
            for (int k = row[v]; k < end; k++) {
                s = s + in[local[k]];
            }
            double x = s / ((end - row[v]) + 1.0);
            double d = x - in[v];
            residual += d * d;
            out[v] = x;
        }
        return residual;
    }

    @Override
    public long cellsOf(int partition) {
        return part(partition).count;
    }

    private Part part(int partition) {
        if (partition < 0 || partition >= parts.length) {
            throw new IllegalArgumentException("partition " + partition + " is out of range 0.." + (parts.length - 1));
        }
        return parts[partition];
    }

    private static void checkState(Part part, double[] state) {
        int expected = part.count + part.ghosts.length;
        if (state == null || state.length != expected) {
            throw new IllegalArgumentException("partition " + part.id + " has a state buffer of " + expected
                    + " doubles (vertices and ghosts) but got " + (state == null ? "null" : state.length));
        }
    }

    private static void checkHalo(double[] halo, int length, int from, int to) {
        if (halo == null || halo.length < length) {
            throw new IllegalArgumentException("halo buffer of " + (halo == null ? "null" : halo.length)
                    + " doubles is shorter than the " + length + " partition " + from + " sends to " + to);
        }
    }

    /** One vertex range with its ghosts, local adjacency and inputs. */
    private final class Part {
        final int id;
        final int first;
        final int count;
        final int[] ghosts;
        final int[] localRowStart;
        final int[] localNeighbours;
        final int[] inputs;
        /** {@code haloStart[i] .. haloStart[i+1]-1}: the ghosts owned by {@code inputs[i]} (empty for {@code p}). */
        final int[] haloStart;

        Part(int p, int[] adjacency) {
            this.id = p;
            this.first = ranges.first(0, p) - 1;
            this.count = ranges.extent(0, p);
            int lo = graph.rowStart(first);
            int hi = graph.rowStart(first + count);
            int[] external = new int[hi - lo];
            int e = 0;
            for (int k = lo; k < hi; k++) {
                int u = adjacency[k];
                if (u < first || u >= first + count) {
                    external[e++] = u;
                }
            }
            Arrays.sort(external, 0, e);
            int distinct = 0;
            for (int k = 0; k < e; k++) {
                if (distinct == 0 || external[distinct - 1] != external[k]) {
                    external[distinct++] = external[k];
                }
            }
            this.ghosts = Arrays.copyOf(external, distinct);
            this.localRowStart = new int[count + 1];
            this.localNeighbours = new int[hi - lo];
            for (int v = 0; v < count; v++) {
                localRowStart[v] = graph.rowStart(first + v) - lo;
                for (int k = graph.rowStart(first + v); k < graph.rowStart(first + v + 1); k++) {
                    int u = adjacency[k];
                    localNeighbours[k - lo] = u >= first && u < first + count ? u - first
                            : count + Arrays.binarySearch(ghosts, u);
                }
            }
            localRowStart[count] = hi - lo;
            // group the ghosts by owner (ascending, as the ghosts are); p itself slots in with an empty run
            int[] owners = new int[ghosts.length + 1];
            int[] starts = new int[ghosts.length + 2];
            int groups = 0;
            boolean selfAdded = false;
            int k = 0;
            while (k < ghosts.length) {
                int q = ranges.ownerOf(0, ghosts[k] + 1);
                if (!selfAdded && q > p) {
                    owners[groups] = p;
                    starts[groups++] = k;
                    selfAdded = true;
                }
                owners[groups] = q;
                starts[groups++] = k;
                while (k < ghosts.length && ranges.ownerOf(0, ghosts[k] + 1) == q) {
                    k++;
                }
            }
            if (!selfAdded) {
                owners[groups] = p;
                starts[groups++] = ghosts.length;
            }
            starts[groups] = ghosts.length;
            this.inputs = Arrays.copyOf(owners, groups);
            this.haloStart = Arrays.copyOf(starts, groups + 1);
        }

        int inputIndex(int from) {
            int i = from == id ? -1 : Arrays.binarySearch(inputs, from);
            if (i < 0) {
                throw new IllegalArgumentException("partition " + from + " is not an input of partition " + id
                        + " (its inputs are " + Arrays.toString(inputs) + "); halos travel only along cut edges");
            }
            return i;
        }
    }
}
