package org.dfr.runtime.stencil;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.dfr.analysis.BlockLayout;
import org.dfr.analysis.CellStencil;
import org.dfr.analysis.CellStencilDependencies;
import org.dfr.analysis.DependencyDeclarations;
import org.dfr.runtime.PartitionKernel;

/**
 * A block-decomposed stencil on 1, 2 or 3 axes as a {@link PartitionKernel}.
 *
 * <p>State of partition {@code p}: its block plus a ghost frame as wide as the stencil's radius along each
 * axis, laid out as {@link #grid(int)} says (x fastest, then y, then z). Dependencies come from the cell
 * stencil through {@link DependencyDeclarations#stencil(CellStencil, BlockLayout, boolean)}, never from a
 * table. The halo from {@code q} to {@code p} is every cell of {@code q}'s block (any periodic image of it)
 * that lies in {@code p}'s frame and that some offset of the stencil reads: edges and corners exactly where
 * the stencil needs them. The copy boxes of each pair are computed once per receiving partition, on first
 * use, so {@link #packHalo} and {@link #unpackHalo} are plain loops.
 *
 * <p>Dirichlet frame cells are written by {@link #initialState} and never overwritten. Under a periodic
 * boundary an axis with one partition makes {@code p} its own neighbour: those ghost cells are filled by
 * {@link #update} from {@code p}'s own interior before the sweep.
 *
 * <p>Immutable apart from the lazily built copy plans; safe for concurrent calls on distinct partitions.
 */
public final class StencilKernel implements PartitionKernel {

    private final BlockLayout layout;
    private final CellStencil stencil;
    private final StencilBoundary boundary;
    private final CellFunction initial;
    private final StencilArithmetic arithmetic;
    private final CellStencilDependencies dependencies;
    private final int dims;
    private final int[] cells = new int[3];
    private final int[] parts = new int[3];
    private final int[] radius = new int[3];
    private final AtomicReferenceArray<Plan> plans;

    /**
     * @param layout the cells and how they split
     * @param stencil the cells one update reads (frame widths and dependencies come from it)
     * @param boundary Dirichlet values or periodic
     * @param initial the value of every interior cell at iteration 0
     * @param arithmetic the update; reads only what {@code stencil} declares
     * @throws IllegalArgumentException if the stencil and layout have different numbers of axes
     */
    public StencilKernel(BlockLayout layout, CellStencil stencil, StencilBoundary boundary, CellFunction initial,
            StencilArithmetic arithmetic) {
        this.layout = Objects.requireNonNull(layout, "layout");
        this.stencil = Objects.requireNonNull(stencil, "stencil");
        this.boundary = Objects.requireNonNull(boundary, "boundary");
        this.initial = Objects.requireNonNull(initial, "initial");
        this.arithmetic = Objects.requireNonNull(arithmetic, "arithmetic");
        this.dependencies = DependencyDeclarations.stencil(stencil, layout, boundary.periodic());
        this.dims = layout.dimensions();
        for (int a = 0; a < 3; a++) {
            cells[a] = a < dims ? layout.cells(a) : 1;
            parts[a] = a < dims ? layout.parts(a) : 1;
            radius[a] = a < dims ? stencil.radius(a) : 0;
        }
        this.plans = new AtomicReferenceArray<>(layout.partitionCount());
    }

    /** A kernel whose arithmetic is a {@link LinearStencil}; its offsets are the cell stencil. */
    public static StencilKernel linear(BlockLayout layout, LinearStencil linear, StencilBoundary boundary,
            CellFunction initial) {
        return new StencilKernel(layout, linear.cellStencil(), boundary, initial, linear);
    }

    /** The same problem on another layout (for instance one block covering the domain). */
    public StencilKernel withLayout(BlockLayout other) {
        return new StencilKernel(other, stencil, boundary, initial, arithmetic);
    }

    /** The block layout. */
    public BlockLayout layout() {
        return layout;
    }

    /** The cell stencil. */
    public CellStencil stencil() {
        return stencil;
    }

    /** The boundary. */
    public StencilBoundary boundary() {
        return boundary;
    }

    /** The initial values. */
    public CellFunction initial() {
        return initial;
    }

    /** The update. */
    public StencilArithmetic arithmetic() {
        return arithmetic;
    }

    @Override
    public CellStencilDependencies dependencies() {
        return dependencies;
    }

