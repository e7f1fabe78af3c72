package org.dfr.runtime.stencil;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.dfr.analysis.BlockLayout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class StencilKernelTest {

    private static final CellFunction INITIAL = (x, y, z) -> ((31 * x + 17 * y + 13 * z) % 101) / 100.0;
    // varies along the frame so that a ghost cell filled from the wrong place shows in the digest
    private static final CellFunction WALL = (x, y, z) -> 0.3 + 0.01 * Math.floorMod(7 * x + 3 * y + 5 * z, 13);

    private static final int[][] THREE_POINT = {{-1}, {0}, {1}};
    private static final int[][] FIVE_POINT_1D = {{-2}, {-1}, {0}, {1}, {2}};
    private static final int[][] UPWIND_1D = {{0}, {-1}, {-2}};
    private static final int[][] FIVE_POINT_2D = {{0, -1}, {0, 1}, {-1, 0}, {1, 0}};
    private static final int[][] NINE_POINT_2D = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {0, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
    private static final int[][] RADIUS_2_2D = {{0, 0}, {2, -1}, {-2, 2}, {0, -2}, {1, 1}, {-1, 0}, {2, 0}, {0, 2}};
    private static final int[][] SEVEN_POINT_3D = {{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}, {0, 0, 0}};
    private static final int[][] CORNERS_3D = {{0, 0, 0}, {1, 1, 1}, {-1, -1, -1}, {1, -1, 1}, {-2, 0, 1}, {0, 2, -1}};

    static Stream<Arguments> cases() {
        return Stream.of(
                // 1D radius 1: |1 2 3|4 5 6|7 8 9|10 11|12 13| ...
                Arguments.of("1D 3-point", THREE_POINT, new int[] {13}, new int[] {5}),
                Arguments.of("1D 3-point, one cell per block", THREE_POINT, new int[] {7}, new int[] {7}),
                Arguments.of("1D 3-point, 2 blocks", THREE_POINT, new int[] {7}, new int[] {2}),
                Arguments.of("1D 3-point, 1 block", THREE_POINT, new int[] {7}, new int[] {1}),
                // 1D radius 2 on blocks of 1 cell: reads two blocks away
                Arguments.of("1D radius 2, narrow blocks", FIVE_POINT_1D, new int[] {11}, new int[] {11}),
                Arguments.of("1D radius 2, uneven", FIVE_POINT_1D, new int[] {11}, new int[] {4}),
                Arguments.of("1D radius 2, 2 blocks", FIVE_POINT_1D, new int[] {5}, new int[] {2}),
                Arguments.of("1D radius 2, 1 block", FIVE_POINT_1D, new int[] {5}, new int[] {1}),
                Arguments.of("1D radius 2 on 1 cell", FIVE_POINT_1D, new int[] {1}, new int[] {1}),
                Arguments.of("1D upwind", UPWIND_1D, new int[] {9}, new int[] {6}),
                // 2D
                Arguments.of("2D 5-point 2x3", FIVE_POINT_2D, new int[] {7, 5}, new int[] {2, 3}),
                Arguments.of("2D 9-point 2x3", NINE_POINT_2D, new int[] {7, 5}, new int[] {2, 3}),
                Arguments.of("2D 9-point 3x1", NINE_POINT_2D, new int[] {7, 5}, new int[] {3, 1}),
                Arguments.of("2D 9-point 2x2", NINE_POINT_2D, new int[] {4, 5}, new int[] {2, 2}),
                Arguments.of("2D 9-point 1x2", NINE_POINT_2D, new int[] {4, 5}, new int[] {1, 2}),
                Arguments.of("2D 9-point 1x1", NINE_POINT_2D, new int[] {4, 5}, new int[] {1, 1}),
                Arguments.of("2D radius 2 narrow", RADIUS_2_2D, new int[] {9, 7}, new int[] {4, 3}),
                Arguments.of("2D radius 2 one cell per block", RADIUS_2_2D, new int[] {5, 4}, new int[] {5, 4}),
                Arguments.of("2D radius 2 1x2", RADIUS_2_2D, new int[] {5, 4}, new int[] {1, 2}),
                Arguments.of("2D radius 2 2x1", RADIUS_2_2D, new int[] {3, 4}, new int[] {2, 1}),
                // 3D
                Arguments.of("3D 7-point 2x2x2", SEVEN_POINT_3D, new int[] {5, 4, 3}, new int[] {2, 2, 2}),
                Arguments.of("3D 7-point 1x2x3", SEVEN_POINT_3D, new int[] {5, 4, 3}, new int[] {1, 2, 3}),
                Arguments.of("3D corners radius 2", CORNERS_3D, new int[] {5, 4, 3}, new int[] {3, 2, 3}),
                Arguments.of("3D corners radius 2, 2x1x1", CORNERS_3D, new int[] {4, 3, 3}, new int[] {2, 1, 1}),
                Arguments.of("3D corners radius 2, 1x1x1", CORNERS_3D, new int[] {4, 3, 2}, new int[] {1, 1, 1}));
    }

    private static LinearStencil linear(int[][] offsets) {
        double[] w = new double[offsets.length];
        for (int t = 0; t < w.length; t++) {
            w[t] = 1.0 / (offsets.length + 1) + 0.003 * t;
        }
        return new LinearStencil(offsets, w);
    }

    @ParameterizedTest(name = "{0} {2} in {3}")
    @MethodSource("cases")
    void when_runDistributed_then_digestEqualsReferenceAndNaive_dirichlet(String name, int[][] offsets, int[] cells,
            int[] parts) {
        check(offsets, cells, parts, StencilBoundary.dirichlet(WALL));
    }

    @ParameterizedTest(name = "{0} {2} in {3}")
    @MethodSource("cases")
    void when_runDistributed_then_digestEqualsReferenceAndNaive_periodic(String name, int[][] offsets, int[] cells,
            int[] parts) {
        check(offsets, cells, parts, StencilBoundary.periodicBoundary());
    }

    private static void check(int[][] offsets, int[] cells, int[] parts, StencilBoundary boundary) {
        LinearStencil arithmetic = linear(offsets);
        StencilKernel kernel = StencilKernel.linear(new BlockLayout(cells, parts), arithmetic, boundary, INITIAL);
        StencilDriver driver = new StencilDriver(kernel);
        StencilReference reference = new StencilReference(kernel);
        Naive naive = new Naive(offsets, arithmetic.weights(), cells, boundary);
        assertThat(StencilDigest.of(kernel, driver::state)).isEqualTo(reference.digest()).isEqualTo(naive.digest());
        for (int i = 1; i <= 4; i++) {
            double distributed = driver.iterate();
            double ref = reference.iterate();
            double plain = naive.iterate();
            assertThat(distributed).as("residual %d", i).isCloseTo(ref, within(1e-12 * Math.max(1, ref)));
            assertThat(ref).isCloseTo(plain, within(1e-12 * Math.max(1, ref)));
            assertThat(StencilDigest.of(kernel, driver::state)).as("iteration %d", i)
                    .isEqualTo(reference.digest()).isEqualTo(naive.digest());
        }
    }

    @Test
    void when_fivePoint2d_then_haloIsOneEdgeWithoutCorners() {
        // 6 x 4 cells in 2 x 2:  0 1      blocks 3 x 2
        //                        2 3
        StencilKernel kernel = StencilKernel.linear(new BlockLayout(new int[] {6, 4}, new int[] {2, 2}),
                linear(FIVE_POINT_2D), StencilBoundary.dirichlet(WALL), INITIAL);
        assertThat(kernel.dependencies().inputsOf(0)).containsExactly(0, 1, 2);
        assertThat(kernel.haloLength(1, 0)).isEqualTo(2);
        assertThat(kernel.haloLength(2, 0)).isEqualTo(3);
        assertThatThrownBy(() -> kernel.haloLength(3, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("partition 3 is not an input of partition 0");
    }

    @Test
    void when_ninePoint2d_then_diagonalHaloIsOneCornerCell() {
        StencilKernel kernel = StencilKernel.linear(new BlockLayout(new int[] {6, 4}, new int[] {2, 2}),
                linear(NINE_POINT_2D), StencilBoundary.dirichlet(WALL), INITIAL);
        assertThat(kernel.dependencies().inputsOf(0)).containsExactly(0, 1, 2, 3);
        assertThat(kernel.haloLength(3, 0)).isEqualTo(1);
        assertThat(kernel.haloLength(1, 0)).isEqualTo(2);
        assertThat(kernel.grid(0).length()).isEqualTo(5 * 4);
    }

    @Test
    void when_radius2OnOneCellBlocks_then_frameIsTwoWideAndHalosOneCell() {
        // |0|1|2|3|4|: block 2 reads 0, 1, 3, 4, one cell each
        StencilKernel kernel = StencilKernel.linear(new BlockLayout(new int[] {5}, new int[] {5}),
                linear(FIVE_POINT_1D), StencilBoundary.dirichlet(WALL), INITIAL);
        assertThat(kernel.dependencies().inputsOf(2)).containsExactly(0, 1, 2, 3, 4);
        assertThat(kernel.grid(2).length()).isEqualTo(5);
        for (int q : new int[] {0, 1, 3, 4}) {
            assertThat(kernel.haloLength(q, 2)).isEqualTo(1);
        }
        // Dirichlet cells beyond the edge (x = -1, 0) come from the boundary function
        double[] s = kernel.initialState(0);
        assertThat(s[0]).isEqualTo(WALL.at(-1, 1, 1));
        assertThat(s[1]).isEqualTo(WALL.at(0, 1, 1));
        assertThat(s[2]).isEqualTo(INITIAL.at(1, 1, 1));
    }

    @Test
    void when_periodicTwoBlocks_then_neighbourOnBothSidesInOneHalo() {
        // |0 0 0|1 1|, radius 1, periodic: 0 reads 1's last cell on the left and 1's first on the right
        StencilKernel kernel = StencilKernel.linear(new BlockLayout(new int[] {5}, new int[] {2}),
                linear(THREE_POINT), StencilBoundary.periodicBoundary(), INITIAL);
        assertThat(kernel.haloLength(1, 0)).isEqualTo(2);
        double[] halo = new double[2];
        double[] one = kernel.initialState(1);
        kernel.packHalo(1, one, 0, halo);
        assertThat(halo).containsExactly(INITIAL.at(5, 1, 1), INITIAL.at(4, 1, 1));
    }

    /** Plain global-array computation written straight from the definition, without blocks or frames. */
    private static final class Naive {
        final int[][] offsets;
        final double[] w;
        final int nx;
        final int ny;
        final int nz;
        final StencilBoundary boundary;
        double[][][] u;

        Naive(int[][] offsets, double[] w, int[] cells, StencilBoundary boundary) {
            this.offsets = offsets;
            this.w = w;
            this.nx = cells[0];
            this.ny = cells.length > 1 ? cells[1] : 1;
            this.nz = cells.length > 2 ? cells[2] : 1;
            this.boundary = boundary;
            u = new double[nz][ny][nx];
            for (int z = 1; z <= nz; z++) {
                for (int y = 1; y <= ny; y++) {
                    for (int x = 1; x <= nx; x++) {
                        u[z - 1][y - 1][x - 1] = INITIAL.at(x, y, z);
                    }
                }
            }
        }

        double get(int x, int y, int z) {
            if (x >= 1 && x <= nx && y >= 1 && y <= ny && z >= 1 && z <= nz) {
                return u[z - 1][y - 1][x - 1];
            }
            if (boundary.periodic()) {
                return u[Math.floorMod(z - 1, nz)][Math.floorMod(y - 1, ny)][Math.floorMod(x - 1, nx)];
            }
            return WALL.at(x, y, z);
        }

        double iterate() {
            double[][][] next = new double[nz][ny][nx];
            double residual = 0;
            for (int z = 1; z <= nz; z++) {
                for (int y = 1; y <= ny; y++) {
                    for (int x = 1; x <= nx; x++) {
                        double v = 0;
                        for (int t = 0; t < offsets.length; t++) {
                            int[] o = offsets[t];
                            double term = w[t] * get(x + o[0], y + (o.length > 1 ? o[1] : 0), z + (o.length > 2 ? o[2] : 0));
                            v = t == 0 ? term : v + term;
                        }
                        double d = v - u[z - 1][y - 1][x - 1];
                        residual += d * d;
                        next[z - 1][y - 1][x - 1] = v;
                    }
                }
            }
            u = next;
            return residual;
        }

        String digest() {
            try {
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
                for (double[][] plane : u) {
                    for (double[] row : plane) {
                        for (double v : row) {
                            b.clear();
                            b.putDouble(v);
                            sha.update(b.array());
                        }
                    }
                }
                return HexFormat.of().formatHex(sha.digest());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
    }
}
