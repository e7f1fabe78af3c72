package org.dfr.kernels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.Map;
import java.util.function.Supplier;
import org.dfr.runtime.kernel.KernelOptions;
import org.dfr.runtime.kernel.KernelProblem;
import org.dfr.runtime.kernel.KernelProvider;
import org.dfr.runtime.kernel.KernelSetup;
import org.dfr.runtime.kernel.ReferenceSolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * jacobi2d9, heat3d7 and heat1d3 against independent naive implementations written straight from
 * DESIGN.md's formulas (plain 1D/2D/3D arrays with the boundary in the array), and distributed runs
 * against the reference.
 */
class BuiltInStencilKernelsTest {

    private static final int ITERATIONS = 5;

    private static KernelSetup create(KernelProvider provider, int[] cells, int[] grid, String boundary) {
        KernelOptions options = KernelOptions.resolve(provider.name(), provider.options(), Map.of("boundary", boundary));
        return provider.create(new KernelProblem(cells, grid, options));
    }

    /** Reference vs naive after every iteration, then the distributed driver on each grid vs the reference. */
    private static void check(KernelProvider provider, int[] cells, String boundary, Supplier<Naive> naiveFactory,
            int[]... grids) {
        KernelSetup single = create(provider, cells, ones(cells.length), boundary);
        ReferenceSolver reference = single.reference();
        Naive naive = naiveFactory.get();
        assertThat(reference.digest()).isEqualTo(naive.digest());
        double[] residuals = new double[ITERATIONS + 1];
        String[] digests = new String[ITERATIONS + 1];
        digests[0] = reference.digest();
        for (int i = 1; i <= ITERATIONS; i++) {
            residuals[i] = reference.iterate();
            double plain = naive.iterate();
            assertThat(residuals[i]).as("residual %d", i).isCloseTo(plain, within(1e-12 * Math.max(1, plain)));
            digests[i] = reference.digest();
            assertThat(digests[i]).as("iteration %d", i).isEqualTo(naive.digest());
        }
        assertThat(digests[ITERATIONS]).isNotEqualTo(digests[ITERATIONS - 1]);
        for (int[] grid : grids) {
            KernelSetup setup = create(provider, cells, grid, boundary);
            KernelDriver driver = new KernelDriver(setup.kernel());
            assertThat(setup.digest(driver::state)).isEqualTo(digests[0]);
            for (int i = 1; i <= ITERATIONS; i++) {
                double r = driver.iterate();
                assertThat(r).isCloseTo(residuals[i], within(1e-12 * Math.max(1, residuals[i])));
                assertThat(setup.digest(driver::state)).as("grid %s iteration %d", KernelProblem.join(grid), i)
                        .isEqualTo(digests[i]);
            }
            assertThat(setup.cellCount()).isEqualTo(product(cells));
        }
    }

    private static int[] ones(int n) {
        int[] a = new int[n];
        Arrays.fill(a, 1);
        return a;
    }

    private static long product(int[] a) {
        long p = 1;
        for (int v : a) {
            p *= v;
        }
        return p;
    }

    interface Naive {
        double iterate();

        String digest();
    }

    // ---- jacobi2d9 ----------------------------------------------------------------------------

    /** DESIGN.md's jacobi2d9 on u[y][x], y = 0..NY+1, x = 0..NX+1 (fixed) or on a torus (periodic). */
    static final class NaiveJacobi2d9 implements Naive {
        final int nx;
        final int ny;
        final boolean periodic;
        double[][] u;

        NaiveJacobi2d9(int nx, int ny, boolean periodic) {
            this.nx = nx;
            this.ny = ny;
            this.periodic = periodic;
            u = new double[ny + 2][nx + 2];
            for (int x = 0; x <= nx + 1; x++) {
                u[0][x] = 1.0;
                u[ny + 1][x] = 0.0;
            }
            for (int y = 1; y <= ny; y++) {
                u[y][0] = 0.5;
                u[y][nx + 1] = 0.0;
                for (int x = 1; x <= nx; x++) {
                    u[y][x] = ((31 * x + 17 * y) % 101) / 100.0;
                }
            }
        }

        double at(int y, int x) {
            if (periodic) {
                return u[Math.floorMod(y - 1, ny) + 1][Math.floorMod(x - 1, nx) + 1];
            }
            return u[y][x];
        }