    @Override
    public int partitionCount() {
        return dependencies.partitionCount();
    }

    /** The layout of {@code partition}'s state buffer. */
    public LocalGrid grid(int partition) {
        return plan(partition).grid;
    }

    /** Length of {@code partition}'s state buffer. */
    public int stateLength(int partition) {
        return grid(partition).length();
    }

    @Override
    public double[] initialState(int partition) {
        LocalGrid g = grid(partition);
        double[] state = new double[g.length()];
        for (int k = -g.rz(); k < g.nz() + g.rz(); k++) {
            int z = g.z0() + k;
            for (int j = -g.ry(); j < g.ny() + g.ry(); j++) {
                int y = g.y0() + j;
                int at = g.index(-g.rx(), j, k);
                for (int i = -g.rx(); i < g.nx() + g.rx(); i++) {
                    state[at++] = valueAt(g.x0() + i, y, z);
                }
            }
        }
        return state;
    }

    /** Initial or boundary value of global (unwrapped) cell {@code (x, y, z)}. */
    private double valueAt(int x, int y, int z) {
        boolean inside = x >= 1 && x <= cells[0] && y >= 1 && y <= cells[1] && z >= 1 && z <= cells[2];
        if (inside) {
            return initial.at(x, y, z);
        }
        if (boundary.periodic()) {
            return initial.at(wrap(x, 0), wrap(y, 1), wrap(z, 2));
        }
        return boundary.values().at(x, y, z);
    }

    private int wrap(int g, int axis) {
        return Math.floorMod(g - 1, cells[axis]) + 1;
    }

    @Override
    public int haloLength(int from, int to) {
        return (int) copiesFrom(to, from).cells;
    }

    @Override
    public void packHalo(int from, double[] fromState, int to, double[] out) {
        Copies copies = copiesFrom(to, from);
        checkState(from, fromState);
        checkHalo(copies, out, to, from);
        LocalGrid src = grid(from);
        int sy = src.strideY();
        int sz = src.strideZ();
        int at = 0;
        for (Copy c : copies.boxes) {
            for (int k = 0; k < c.ez; k++) {
                for (int j = 0; j < c.ey; j++) {
                    int s = c.src + k * sz + j * sy;
                    if (c.ex == 1) {
                        out[at++] = fromState[s];
                    } else {
                        System.arraycopy(fromState, s, out, at, c.ex);
                        at += c.ex;
                    }
                }
            }
        }
    }

    @Override
    public void unpackHalo(int to, double[] toState, int from, double[] in) {
        Copies copies = copiesFrom(to, from);
        checkState(to, toState);
        checkHalo(copies, in, to, from);
        LocalGrid dst = grid(to);
        int sy = dst.strideY();
        int sz = dst.strideZ();
        int at = 0;
        for (Copy c : copies.boxes) {
            for (int k = 0; k < c.ez; k++) {
                for (int j = 0; j < c.ey; j++) {
                    int d = c.dst + k * sz + j * sy;
                    if (c.ex == 1) {
                        toState[d] = in[at++];
                    } else {
                        System.arraycopy(in, at, toState, d, c.ex);
                        at += c.ex;
                    }
                }
            }
        }
    }

    @Override
    public double update(int partition, double[] in, double[] out) {
        Plan plan = plan(partition);
        checkState(partition, in);
        checkState(partition, out);
        LocalGrid g = plan.grid;
        int sy = g.strideY();
        int sz = g.strideZ();
        for (Copy c : plan.self) {
            for (int k = 0; k < c.ez; k++) {
                for (int j = 0; j < c.ey; j++) {
                    System.arraycopy(in, c.src + k * sz + j * sy, in, c.dst + k * sz + j * sy, c.ex);
                }
            }
        }
        return arithmetic.sweep(in, out, g);
    }

    @Override
    public long cellsOf(int partition) {
        return grid(partition).cells();
    }

    private void checkState(int partition, double[] state) {
        int expected = grid(partition).length();
        if (state == null || state.length != expected) {
            throw new IllegalArgumentException("partition " + partition + " has a state buffer of " + expected
                    + " doubles (ghost frame included) but got " + (state == null ? "null" : state.length));
        }
    }

    private static void checkHalo(Copies copies, double[] halo, int to, int from) {
        if (halo == null || halo.length < copies.cells) {
            throw new IllegalArgumentException("halo buffer of " + (halo == null ? "null" : halo.length)
                    + " doubles is shorter than the " + copies.cells + " partition " + from + " sends to " + to);
        }
    }

