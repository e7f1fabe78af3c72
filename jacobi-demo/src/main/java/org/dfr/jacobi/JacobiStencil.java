package org.dfr.jacobi;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;

/**
 * The one place that applies the 5-point Jacobi update to a rectangle surrounded by a one-cell frame,
 * stored row-major in a flat array. {@link SequentialJacobi} (the whole array) and {@link JacobiKernel}
 * (one block plus its ghost frame) both call it, so both perform the same floating-point operations
 * on every cell.
 *
 * <p>The loop itself is one of two implementations of {@code StencilSweep}, chosen once when this
 * class loads: the vector form ({@code VectorStencilSweep}, the incubating Vector API) when the module
 * {@code jdk.incubator.vector} is in the boot layer ({@code java --add-modules jdk.incubator.vector}),
 * C2 is on and the CPU has vectors of at least two doubles, otherwise the scalar loop
 * ({@code ScalarStencilSweep}). Both give bit-for-bit identical fields; only the residual's summation
 * order differs. {@code -D}{@value #IMPLEMENTATION_PROPERTY}{@code =scalar} forces the scalar loop
 * (to compare the two in benchmarks); any other value, or none, means the vector form when possible.
 * {@link #implementation()} says which one runs.
 */
public final class JacobiStencil {

    /** The module the vector form needs. */
    public static final String VECTOR_MODULE = "jdk.incubator.vector";
    /** System property that forces the scalar loop when set to {@code scalar}. */
    public static final String IMPLEMENTATION_PROPERTY = "dfr.stencil";

    private static final StencilSweep ACTIVE = select(
            ModuleLayer.boot().findModule(VECTOR_MODULE).isPresent(),
            optimizingCompilerEnabled(),
            System.getProperty(IMPLEMENTATION_PROPERTY));

    /** Most sweeps {@link #warmUp()} runs: far more calls and loop trips than C2 (tier 4) needs to compile the loops. */
    static final int WARM_UP_MAX_SWEEPS = 20_000;
    /** {@link #warmUp()} times its sweeps in batches of this many. */
    private static final int WARM_UP_BATCH = 500;
    /** A batch this many times faster than the first one runs compiled code: the warm-up is done. */
    private static final int WARM_UP_SPEED_UP = 100;
    /** The grid of {@link #warmUp()}: a pair of rows and a single one, whole vectors and a scalar tail. */
    private static final int WARM_UP_COLS = 67;
    private static final int WARM_UP_ROWS = 3;

    private static boolean warm;

    private JacobiStencil() {
    }

    /**
     * The implementation that runs in this JVM, e.g. {@code vector (AVX-512, 8 lanes)} or
     * {@code scalar (jdk.incubator.vector not loaded)}.
     */
    public static String implementation() {
        return ACTIVE.description();
    }

    /**
     * The implementation for a JVM that has (or lacks) the vector module and C2, given the value of
     * {@value #IMPLEMENTATION_PROPERTY} ({@code null} when unset). Refers to
     * {@code VectorStencilSweep}, whose loading needs the module, only when the module is loaded.
     */
    static StencilSweep select(boolean vectorModuleLoaded, boolean optimizingCompiler, String requested) {
        if ("scalar".equals(requested)) {
            return new ScalarStencilSweep("-D" + IMPLEMENTATION_PROPERTY + "=scalar");
        }
        if (!vectorModuleLoaded) {
            return new ScalarStencilSweep(VECTOR_MODULE + " not loaded");
        }
        if (!optimizingCompiler) {
            // without C2 the Vector API runs its plain-Java fallback, some 50 times slower than this loop
            return new ScalarStencilSweep("C2 is off, the Vector API needs it");
        }
        if (VectorStencilSweep.lanes() < 2) {
            return new ScalarStencilSweep("the CPU's vectors hold a single double");
        }
        return new VectorStencilSweep();
    }

