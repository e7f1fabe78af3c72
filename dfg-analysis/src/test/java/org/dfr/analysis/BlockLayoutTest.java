package org.dfr.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BlockLayoutTest {

    @Test
    void when_unevenSplit_then_firstBlocksGetOneMore() {
        // 7 cells in 3 blocks: |1 2 3|4 5|6 7|
        BlockLayout layout = new BlockLayout(new int[] {7}, new int[] {3});
        assertThat(layout.first(0, 0)).isEqualTo(1);
        assertThat(layout.extent(0, 0)).isEqualTo(3);
        assertThat(layout.first(0, 1)).isEqualTo(4);
        assertThat(layout.extent(0, 1)).isEqualTo(2);
        assertThat(layout.first(0, 2)).isEqualTo(6);
        assertThat(layout.last(0, 2)).isEqualTo(7);
        int[] owners = new int[7];
        for (int c = 1; c <= 7; c++) {
            owners[c - 1] = layout.ownerOf(0, c);
        }
        assertThat(owners).containsExactly(0, 0, 0, 1, 1, 2, 2);
    }

    @Test
    void when_ownerOfEveryCell_then_matchesTheBlocks() {
        for (int n = 1; n <= 30; n++) {
            for (int parts = 1; parts <= n; parts++) {
                BlockLayout layout = new BlockLayout(new int[] {n}, new int[] {parts});
                for (int b = 0; b < parts; b++) {
                    for (int c = layout.first(0, b); c <= layout.last(0, b); c++) {
                        assertThat(layout.ownerOf(0, c)).as("n=%d parts=%d cell=%d", n, parts, c).isEqualTo(b);
                    }
                }
                assertThat(layout.last(0, parts - 1)).isEqualTo(n);
            }
        }
    }

    @Test
    void when_3dPartitionId_then_zOuterYThenX() {
        // 2 x 3 x 2 parts: id = (z*3 + y)*2 + x
        BlockLayout layout = new BlockLayout(new int[] {4, 6, 5}, new int[] {2, 3, 2});
        assertThat(layout.partitionCount()).isEqualTo(12);
        assertThat(layout.partitionOf(1, 2, 1)).isEqualTo((1 * 3 + 2) * 2 + 1);
        assertThat(layout.coordinates(11)).containsExactly(1, 2, 1);
        assertThat(layout.coordinate(11, 1)).isEqualTo(2);
        assertThat(layout.box(11)).isEqualTo(new BlockLayout.Box(new int[] {3, 5, 4}, new int[] {4, 6, 5}));
        assertThat(layout.box(0).cells()).isEqualTo(2L * 2 * 3);
        assertThat(layout.cellCount()).isEqualTo(120);
    }

    @Test
    void when_morePartsThanCells_then_rejectedNamingTheValue() {
        assertThatThrownBy(() -> new BlockLayout(new int[] {4, 3}, new int[] {2, 5}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("5 parts along axis y exceed its 3 cells: every partition needs at least one cell");
        assertThatThrownBy(() -> new BlockLayout(new int[] {0}, new int[] {1}))
                .hasMessageContaining("was 0");
        assertThatThrownBy(() -> new BlockLayout(new int[] {4, 4}, new int[] {2}))
                .hasMessageContaining("same number of axes");
        assertThatThrownBy(() -> new BlockLayout(new int[] {4}, new int[] {2}).ownerOf(0, 5))
                .hasMessageContaining("cell 5");
    }
}