    /** The copy boxes filling {@code to}'s frame from {@code from}. */
    private Copies copiesFrom(int to, int from) {
        Plan plan = plan(to);
        int i = from == to ? -1 : Arrays.binarySearch(plan.inputs, from);
        if (i < 0) {
            throw new IllegalArgumentException("partition " + from + " is not an input of partition " + to
                    + " (its inputs are " + Arrays.toString(dependencies.inputsOf(to)) + "); halos travel only along "
                    + "declared dependencies");
        }
        return plan.copies[i];
    }

    private Plan plan(int partition) {
        if (partition < 0 || partition >= plans.length()) {
            throw new IllegalArgumentException("partition " + partition + " is out of range 0.." + (plans.length() - 1));
        }
        Plan plan = plans.get(partition);
        if (plan == null) {
            plan = buildPlan(partition);
            plans.compareAndSet(partition, null, plan);
        }
        return plan;
    }

    // ---- plan construction ------------------------------------------------------------------

    private int[] coordinates(int partition) {
        int[] c = new int[3];
        int rest = partition;
        for (int a = 0; a < 3; a++) {
            c[a] = rest % parts[a];
            rest /= parts[a];
        }
        return c;
    }

    private int first(int axis, int index) {
        return axis < dims ? layout.first(axis, index) : 1;
    }

    private int extent(int axis, int index) {
        return axis < dims ? layout.extent(axis, index) : 1;
    }

    private int owner(int axis, int globalCell) {
        return axis < dims ? layout.ownerOf(axis, globalCell) : 0;
    }

    private LocalGrid gridOf(int[] c) {
        return new LocalGrid(dims, extent(0, c[0]), extent(1, c[1]), extent(2, c[2]), radius[0], radius[1], radius[2],
                first(0, c[0]), first(1, c[1]), first(2, c[2]));
    }

    /** Which source a global (unwrapped) coordinate along {@code axis} maps to: boundary, or owner and image. */
    private long label(int axis, int g) {
        if (boundary.periodic()) {
            int image = Math.floorDiv(g - 1, cells[axis]);
            return ((long) image << 32) | owner(axis, wrap(g, axis));
        }
        return g < 1 || g > cells[axis] ? -1L : owner(axis, g);
    }

    private Plan buildPlan(int p) {
        int[] c = coordinates(p);
        LocalGrid g = gridOf(c);
        int[] lo = {g.x0(), g.y0(), g.z0()};
        int[] hi = {g.x0() + g.nx() - 1, g.y0() + g.ny() - 1, g.z0() + g.nz() - 1};
        int points = stencil.points();
        int[][] off = new int[points][3];
        for (int t = 0; t < points; t++) {
            for (int a = 0; a < dims; a++) {
                off[t][a] = stencil.offset(t, a);
            }
        }
        // per axis: breakpoints where "inside the interior", "read by offset t" or the source changes
        int[][] segments = new int[3][];
        for (int a = 0; a < 3; a++) {
            int r = radius[a];
            TreeSet<Integer> bp = new TreeSet<>();
            bp.add(lo[a] - r);
            bp.add(hi[a] + r + 1);
            bp.add(lo[a]);
            bp.add(hi[a] + 1);
            for (int t = 0; t < points; t++) {
                bp.add(Math.max(lo[a] - r, Math.min(hi[a] + r + 1, lo[a] + off[t][a])));
                bp.add(Math.max(lo[a] - r, Math.min(hi[a] + r + 1, hi[a] + off[t][a] + 1)));
            }
            for (int x = lo[a] - r + 1; x < lo[a]; x++) {
                if (label(a, x) != label(a, x - 1)) {
                    bp.add(x);
                }
            }
            for (int x = hi[a] + 2; x <= hi[a] + r; x++) {
                if (label(a, x) != label(a, x - 1)) {
                    bp.add(x);
                }
            }
            segments[a] = bp.stream().mapToInt(Integer::intValue).toArray();
        }
        int[] inputs = dependencies.inputsOf(p);
        List<List<Copy>> byInput = new ArrayList<>();
        for (int i = 0; i < inputs.length; i++) {
            byInput.add(new ArrayList<>());
        }
        List<Copy> self = new ArrayList<>();
        int[] s = new int[3];
        int[] e = new int[3];
        for (int iz = 0; iz + 1 < segments[2].length; iz++) {
            for (int iy = 0; iy + 1 < segments[1].length; iy++) {
                for (int ix = 0; ix + 1 < segments[0].length; ix++) {
                    int[] idx = {ix, iy, iz};
                    boolean interior = true;
                    for (int a = 0; a < 3; a++) {
                        s[a] = segments[a][idx[a]];
                        e[a] = segments[a][idx[a] + 1] - 1;
                        interior &= s[a] >= lo[a] && e[a] <= hi[a];
                    }
                    if (interior || !read(s, e, lo, hi, off)) {
                        continue;
                    }
                    Copy copy = copyFor(p, g, s, e, c);
                    if (copy == null) {
                        continue; // Dirichlet: written once by initialState
                    }
                    if (copy.from == p) {
                        self.add(copy);
                    } else {
                        int i = Arrays.binarySearch(inputs, copy.from);
                        if (i < 0) {
                            throw new IllegalStateException("stencil reads partition " + copy.from + " from partition "
                                    + p + " but the dependencies do not list it: " + dependencies);
                        }
                        byInput.get(i).add(copy);
                    }
                }
            }
        }
        Copies[] copies = new Copies[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            copies[i] = new Copies(byInput.get(i).toArray(new Copy[0]));
            if (inputs[i] != p && copies[i].cells == 0) {
                throw new IllegalStateException("partition " + inputs[i] + " is an input of " + p
                        + " but sends no cells: " + dependencies);
            }
        }
        return new Plan(g, inputs, copies, self.toArray(new Copy[0]));
    }

