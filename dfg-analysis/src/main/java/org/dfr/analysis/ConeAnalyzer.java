package org.dfr.analysis;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import org.jgrapht.Graph;
import org.jgrapht.graph.AsUnmodifiableGraph;
import org.jgrapht.graph.DefaultDirectedGraph;
import org.jgrapht.graph.DefaultEdge;

/**
 * Computes recovery cones on a declared dependency graph.
 *
 * <p>Construction reads {@code R(p)} of every partition once into compressed sparse rows (two int
 * arrays), checking that the declaration keeps its contract (ids in range, sorted, distinct). Planning is
 * then a breadth-first search from the lost partitions along the inputs, bounded at depth {@code m-1}:
 * the cone levels are nested balls ({@code level k} = partitions within distance {@code m-k}), so one
 * search yields all levels. The search touches only the partitions it reaches and allocates no object per
 * partition; its working arrays are reused between plans.
 *
 * <p>The {@linkplain #dataFlowGraph() JGraphT data-flow graph} is built on first request only: for a
 * million partitions it costs far more memory and time than the arrays a plan needs.
 *
 * <p>Instances are immutable and thread-safe; concurrent plans each get their own working arrays.
 */
public final class ConeAnalyzer {

    private final PartitionDependencies dependencies;
    private final int partitionCount;
    /** Every partition is an input of every partition; no edge arrays are stored for it. */
    private final boolean complete;
    private final int[] rowStart;
    private final int[] inputs;
    private final AtomicReference<BfsScratch> idleScratch = new AtomicReference<>();
    private volatile Graph<Integer, DefaultEdge> dataFlowGraph;

    /**
     * @throws IllegalArgumentException if the declaration breaks its contract (an input out of range,
     *                                  unsorted or repeated) or has more than ~2^31 dependency edges
     */
    public ConeAnalyzer(PartitionDependencies dependencies) {
        this.dependencies = dependencies;
        this.partitionCount = dependencies.partitionCount();
        if (partitionCount < 1) {
            throw new IllegalArgumentException("partitionCount must be at least 1 but was " + partitionCount);
        }
        this.complete = dependencies instanceof GlobalDependencies;
        if (complete) {
            this.rowStart = new int[0];
            this.inputs = new int[0];
        } else {
            this.rowStart = new int[partitionCount + 1];
            this.inputs = readInputs(dependencies, rowStart);
        }
    }

    private static int[] readInputs(PartitionDependencies dependencies, int[] rowStart) {
        int n = rowStart.length - 1;
        int[] edges = new int[Math.max(16, n * 4)];
        int at = 0;
        for (int p = 0; p < n; p++) {
            rowStart[p] = at;
            int[] row = dependencies.inputsOf(p);
            for (int i = 0; i < row.length; i++) {
                int q = row[i];
                if (q < 0 || q >= n) {
                    throw new InvalidDeclarationException("partition " + p + " declares input " + q
                            + ", which is out of range 0.." + (n - 1));
                }
                if (i > 0 && q <= row[i - 1]) {
                    throw new InvalidDeclarationException("inputs of partition " + p + " must be sorted ascending and"
                            + " distinct but were " + Arrays.toString(row));
                }
            }
            if (at + row.length > edges.length) {
                long grown = Math.max((long) edges.length * 2, (long) at + row.length);
                if (grown > Integer.MAX_VALUE - 8) {
                    throw new IllegalArgumentException("the declaration has more than " + (Integer.MAX_VALUE - 8)
                            + " dependency edges, too many to analyse");
                }
                edges = Arrays.copyOf(edges, (int) grown);
            }
            System.arraycopy(row, 0, edges, at, row.length);
            at += row.length;
        }
        rowStart[n] = at;
        return Arrays.copyOf(edges, at);
    }

    /**
     * About the heap an analyzer of {@code dependencies} needs at its peak, to refuse a declaration past the
     * machine before an {@code OutOfMemoryError}: every dependency edge is kept as an int, and while the edges are
     * read the growing array holds up to about 3 ints an edge ({@code -Xmx1g} failed at 1.6e7 partitions of a
     * 5-point stencil; 9e6 fitted). The edges per partition are sampled over 1000 evenly spaced partitions.
     */
    public static long estimatedBytes(PartitionDependencies dependencies) {
        long n = dependencies.partitionCount();
        if (dependencies instanceof GlobalDependencies || n < 1) {
            return Math.max(n, 0) * 8;
        }
        int samples = (int) Math.min(1000, n);
        long inputs = 0;
        for (int i = 0; i < samples; i++) {
            inputs += dependencies.inputsOf((int) (samples == 1 ? 0 : i * (n - 1) / (samples - 1))).length;
        }
        return n * 8 + 12 * n * inputs / samples;
    }

