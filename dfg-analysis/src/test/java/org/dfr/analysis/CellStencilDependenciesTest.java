package org.dfr.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class CellStencilDependenciesTest {

    private static final CellStencil RADIUS_2_1D = CellStencil.of(new int[][] {{-2}, {-1}, {0}, {1}, {2}});

    @Test
    void when_fivePointOn2x4_then_equalsTheHandWrittenTwoD5Point() {
        // 2 x 4 partitions of 6 x 8 cells:  0 1
        //                                   2 3
        //                                   4 5
        //                                   6 7
        for (boolean periodic : new boolean[] {false, true}) {
            PartitionDependencies derived = DependencyDeclarations.stencil(CellStencil.fivePoint2d(),
                    new BlockLayout(new int[] {6, 8}, new int[] {2, 4}), periodic);
            PartitionDependencies table = DependencyDeclarations.twoD5Point(2, 4, periodic);
            assertThat(derived.partitionCount()).isEqualTo(8);
            for (int p = 0; p < 8; p++) {
                assertThat(derived.inputsOf(p)).as("periodic=%s p=%d", periodic, p).containsExactly(table.inputsOf(p));
            }
        }
    }

    @Test
    void when_ninePointOn3x3_then_equalsTwoD9PointWithDiagonals() {
        // 3 x 3 partitions of 7 x 5 cells (uneven):  0 1 2
        //                                            3 4 5
        //                                            6 7 8
        for (boolean periodic : new boolean[] {false, true}) {
            PartitionDependencies derived = DependencyDeclarations.stencil(CellStencil.ninePoint2d(),
                    new BlockLayout(new int[] {7, 5}, new int[] {3, 3}), periodic);
            PartitionDependencies table = DependencyDeclarations.twoD9Point(3, 3, periodic);
            for (int p = 0; p < 9; p++) {
                assertThat(derived.inputsOf(p)).as("periodic=%s p=%d", periodic, p).containsExactly(table.inputsOf(p));
            }
        }
        assertThat(DependencyDeclarations.stencil(CellStencil.ninePoint2d(),
                new BlockLayout(new int[] {7, 5}, new int[] {3, 3}), false).inputsOf(4))
                .containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8);
    }

    @Test
    void when_fivePoint_then_neverDiagonal() {
        // 3 x 3 of 9 x 9 cells: the centre 4 reads 1, 3, 5, 7 but not 0, 2, 6, 8
        PartitionDependencies derived = DependencyDeclarations.stencil(CellStencil.fivePoint2d(),
                new BlockLayout(new int[] {9, 9}, new int[] {3, 3}), false);
        assertThat(derived.inputsOf(4)).containsExactly(1, 3, 4, 5, 7);
    }

    @Test
    void when_sevenPoint3d_then_equalsThreeD7Point() {
        PartitionDependencies derived = DependencyDeclarations.stencil(CellStencil.sevenPoint3d(),
                new BlockLayout(new int[] {5, 6, 7}, new int[] {2, 3, 3}), false);
        PartitionDependencies table = DependencyDeclarations.threeD7Point(2, 3, 3, false);
        for (int p = 0; p < 18; p++) {
            assertThat(derived.inputsOf(p)).as("p=%d", p).containsExactly(table.inputsOf(p));
        }
    }

    @Test
    void when_radius2On8CellsSplitIn8_then_reachesTwoPartitionsAway() {
        // 8 cells, one per block:  |0|1|2|3|4|5|6|7|  a cell reads 2 cells each way = 2 blocks each way
        PartitionDependencies deps = DependencyDeclarations.stencil(RADIUS_2_1D,
                new BlockLayout(new int[] {8}, new int[] {8}), false);
        for (int p = 0; p < 8; p++) {
            int[] expected = IntStream.rangeClosed(Math.max(0, p - 2), Math.min(7, p + 2)).toArray();
            assertThat(deps.inputsOf(p)).as("p=%d", p).containsExactly(expected);
        }
    }

    @Test
    void when_radius2On16CellsSplitIn4_then_onlyNextPartitions() {
        // 16 cells, 4 per block:  |0 0 0 0|1 1 1 1|2 2 2 2|3 3 3 3|  2 cells each way stay in the next block
        PartitionDependencies deps = DependencyDeclarations.stencil(RADIUS_2_1D,
                new BlockLayout(new int[] {16}, new int[] {4}), false);
        for (int p = 0; p < 4; p++) {
            int[] expected = IntStream.rangeClosed(Math.max(0, p - 1), Math.min(3, p + 1)).toArray();
            assertThat(deps.inputsOf(p)).as("p=%d", p).containsExactly(expected);
        }
    }

    @Test
    void when_radius2OnUnevenSplit_then_narrowBlocksArePassedOver() {
        // 7 cells in 4 blocks (2,2,2,1):  |0 0|1 1|2 2|3|
        // block 3 (cell 7) reads cells 5,6 (block 2); block 1 (cells 3,4) reads 1..6 = blocks 0..2
        // 9 cells in 5 blocks (2,2,2,2,1): |0 0|1 1|2 2|3 3|4| block 4 (cell 9) reads 7,8 = block 3 only
        PartitionDependencies seven = DependencyDeclarations.stencil(RADIUS_2_1D,
                new BlockLayout(new int[] {7}, new int[] {4}), false);
        assertThat(seven.inputsOf(3)).containsExactly(2, 3);
        assertThat(seven.inputsOf(1)).containsExactly(0, 1, 2);
        PartitionDependencies ten = DependencyDeclarations.stencil(RADIUS_2_1D,
                new BlockLayout(new int[] {10}, new int[] {7}), false);
        // 10 cells in 7 blocks (2,2,2,1,1,1,1): |0 0|1 1|2 2|3|4|5|6|
        // block 3 = cell 7, reads 5..9 = blocks 2,3,4,5; block 2 = cells 5,6 reads 3..8 = blocks 1..4
        assertThat(ten.inputsOf(3)).containsExactly(2, 3, 4, 5);
        assertThat(ten.inputsOf(2)).containsExactly(1, 2, 3, 4);
        assertThat(ten.inputsOf(6)).containsExactly(4, 5, 6);
    }

    @Test
    void when_periodic_then_wrapsAroundAndTwoPartitionsAreEachOthersNeighbourOnce() {
        // 8 cells in 8 blocks, periodic: block 0 reads cells -1,0 = 7,8 -> blocks 6,7
        PartitionDependencies deps = DependencyDeclarations.stencil(RADIUS_2_1D,
                new BlockLayout(new int[] {8}, new int[] {8}), true);
        assertThat(deps.inputsOf(0)).containsExactly(0, 1, 2, 6, 7);
        assertThat(deps.inputsOf(7)).containsExactly(0, 1, 5, 6, 7);
        // 2 blocks periodic: each is the other's neighbour on both sides, listed once
        PartitionDependencies two = DependencyDeclarations.stencil(CellStencil.threePoint1d(),
                new BlockLayout(new int[] {5}, new int[] {2}), true);
        assertThat(two.inputsOf(0)).containsExactly(0, 1);
        assertThat(two.inputsOf(1)).containsExactly(0, 1);
        // 1 block periodic: itself only
        assertThat(DependencyDeclarations.stencil(RADIUS_2_1D, new BlockLayout(new int[] {1}, new int[] {1}), true)
                .inputsOf(0)).containsExactly(0);
        // radius 2 on a 3-block torus of 3 cells: everything
        assertThat(DependencyDeclarations.stencil(RADIUS_2_1D, new BlockLayout(new int[] {3}, new int[] {3}), true)
                .inputsOf(1)).containsExactly(0, 1, 2);
    }

    @Test
    void when_periodicNinePointCorner_then_wrapsDiagonally() {
        // 4 x 3 partitions of 8 x 6 cells:  0  1  2  3
        //                                   4  5  6  7
        //                                   8  9 10 11
        PartitionDependencies deps = DependencyDeclarations.stencil(CellStencil.ninePoint2d(),
                new BlockLayout(new int[] {8, 6}, new int[] {4, 3}), true);
        assertThat(deps.inputsOf(0)).containsExactly(0, 1, 3, 4, 5, 7, 8, 9, 11);
    }

    @Test
    void when_radius2Cone_then_levelsGrowTwoPartitionsPerLevelEachWay() {
        // 1 cell per block, 41 blocks: losing 20 with m = 5, level k reaches 2 (m-k) blocks each way
        ConeAnalyzer analyzer = new ConeAnalyzer(DependencyDeclarations.stencil(RADIUS_2_1D,
                new BlockLayout(new int[] {41}, new int[] {41}), false));
        RecoveryPlan plan = analyzer.plan(new int[] {20}, 0, 6);
        for (int k = 1; k <= 5; k++) {
            int r = 2 * (5 - k);
            assertThat(plan.level(k)).as("level %d", k).containsExactly(IntStream.rangeClosed(20 - r, 20 + r).toArray());
        }
    }

    @Test
    void when_manyPartitions_then_computedQuickly() {
        long start = System.nanoTime();
        PartitionDependencies deps = DependencyDeclarations.stencil(CellStencil.ninePoint2d(),
                new BlockLayout(new int[] {1000, 1000}, new int[] {400, 250}), true);
        assertThat(deps.partitionCount()).isEqualTo(100_000);
        assertThat(deps.inputsOf(0)).hasSize(9);
        assertThat(System.nanoTime() - start).isLessThan(10_000_000_000L);
    }

    @Test
    void when_axesDiffer_then_rejected() {
        assertThatThrownBy(() -> DependencyDeclarations.stencil(CellStencil.fivePoint2d(),
                new BlockLayout(new int[] {8}, new int[] {2}), false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2-axis stencil");
    }
}