        @Override
        public double iterate() {
            double[][] next = new double[ny + 2][];
            for (int y = 0; y <= ny + 1; y++) {
                next[y] = u[y].clone();
            }
            double residual = 0;
            for (int y = 1; y <= ny; y++) {
                for (int x = 1; x <= nx; x++) {
                    double v = 0.125 * (((((((at(y - 1, x - 1) + at(y - 1, x)) + at(y - 1, x + 1)) + at(y, x - 1))
                            + at(y, x + 1)) + at(y + 1, x - 1)) + at(y + 1, x)) + at(y + 1, x + 1));
                    residual += (v - u[y][x]) * (v - u[y][x]);
                    next[y][x] = v;
                }
            }
            u = next;
            return residual;
        }

        @Override
        public String digest() {
            Sha sha = new Sha();
            for (int y = 1; y <= ny; y++) {
                for (int x = 1; x <= nx; x++) {
                    sha.add(u[y][x]);
                }
            }
            return sha.hex();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"fixed", "periodic"})
    void when_jacobi2d9_then_naiveReferenceAndDistributedAgree(String boundary) {
        check(new Jacobi2d9Provider(), new int[] {7, 9}, boundary,
                () -> new NaiveJacobi2d9(7, 9, boundary.equals("periodic")),
                new int[] {2, 3}, new int[] {3, 1}, new int[] {1, 2}, new int[] {2, 2}, new int[] {7, 9}, new int[] {4, 5});
    }

