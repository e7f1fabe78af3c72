package org.dfr.jacobi;

/**
 * The plain reference computation of a {@link JacobiProblem}: the whole {@code (ny+2) x (nx+2)} array,
 * row-major in one flat {@code double[]}, updated into a second array that then swaps with the first.
 * Every distributed run must reproduce its {@link #digest() field digest} exactly.
 *
 * <p>Not thread-safe; one instance is one run.
 */
public final class SequentialJacobi {

    private final JacobiProblem problem;
    private final int stride;
    private double[] current;
    private double[] next;
    private int iterations;

    /**
     * Sets up iteration 0 of {@code problem}.
     *
     * @throws IllegalArgumentException if the {@code (ny+2) x (nx+2)} array does not fit in one Java array
     */
    public SequentialJacobi(JacobiProblem problem) {
        this.problem = problem;
        this.stride = problem.nx() + 2;
        long length = (long) stride * (problem.ny() + 2);
        if (length > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("a " + problem.nx() + " x " + problem.ny() + " problem needs "
                    + length + " doubles, more than one Java array holds; use a BlockDecomposition instead");
        }
        this.current = initialField(problem);
        // both buffers carry the fixed boundary, which the sweep never writes
        this.next = current.clone();
    }

    /** The global array of {@code problem} at iteration 0, row-major, row length {@code nx+2}. */
    static double[] initialField(JacobiProblem problem) {
        int width = problem.nx() + 2;
        double[] field = new double[width * (problem.ny() + 2)];
        for (int y = 0; y <= problem.ny() + 1; y++) {
            for (int x = 0; x < width; x++) {
                field[y * width + x] = problem.initialValue(x, y);
            }
        }
        return field;
    }

    /** The problem being solved. */
    public JacobiProblem problem() {
        return problem;
    }

    /** Number of iterations performed so far; the current state is the state at this iteration. */
    public int iterations() {
        return iterations;
    }

    /**
     * Performs one iteration.
     *
     * @return its residual, the sum over the interior of {@code (new - old)^2}
     */
    public double iterate() {
        double residual = JacobiStencil.sweep(current, next, stride, problem.ny(), problem.nx());
        double[] swap = current;
        current = next;
        next = swap;
        iterations++;
        return residual;
    }

    /**
     * Performs {@code count} iterations.
     *
     * @return the residual of the last one, or {@code NaN} if {@code count} is 0
     * @throws IllegalArgumentException if {@code count} is negative
     */
    public double iterate(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("iteration count must be >= 0 but was " + count);
        }
        double residual = Double.NaN;
        for (int i = 0; i < count; i++) {
            residual = iterate();
        }
        return residual;
    }

    /** {@code u[y][x]} of the current state, boundary included ({@code 0 <= x <= nx+1}, {@code 0 <= y <= ny+1}). */
    public double value(int x, int y) {
        if (x < 0 || x >= stride || y < 0 || y > problem.ny() + 1) {
            throw new IllegalArgumentException("cell (x=" + x + ", y=" + y + ") is outside the global array "
                    + "x = 0.." + (stride - 1) + ", y = 0.." + (problem.ny() + 1));
        }
        return current[y * stride + x];
    }

    /** A copy of the current global array, row-major with row length {@code nx+2}. */
    public double[] field() {
        return current.clone();
    }

    /** The {@link FieldDigest} of the current state. */
    public String digest() {
        return FieldDigest.ofField(problem, current);
    }
}
