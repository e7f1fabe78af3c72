package org.dfr.jacobi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Percentage.withPercentage;

import java.util.HashMap;
import java.util.Map;
import org.dfr.jacobi.BlockDecomposition.Block;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class JacobiKernelTest {

    private static final int ITERATIONS = 25;

    @ParameterizedTest(name = "{0}x{1} cells on {2}x{3} partitions")
    @CsvSource({
        "32, 24, 1, 1",
        "32, 24, 2, 1",
        "32, 24, 2, 4",
        "32, 24, 3, 2",
        "32, 24, 4, 4",
        "37, 29, 1, 1",
        "37, 29, 2, 1",
        "37, 29, 2, 4",
        "37, 29, 3, 2",
        "37, 29, 4, 4",
        "37, 29, 37, 1",
        "37, 29, 5, 29",
        "1, 1, 1, 1",
    })
    void when_blocked_in_thread_then_same_digest_and_residuals_as_sequential(int nx, int ny, int px, int py) {
        JacobiProblem problem = new JacobiProblem(nx, ny);
        BlockDecomposition decomposition = new BlockDecomposition(problem, px, py);
        SequentialJacobi sequential = new SequentialJacobi(problem);
        InThreadPartitionRunner blocked = new InThreadPartitionRunner(new JacobiKernel(decomposition));

        assertThat(FieldDigest.ofPartitions(decomposition, blocked::state)).isEqualTo(sequential.digest());
        for (int i = 1; i <= ITERATIONS; i++) {
            double expected = sequential.iterate();
            double actual = blocked.iterate();
            // partial sums are added in another order, so only the residual may differ in the last bits
            assertThat(actual).as("residual of iteration %d", i).isCloseTo(expected, withPercentage(1e-9));
        }
        assertThat(FieldDigest.ofPartitions(decomposition, blocked::state)).isEqualTo(sequential.digest());
        assertThat(blocked.iterations()).isEqualTo(ITERATIONS);
    }

    @Test
    void when_initial_state_then_block_and_frame_match_global_array() {
        JacobiProblem problem = new JacobiProblem(10, 7);
        BlockDecomposition decomposition = new BlockDecomposition(problem, 3, 2);
        JacobiKernel kernel = new JacobiKernel(decomposition);
        double[] global = SequentialJacobi.initialField(problem);
        for (int p = 0; p < decomposition.partitionCount(); p++) {
            Block b = decomposition.block(p);
            double[] state = kernel.initialState(p);
            int stride = b.width() + 2;
            assertThat(state).hasSize(stride * (b.height() + 2));
            for (int ly = 0; ly <= b.height() + 1; ly++) {
                for (int lx = 0; lx < stride; lx++) {
                    int x = b.x0() - 1 + lx;
                    int y = b.y0() - 1 + ly;
                    assertThat(state[ly * stride + lx]).as("partition %d local (%d,%d)", p, lx, ly)
                            .isEqualTo(global[y * 12 + x]);
                }
            }
        }
    }

    @Test
    void when_corner_partition_then_its_outer_ghost_cells_hold_the_fixed_boundary() {
        // bottom-right partition of 2x2 over 6x4: block x 4..6, y 3..4
        JacobiKernel kernel = new JacobiKernel(new BlockDecomposition(new JacobiProblem(6, 4), 2, 2));
        double[] state = kernel.initialState(3);
        int stride = 5;
        for (int ly = 1; ly <= 2; ly++) {
            assertThat(state[ly * stride + 4]).as("east ghost").isEqualTo(0.0);
        }
        for (int lx = 0; lx < stride; lx++) {
            assertThat(state[3 * stride + lx]).as("south ghost").isEqualTo(0.0);
        }
        // top-left partition: north ghost 1.0, west ghost 0.5
        double[] topLeft = kernel.initialState(0);
        assertThat(topLeft[1]).isEqualTo(1.0);
        assertThat(topLeft[stride]).isEqualTo(0.5);
        assertThat(topLeft[2 * stride]).isEqualTo(0.5);
    }

    @Test
    void when_halo_exchanged_then_edge_of_sender_lands_in_facing_ghost_of_receiver() {
        // 2x2 partitions over 5x4 cells: widths 3,2 heights 2,2
        BlockDecomposition d = new BlockDecomposition(new JacobiProblem(5, 4), 2, 2);
        JacobiKernel kernel = new JacobiKernel(d);
        Map<Integer, double[]> states = new HashMap<>();
        for (int p = 0; p < 4; p++) {
            double[] s = kernel.initialState(p);
            // mark every cell with a value naming partition and position
            for (int i = 0; i < s.length; i++) {
                s[i] = 1000 * p + i;
            }
            states.put(p, s);
        }
        // 0 (3 wide, stride 5) -> east neighbour 1: its last interior column lx=3, rows 1..2
        assertThat(kernel.haloLength(0, 1)).isEqualTo(2);
        double[] halo = new double[2];
        kernel.packHalo(0, states.get(0), 1, halo);
        assertThat(halo).containsExactly(1 * 5 + 3, 2 * 5 + 3);
        kernel.unpackHalo(1, states.get(1), 0, halo);
        // 1 (2 wide, stride 4): west ghost column lx=0
        assertThat(states.get(1)[4]).isEqualTo(8.0);
        assertThat(states.get(1)[8]).isEqualTo(13.0);

        // 1 -> south neighbour 3: its last interior row ly=2, lx 1..2
        assertThat(kernel.haloLength(1, 3)).isEqualTo(2);
        kernel.packHalo(1, states.get(1), 3, halo);
        assertThat(halo).containsExactly(1000 + 2 * 4 + 1, 1000 + 2 * 4 + 2);
        kernel.unpackHalo(3, states.get(3), 1, halo);
        // 3: north ghost row ly=0, lx 1..2
        assertThat(states.get(3)[1]).isEqualTo(1009.0);
        assertThat(states.get(3)[2]).isEqualTo(1010.0);

        // 2 -> north neighbour 0: its first interior row, 3 values
        double[] row = new double[3];
        kernel.packHalo(2, states.get(2), 0, row);
        assertThat(row).containsExactly(2006, 2007, 2008);
        kernel.unpackHalo(0, states.get(0), 2, row);
        // 0 (height 2): south ghost row ly=3
        assertThat(states.get(0)[3 * 5 + 1]).isEqualTo(2006.0);
        assertThat(states.get(0)[3 * 5 + 3]).isEqualTo(2008.0);

        // 3 -> west neighbour 2: its first interior column lx=1
        kernel.packHalo(3, states.get(3), 2, halo);
        assertThat(halo).containsExactly(3000 + 4 + 1, 3000 + 8 + 1);
        kernel.unpackHalo(2, states.get(2), 3, halo);
        // 2 (stride 5): east ghost column lx=4
        assertThat(states.get(2)[5 + 4]).isEqualTo(3005.0);
        assertThat(states.get(2)[10 + 4]).isEqualTo(3009.0);
    }

    @Test
    void when_not_cartesian_neighbours_then_halo_rejected() {
        JacobiKernel kernel = new JacobiKernel(new BlockDecomposition(new JacobiProblem(4, 4), 2, 2));
        assertThatThrownBy(() -> kernel.haloLength(0, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("partitions 3 and 0 are not Cartesian neighbours");
        assertThatThrownBy(() -> kernel.packHalo(0, kernel.initialState(0), 0, new double[2]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void when_wrong_buffer_length_then_rejected() {
        JacobiKernel kernel = new JacobiKernel(new BlockDecomposition(new JacobiProblem(4, 4), 2, 1));
        assertThatThrownBy(() -> kernel.packHalo(0, new double[3], 1, new double[4]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("state buffer");
        assertThatThrownBy(() -> kernel.update(0, new double[3], new double[3]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exactly 24");
        double[] same = kernel.initialState(0);
        assertThatThrownBy(() -> kernel.update(0, same, same))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("two distinct buffers");
    }

    @Test
    void when_cells_and_dependencies_then_follow_the_decomposition() {
        BlockDecomposition d = new BlockDecomposition(new JacobiProblem(10, 7), 3, 2);
        JacobiKernel kernel = new JacobiKernel(d);
        long total = 0;
        for (int p = 0; p < d.partitionCount(); p++) {
            total += kernel.cellsOf(p);
        }
        assertThat(total).isEqualTo(70);
        assertThat(kernel.cellsOf(0)).isEqualTo(16);
        assertThat(kernel.partitionCount()).isEqualTo(6);
        assertThat(kernel.dependencies().partitionCount()).isEqualTo(6);
        assertThat(kernel.dependencies().inputsOf(4)).containsExactly(1, 3, 4, 5);
    }

    @Test
    void when_partial_residuals_summed_then_equal_sequential_residual() {
        JacobiProblem problem = new JacobiProblem(37, 29);
        BlockDecomposition d = new BlockDecomposition(problem, 4, 4);
        JacobiKernel kernel = new JacobiKernel(d);
        SequentialJacobi sequential = new SequentialJacobi(problem);
        double sum = 0;
        for (int p = 0; p < d.partitionCount(); p++) {
            // at iteration 0 the ghost frames already hold the neighbours' initial values
            sum += kernel.update(p, kernel.initialState(p), kernel.initialState(p));
        }
        assertThat(sum).isCloseTo(sequential.iterate(), withPercentage(1e-9));
    }
}