    /** The declaration analysed. */
    public PartitionDependencies dependencies() {
        return dependencies;
    }

    /** Number of partitions of the declaration. */
    public int partitionCount() {
        return partitionCount;
    }

    /**
     * Whether some partition outside {@code partitions} declares one of them as an input. When none does, no
     * survivor waits for the lost partitions' data, so a run's survivors may compute the failure's iteration
     * before its reduction stops them, and the recovery's {@code t} is one later than the kill's.
     *
     * @throws IllegalArgumentException if an id is out of range
     */
    public boolean readByOthers(int[] partitions) {
        boolean[] in = new boolean[partitionCount];
        int distinct = 0;
        for (int p : partitions) {
            if (p < 0 || p >= partitionCount) {
                throw new IllegalArgumentException("partition " + p + " is out of range 0.." + (partitionCount - 1));
            }
            if (!in[p]) {
                in[p] = true;
                distinct++;
            }
        }
        if (complete) {
            return distinct < partitionCount;
        }
        for (int q = 0; q < partitionCount; q++) {
            if (in[q]) {
                continue;
            }
            for (int e = rowStart[q]; e < rowStart[q + 1]; e++) {
                if (in[inputs[e]]) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The recovery plan after losing {@code lostPartitions} at the start of {@code failureIteration}, with
     * the last checkpoint at {@code checkpointIteration}: {@code m = t-1-c} lost iterations, cone level
     * {@code k} (recomputing iteration {@code c+k}) = partitions within dependency distance {@code m-k} of
     * any lost partition. Repeated lost ids count once.
     *
     * @throws IllegalArgumentException if no partition is lost, a lost id is out of range,
     *                                  {@code checkpointIteration < 0} or {@code failureIteration <= checkpointIteration}
     */
    public RecoveryPlan plan(int[] lostPartitions, int checkpointIteration, int failureIteration) {
        if (checkpointIteration < 0) {
            throw new IllegalArgumentException("checkpoint iteration must be >= 0 but was " + checkpointIteration);
        }
        if (failureIteration <= checkpointIteration) {
            throw new IllegalArgumentException("failure iteration must be > checkpoint iteration " + checkpointIteration
                    + " but was " + failureIteration);
        }
        int[] lost = normalizeLost(lostPartitions);
        int m = failureIteration - 1 - checkpointIteration;
        BfsScratch scratch = acquireScratch();
        try {
            ConeSearch search = search(lost, Math.max(m - 1, 0), scratch);
            int[] cone = search.sortedVertices();
            int[] distances = new int[cone.length];
            for (int i = 0; i < cone.length; i++) {
                distances[i] = scratch.distance[cone[i]];
            }
            return new RecoveryPlan(partitionCount, lost, checkpointIteration, failureIteration, cone, distances,
                    search.ballSizes());
        } finally {
            releaseScratch(scratch);
        }
    }

    /**
     * {@code result[d]} = number of partitions within dependency distance {@code d} of any of
     * {@code lostPartitions}, for {@code d = 0..maxDistance} ({@code result[0]} = number of distinct lost ids).
     */
    public int[] ballSizes(int[] lostPartitions, int maxDistance) {
        if (maxDistance < 0) {
            throw new IllegalArgumentException("maxDistance must be >= 0 but was " + maxDistance);
        }
        int[] lost = normalizeLost(lostPartitions);
        BfsScratch scratch = acquireScratch();
        try {
            ConeSearch search = search(lost, maxDistance, scratch);
            int[] sizes = new int[maxDistance + 1];
            for (int d = 0; d <= maxDistance; d++) {
                sizes[d] = search.ballSize(d);
            }
            return sizes;
        } finally {
            releaseScratch(scratch);
        }
    }

    /**
     * Ball sizes up to {@code maxDistance}, truncated after the last non-empty layer (every larger distance
     * has the last size). Used by {@link ExpectedCostAnalyzer}, whose intervals may be far longer than the
     * graph is deep.
     */
    int[] compactBallSizes(int[] lostPartitions, int maxDistance) {
        int[] lost = normalizeLost(lostPartitions);
        BfsScratch scratch = acquireScratch();
        try {
            return search(lost, maxDistance, scratch).ballSizes();
        } finally {
            releaseScratch(scratch);
        }
    }

    private int[] normalizeLost(int[] lostPartitions) {
        if (lostPartitions == null || lostPartitions.length == 0) {
            throw new IllegalArgumentException("at least one lost partition is needed but none was given");
        }
        int[] lost = lostPartitions.clone();
        for (int p : lost) {
            if (p < 0 || p >= partitionCount) {
                throw new IllegalArgumentException("lost partition " + p + " is out of range 0.." + (partitionCount - 1));
            }
        }
        Arrays.sort(lost);
        return Partitions.distinctPrefix(lost, lost.length);
    }

    /** Breadth-first search from {@code sources} (sorted, distinct) along the inputs, to depth {@code maxDistance}. */
    private ConeSearch search(int[] sources, int maxDistance, BfsScratch s) {
        s.reset();
        int[] queue = s.queue;
        int tail = 0;
        for (int v : sources) {
            s.visit(v, 0);
            queue[tail++] = v;
        }
        int[] ballSizes = new int[16];
        ballSizes[0] = tail;
        int deepest = 0;
        int head = 0;
        while (deepest < maxDistance && head < tail && tail < partitionCount) {
            int layerEnd = tail;
            int next = deepest + 1;
            if (complete) {
                tail = visitAllUnvisited(s, next, tail);
            } else {
                for (; head < layerEnd; head++) {
                    int p = queue[head];
                    for (int e = rowStart[p], end = rowStart[p + 1]; e < end; e++) {
                        int q = inputs[e];
                        if (!s.visited(q)) {
                            s.visit(q, next);
                            queue[tail++] = q;
                        }
                    }
                }
            }
            head = layerEnd;
            if (tail == layerEnd) {
                break;
            }
            deepest = next;
            if (deepest == ballSizes.length) {
                ballSizes = Arrays.copyOf(ballSizes, ballSizes.length * 2);
            }
            ballSizes[deepest] = tail;
        }
        return new ConeSearch(s, tail, Arrays.copyOf(ballSizes, deepest + 1));
    }

    private int visitAllUnvisited(BfsScratch s, int distance, int tail) {
        for (int v = 0; v < partitionCount; v++) {
            if (!s.visited(v)) {
                s.visit(v, distance);
                s.queue[tail++] = v;
            }
        }
        return tail;
    }

    private BfsScratch acquireScratch() {
        BfsScratch scratch = idleScratch.getAndSet(null);
        return scratch != null ? scratch : new BfsScratch(partitionCount);
    }

    private void releaseScratch(BfsScratch scratch) {
        idleScratch.set(scratch);
    }

    /**
     * The data-flow graph as a JGraphT graph, built on first call: vertices are partition ids, and an edge
     * {@code q -> p} means the state of {@code q} at iteration {@code i} flows into the update of {@code p} to
     * iteration {@code i+1} ({@code q in R(p)}; a loop when {@code p} reads itself). Read-only.
     * A global declaration yields {@code n^2} edges.
     */
    public Graph<Integer, DefaultEdge> dataFlowGraph() {
        Graph<Integer, DefaultEdge> graph = dataFlowGraph;
        if (graph == null) {
            synchronized (this) {
                graph = dataFlowGraph;
                if (graph == null) {
                    graph = buildDataFlowGraph();
                    dataFlowGraph = graph;
                }
            }
        }
        return graph;
    }

    private Graph<Integer, DefaultEdge> buildDataFlowGraph() {
        Graph<Integer, DefaultEdge> graph = new DefaultDirectedGraph<>(DefaultEdge.class);
        for (int p = 0; p < partitionCount; p++) {
            graph.addVertex(p);
        }
        for (int p = 0; p < partitionCount; p++) {
            if (complete) {
                for (int q = 0; q < partitionCount; q++) {
                    graph.addEdge(q, p);
                }
            } else {
                for (int e = rowStart[p]; e < rowStart[p + 1]; e++) {
                    graph.addEdge(inputs[e], p);
                }
            }
        }
        return new AsUnmodifiableGraph<>(graph);
    }
}