    @Test
    void when_jacobi2d9_then_dependenciesIncludeDiagonals() {
        // 3 x 3 partitions:  0 1 2
        //                    3 4 5
        //                    6 7 8
        KernelSetup setup = create(new Jacobi2d9Provider(), new int[] {9, 7}, new int[] {3, 3}, "fixed");
        assertThat(setup.dependencies().inputsOf(4)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(setup.dependencies().inputsOf(0)).containsExactly(0, 1, 3, 4);
        assertThat(setup.kernel().haloLength(0, 4)).isEqualTo(1);
    }

    // ---- heat3d7 ------------------------------------------------------------------------------

    /** DESIGN.md's heat3d7 on u[z][y][x] with the boundary applied in DESIGN.md's order, or on a torus. */
    static final class NaiveHeat3d7 implements Naive {
        final int nx;
        final int ny;
        final int nz;
        final boolean periodic;
        double[][][] u;

        NaiveHeat3d7(int nx, int ny, int nz, boolean periodic) {
            this.nx = nx;
            this.ny = ny;
            this.nz = nz;
            this.periodic = periodic;
            u = new double[nz + 2][ny + 2][nx + 2];
            for (int y = 0; y <= ny + 1; y++) {
                for (int x = 0; x <= nx + 1; x++) {
                    u[0][y][x] = 1.0;
                    u[nz + 1][y][x] = 0.0;
                }
            }
            for (int z = 1; z <= nz; z++) {
                for (int x = 0; x <= nx + 1; x++) {
                    u[z][0][x] = 0.5;
                    u[z][ny + 1][x] = 0.0;
                }
                for (int y = 1; y <= ny; y++) {
                    u[z][y][0] = 0.25;
                    u[z][y][nx + 1] = 0.0;
                    for (int x = 1; x <= nx; x++) {
                        u[z][y][x] = ((31 * x + 17 * y + 13 * z) % 101) / 100.0;
                    }
                }
            }
        }

        double at(int z, int y, int x) {
            if (periodic) {
                return u[Math.floorMod(z - 1, nz) + 1][Math.floorMod(y - 1, ny) + 1][Math.floorMod(x - 1, nx) + 1];
            }
            return u[z][y][x];
        }

        @Override
        public double iterate() {
            double[][][] next = new double[nz + 2][ny + 2][];
            for (int z = 0; z <= nz + 1; z++) {
                for (int y = 0; y <= ny + 1; y++) {
                    next[z][y] = u[z][y].clone();
                }
            }
            double residual = 0;
            for (int z = 1; z <= nz; z++) {
                for (int y = 1; y <= ny; y++) {
                    for (int x = 1; x <= nx; x++) {
                        double c = u[z][y][x];
                        double s = ((((at(z, y, x - 1) + at(z, y, x + 1)) + at(z, y - 1, x)) + at(z, y + 1, x))
                                + at(z - 1, y, x)) + at(z + 1, y, x);
                        double v = c + 0.125 * (s - 6.0 * c);
                        residual += (v - c) * (v - c);
                        next[z][y][x] = v;
                    }
                }
            }
            u = next;
            return residual;
        }

        @Override
        public String digest() {
            Sha sha = new Sha();
            for (int z = 1; z <= nz; z++) {
                for (int y = 1; y <= ny; y++) {
                    for (int x = 1; x <= nx; x++) {
                        sha.add(u[z][y][x]);
                    }
                }
            }
            return sha.hex();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"fixed", "periodic"})
    void when_heat3d7_then_naiveReferenceAndDistributedAgree(String boundary) {
        check(new Heat3d7Provider(), new int[] {5, 7, 3}, boundary,
                () -> new NaiveHeat3d7(5, 7, 3, boundary.equals("periodic")),
                new int[] {2, 2, 2}, new int[] {1, 3, 1}, new int[] {2, 1, 3}, new int[] {5, 7, 3}, new int[] {1, 1, 2});
    }

    @Test
    void when_heat3d7_then_dependenciesAreTheSixNeighbours() {
        // 3 x 3 x 3 partitions: the centre 13 reads 12, 14 (x), 10, 16 (y), 4, 22 (z)
        KernelSetup setup = create(new Heat3d7Provider(), new int[] {6, 6, 6}, new int[] {3, 3, 3}, "fixed");
        assertThat(setup.dependencies().inputsOf(13)).containsExactly(4, 10, 12, 13, 14, 16, 22);
        assertThat(setup.kernel().haloLength(22, 13)).isEqualTo(4);
    }

    // ---- heat1d3 ------------------------------------------------------------------------------

    /** DESIGN.md's heat1d3 on u[0..N+1], or on a ring. */
    static final class NaiveHeat1d3 implements Naive {
        final int n;
        final boolean periodic;
        double[] u;

        NaiveHeat1d3(int n, boolean periodic) {
            this.n = n;
            this.periodic = periodic;
            u = new double[n + 2];
            u[0] = 1.0;
            u[n + 1] = 0.0;
            for (int x = 1; x <= n; x++) {
                u[x] = ((31 * x) % 101) / 100.0;
            }
        }

        double at(int x) {
            return periodic ? u[Math.floorMod(x - 1, n) + 1] : u[x];
        }

        @Override
        public double iterate() {
            double[] next = u.clone();
            double residual = 0;
            for (int x = 1; x <= n; x++) {
                double v = u[x] + 0.25 * ((at(x - 1) + at(x + 1)) - 2.0 * u[x]);
                residual += (v - u[x]) * (v - u[x]);
                next[x] = v;
            }
            u = next;
            return residual;
        }

        @Override
        public String digest() {
            Sha sha = new Sha();
            for (int x = 1; x <= n; x++) {
                sha.add(u[x]);
            }
            return sha.hex();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"fixed", "periodic"})
    void when_heat1d3_then_naiveReferenceAndDistributedAgree(String boundary) {
        check(new Heat1d3Provider(), new int[] {23}, boundary, () -> new NaiveHeat1d3(23, boundary.equals("periodic")),
                new int[] {5}, new int[] {7}, new int[] {2}, new int[] {23});
    }

    @Test
    void when_wrongShape_then_rejectedNamingTheKernel() {
        assertThatThrownBy(() -> create(new Heat1d3Provider(), new int[] {8, 8}, new int[] {2, 2}, "fixed"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("kernel heat1d3 takes 1 axis (--cells N");
        assertThatThrownBy(() -> create(new Jacobi2d9Provider(), new int[] {8, 2}, new int[] {2, 3}, "fixed"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("every partition needs at least one cell");
        assertThatThrownBy(() -> KernelOptions.resolve("heat3d7", new Heat3d7Provider().options(), Map.of("boundary", "open")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one of fixed, periodic");
    }

    @Test
    void when_providersListed_then_namesAndAxesAsDocumented() {
        assertThat(new Jacobi2d9Provider().name()).isEqualTo("jacobi2d9");
        assertThat(new Jacobi2d9Provider().dimensions()).isEqualTo(2);
        assertThat(new Heat3d7Provider().name()).isEqualTo("heat3d7");
        assertThat(new Heat3d7Provider().dimensions()).isEqualTo(3);
        assertThat(new Heat1d3Provider().name()).isEqualTo("heat1d3");
        assertThat(new Heat1d3Provider().dimensions()).isEqualTo(1);
    }
}