    /** Whether some offset reads the box {@code s..e} (which lies wholly inside or outside each shifted block). */
    private boolean read(int[] s, int[] e, int[] lo, int[] hi, int[][] off) {
        for (int[] o : off) {
            if (s[0] >= lo[0] + o[0] && e[0] <= hi[0] + o[0] && s[1] >= lo[1] + o[1] && e[1] <= hi[1] + o[1]
                    && s[2] >= lo[2] + o[2] && e[2] <= hi[2] + o[2]) {
                return true;
            }
        }
        return false;
    }

    /** The copy filling frame box {@code s..e} of {@code p}, or null when it is a Dirichlet boundary. */
    private Copy copyFor(int p, LocalGrid dst, int[] s, int[] e, int[] pc) {
        int[] qc = new int[3];
        int[] srcStart = new int[3];
        for (int a = 0; a < 3; a++) {
            if (!boundary.periodic() && (s[a] < 1 || s[a] > cells[a])) {
                return null;
            }
            int w = wrap(s[a], a);
            qc[a] = owner(a, w);
            srcStart[a] = w;
        }
        int q = (qc[2] * parts[1] + qc[1]) * parts[0] + qc[0];
        LocalGrid src = q == p ? dst : gridOf(qc);
        int srcIndex = src.index(srcStart[0] - src.x0(), srcStart[1] - src.y0(), srcStart[2] - src.z0());
        int dstIndex = dst.index(s[0] - dst.x0(), s[1] - dst.y0(), s[2] - dst.z0());
        return new Copy(q, srcIndex, dstIndex, e[0] - s[0] + 1, e[1] - s[1] + 1, e[2] - s[2] + 1);
    }

    @Override
    public String toString() {
        return "StencilKernel[" + stencil.points() + "-point, " + boundary + ", " + layout + "]";
    }

    /** One box copied from partition {@code from}'s buffer (at {@code src}) into the receiver's (at {@code dst}). */
    private record Copy(int from, int src, int dst, int ex, int ey, int ez) {
    }

    /** The boxes one pair exchanges, in halo order, and their total cell count. */
    private static final class Copies {
        final Copy[] boxes;
        final long cells;

        Copies(Copy[] boxes) {
            this.boxes = boxes;
            long n = 0;
            for (Copy c : boxes) {
                n += (long) c.ex * c.ey * c.ez;
            }
            this.cells = n;
        }
    }

    /** Everything precomputed for one receiving partition. */
    private static final class Plan {
        final LocalGrid grid;
        final int[] inputs;
        final Copies[] copies;
        final Copy[] self;

        Plan(LocalGrid grid, int[] inputs, Copies[] copies, Copy[] self) {
            this.grid = grid;
            this.inputs = inputs;
            this.copies = copies;
            this.self = self;
        }
    }
}
