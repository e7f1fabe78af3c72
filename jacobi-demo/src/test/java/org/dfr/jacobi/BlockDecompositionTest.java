package org.dfr.jacobi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.dfr.jacobi.BlockDecomposition.Block;
import org.junit.jupiter.api.Test;

class BlockDecompositionTest {

    @Test
    void when_uneven_then_first_remainder_columns_and_rows_get_one_more() {
        // nx = 10 over 3: 10 mod 3 = 1 -> widths 4, 3, 3; ny = 7 over 2: 7 mod 2 = 1 -> heights 4, 3
        BlockDecomposition d = new BlockDecomposition(new JacobiProblem(10, 7), 3, 2);
        assertThat(d.block(0)).isEqualTo(new Block(1, 4, 1, 4));
        assertThat(d.block(1)).isEqualTo(new Block(5, 3, 1, 4));
        assertThat(d.block(2)).isEqualTo(new Block(8, 3, 1, 4));
        assertThat(d.block(3)).isEqualTo(new Block(1, 4, 5, 3));
        assertThat(d.block(5)).isEqualTo(new Block(8, 3, 5, 3));
    }

    @Test
    void when_remainder_is_two_then_first_two_get_one_more() {
        // 37 over 5: 37 mod 5 = 2 -> 8, 8, 7, 7, 7
        BlockDecomposition d = new BlockDecomposition(new JacobiProblem(37, 5), 5, 1);
        assertThat(d.block(0).width()).isEqualTo(8);
        assertThat(d.block(1).width()).isEqualTo(8);
        assertThat(d.block(2).width()).isEqualTo(7);
        assertThat(d.block(4)).isEqualTo(new Block(31, 7, 1, 5));
    }

    @Test
    void when_any_layout_then_blocks_tile_the_interior_exactly_once() {
        JacobiProblem problem = new JacobiProblem(37, 29);
        for (int px = 1; px <= 9; px++) {
            for (int py = 1; py <= 9; py++) {
                BlockDecomposition d = new BlockDecomposition(problem, px, py);
                int[][] owners = new int[30][38];
                for (int p = 0; p < d.partitionCount(); p++) {
                    Block b = d.block(p);
                    assertThat(b.width()).isBetween(37 / px, 37 / px + 1);
                    assertThat(b.height()).isBetween(29 / py, 29 / py + 1);
                    for (int y = b.y0(); y < b.y0() + b.height(); y++) {
                        for (int x = b.x0(); x < b.x0() + b.width(); x++) {
                            owners[y][x]++;
                        }
                    }
                }
                for (int y = 1; y <= 29; y++) {
                    for (int x = 1; x <= 37; x++) {
                        assertThat(owners[y][x]).as("cell (%d,%d) in %dx%d", x, y, px, py).isEqualTo(1);
                    }
                }
            }
        }
    }

    @Test
    void when_partition_id_then_row_major_over_columns() {
        BlockDecomposition d = new BlockDecomposition(new JacobiProblem(8, 8), 4, 2);
        assertThat(d.partitionAt(3, 1)).isEqualTo(7);
        assertThat(d.columnOf(6)).isEqualTo(2);
        assertThat(d.rowOf(6)).isEqualTo(1);
        assertThat(d.block(6).x0()).isEqualTo(5);
        assertThat(d.block(6).y0()).isEqualTo(5);
    }

    @Test
    void when_more_rank_columns_than_cells_then_rejected_naming_values() {
        assertThatThrownBy(() -> new BlockDecomposition(new JacobiProblem(4, 10), 5, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("px = 5")
                .hasMessageContaining("nx = 4");
        assertThatThrownBy(() -> new BlockDecomposition(new JacobiProblem(10, 3), 2, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("py = 4")
                .hasMessageContaining("ny = 3");
    }

    @Test
    void when_zero_partitions_then_rejected() {
        assertThatThrownBy(() -> new BlockDecomposition(new JacobiProblem(4, 4), 0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("px must be at least 1 but was 0");
    }

    @Test
    void when_partition_out_of_range_then_rejected() {
        BlockDecomposition d = new BlockDecomposition(new JacobiProblem(4, 4), 2, 2);
        assertThatThrownBy(() -> d.block(4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("partition 4")
                .hasMessageContaining("0..3");
    }
}