    /**
     * Whether C2 compiles hot code: not with {@code -Xint}, nor with {@code -XX:TieredStopAtLevel} below
     * 4 (C1 only, as fast-starting test JVMs use). True when the JVM does not say.
     */
    static boolean optimizingCompilerEnabled() {
        if (System.getProperty("java.vm.info", "").contains("interpreted mode")) {
            return false;
        }
        try {
            HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (hotSpot == null) {
                return true;
            }
            boolean tiered = Boolean.parseBoolean(hotSpot.getVMOption("TieredCompilation").getValue());
            int stopAtLevel = Integer.parseInt(hotSpot.getVMOption("TieredStopAtLevel").getValue());
            return !tiered || stopAtLevel >= 4;
        } catch (RuntimeException | LinkageError e) {
            // not HotSpot, or jdk.management left out of the image: assume the usual server compiler
            return true;
        }
    }

    /**
     * Runs the loop on a small grid often enough for C2 to compile it, so that the first sweeps of a
     * run are not the slow ones: until C2 has compiled it, the vector loop runs some 50 times slower
     * than the scalar one (the Vector API is only fast once intrinsified), and a cold rank would spend
     * a few hundred milliseconds in its first iteration. Takes about that long the first time in a JVM
     * (sweeps until a batch runs {@value #WARM_UP_SPEED_UP} times faster than the first, at most
     * {@value #WARM_UP_MAX_SWEEPS} sweeps of a tiny grid; much less with the scalar loop), and returns at
     * once afterwards; safe to call from any thread.
     */
    public static synchronized void warmUp() {
        if (warm) {
            return;
        }
        int stride = WARM_UP_COLS + 2;
        double[] a = new double[stride * (WARM_UP_ROWS + 2)];
        for (int i = 0; i < a.length; i++) {
            a[i] = (i % 11) / 10.0;
        }
        double[] b = a.clone();
        long firstBatchNanos = -1;
        for (int done = 0; done < WARM_UP_MAX_SWEEPS; done += WARM_UP_BATCH) {
            long start = System.nanoTime();
            for (int i = 0; i < WARM_UP_BATCH; i += 2) {
                ACTIVE.sweep(a, b, stride, WARM_UP_ROWS, WARM_UP_COLS);
                ACTIVE.sweep(b, a, stride, WARM_UP_ROWS, WARM_UP_COLS);
            }
            long nanos = System.nanoTime() - start;
            if (firstBatchNanos < 0) {
                firstBatchNanos = nanos;
            } else if (nanos * WARM_UP_SPEED_UP < firstBatchNanos) {
                // only compiled code is this much faster (a busy machine can only make a batch slower)
                break;
            }
        }
        warm = true;
    }

    /** The implementation {@link #sweep} uses; for tests. */
    static StencilSweep active() {
        return ACTIVE;
    }

    /**
     * For every cell {@code (x, y)}, {@code 1 <= x <= cols}, {@code 1 <= y <= rows}, of the framed
     * rectangle with row length {@code stride}:
     * {@code out[y][x] = 0.25 * (((in[y-1][x] + in[y+1][x]) + in[y][x-1]) + in[y][x+1])}.
     * The frame of {@code out} is not touched.
     *
     * @return the sum over those cells of {@code (out - in)^2} (in an unspecified order)
     * @throws IllegalArgumentException if the arrays do not have exactly {@code (rows+2) * stride} elements,
     *         or are the same array
     */
    static double sweep(double[] in, double[] out, int stride, int rows, int cols) {
        long needed = (long) (rows + 2) * stride;
        if (rows < 1 || cols < 1 || stride < cols + 2 || in.length != needed || out.length != needed) {
            throw new IllegalArgumentException("a " + cols + " x " + rows + " rectangle with row length "
                    + stride + " needs stride >= " + (cols + 2) + " and arrays of exactly " + needed
                    + " doubles, but got " + in.length + " and " + out.length);
        }
        if (in == out) {
            throw new IllegalArgumentException("a Jacobi sweep needs two distinct buffers, got the same one twice");
        }
        return ACTIVE.sweep(in, out, stride, rows, cols);
    }
}
