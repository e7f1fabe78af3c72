package org.dfr.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.jgrapht.Graph;
import org.jgrapht.graph.DefaultDirectedGraph;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.SimpleGraph;
import org.junit.jupiter.api.Test;

class DependencyDeclarationsTest {

    @Test
    void when_2d5Point_interior_then_selfAndFourNeighboursSorted() {
        // 4 x 3 grid, ids y*4+x:   0  1  2  3
        //                          4  5  6  7
        //                          8  9 10 11
        PartitionDependencies deps = DependencyDeclarations.twoD5Point(4, 3, false);
        assertThat(deps.partitionCount()).isEqualTo(12);
        assertThat(deps.inputsOf(5)).containsExactly(1, 4, 5, 6, 9);
        assertThat(deps.inputsOf(0)).containsExactly(0, 1, 4);
        assertThat(deps.inputsOf(11)).containsExactly(7, 10, 11);
    }

    @Test
    void when_consumersAreAsked_then_theyAreTheReverseOfTheInputsWithoutSelf() {
        // 4 x 3 grid as above; partition 5 feeds its four neighbours, corner 0 feeds 1 and 4
        int[][] consumers = DependencyDeclarations.twoD5Point(4, 3, false).consumers();

        assertThat(consumers).hasNumberOfRows(12);
        assertThat(consumers[5]).containsExactly(1, 4, 6, 9);
        assertThat(consumers[0]).containsExactly(1, 4);
        // a one-way chain: 0 -> 1 -> 2, so 2 feeds nobody
        PartitionDependencies chain = new PartitionDependencies() {
            @Override
            public int partitionCount() {
                return 3;
            }

            @Override
            public int[] inputsOf(int partition) {
                return partition == 0 ? new int[] {0} : new int[] {partition - 1, partition};
            }
        };
        assertThat(chain.consumers()[0]).containsExactly(1);
        assertThat(chain.consumers()[2]).isEmpty();
    }

    @Test
    void when_2d5Point_periodic_then_cornerWrapsAround() {
        PartitionDependencies deps = DependencyDeclarations.twoD5Point(4, 3, true);
        // corner 0: up wraps to row 2 (8), left wraps to column 3 (3)
        assertThat(deps.inputsOf(0)).containsExactly(0, 1, 3, 4, 8);
    }

    @Test
    void when_periodicDimensionOfTwo_then_wrappedNeighbourListedOnce() {
        // on 2 partitions, left and right neighbour are the same partition
        assertThat(DependencyDeclarations.oneD3Point(2, true).inputsOf(0)).containsExactly(0, 1);
        assertThat(DependencyDeclarations.oneD3Point(1, true).inputsOf(0)).containsExactly(0);
    }

    @Test
    void when_2d9Point_then_diagonalsIncluded() {
        PartitionDependencies deps = DependencyDeclarations.twoD9Point(3, 3, false);
        assertThat(deps.inputsOf(4)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(deps.inputsOf(0)).containsExactly(0, 1, 3, 4);
    }

    @Test
    void when_3d7Point_then_idsFollowPlaneRowColumn() {
        // 3 x 3 x 3: centre (1,1,1) has id (1*3+1)*3+1 = 13
        PartitionDependencies deps = DependencyDeclarations.threeD7Point(3, 3, 3, false);
        assertThat(deps.inputsOf(13)).containsExactly(4, 10, 12, 13, 14, 16, 22);
    }

    @Test
    void when_global_then_everyPartitionIsAnInput() {
        assertThat(DependencyDeclarations.global(5).inputsOf(3)).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void when_emptyLayouts_then_rejectedNamingTheSize() {
        assertThatThrownBy(() -> DependencyDeclarations.twoD5Point(0, 4, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("px").hasMessageContaining("0");
        assertThatThrownBy(() -> DependencyDeclarations.threeD7Point(2, 2, -3, false))
                .hasMessageContaining("pz").hasMessageContaining("-3");
        assertThatThrownBy(() -> DependencyDeclarations.global(0)).hasMessageContaining("0");
        assertThatThrownBy(() -> DependencyDeclarations.fromAdjacency(new int[0][], false))
                .hasMessageContaining("at least 1 partition");
        assertThatThrownBy(() -> DependencyDeclarations.twoD5Point(100_000, 100_000, false))
                .hasMessageContaining("10000000000");
    }

    @Test
    void when_inputOutOfRange_then_rejectedNamingPartitionAndValue() {
        assertThatThrownBy(() -> DependencyDeclarations.fromAdjacency(new int[][] {{0, 1}, {1, 7}}, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("partition 1").hasMessageContaining("input 7").hasMessageContaining("0..1");
        assertThatThrownBy(() -> DependencyDeclarations.oneD3Point(4, false).inputsOf(4))
                .hasMessageContaining("partition 4").hasMessageContaining("0..3");
    }

    @Test
    void when_symmetryClaimedButAsymmetric_then_rejectedNamingBothPartitions() {
        int[][] rows = {{0, 1}, {1, 2}, {2}};
        assertThatThrownBy(() -> DependencyDeclarations.fromAdjacency(rows, true))
                .hasMessageContaining("partition 0 lists input 1 while partition 1 does not list 0");
        // the same rows are a legal one-directional declaration when symmetry is not claimed
        assertThat(DependencyDeclarations.fromAdjacency(rows, false).inputsOf(1)).containsExactly(1, 2);
    }

    @Test
    void when_inputListedTwice_then_rejectedAsContradictory() {
        assertThatThrownBy(() -> DependencyDeclarations.fromAdjacency(List.of(new int[] {0, 1, 1}, new int[] {1}), false))
                .hasMessageContaining("partition 0 lists input 1 more than once");
        assertThatThrownBy(() -> DependencyDeclarations.fromAdjacency(new int[][] {{0}, null}, false))
                .hasMessageContaining("partition 1");
    }

    @Test
    void when_adjacencyUnsorted_then_inputsComeBackSorted() {
        PartitionDependencies deps = DependencyDeclarations.fromAdjacency(List.of(new int[] {2, 0}, new int[] {}, new int[] {2}), false);
        assertThat(deps.inputsOf(0)).containsExactly(0, 2);
        assertThat(deps.inputsOf(1)).isEmpty();
    }

    @Test
    void when_directedGraph_then_edgeSourceIsInputOfTarget() {
        Graph<Integer, DefaultEdge> g = new DefaultDirectedGraph<>(DefaultEdge.class);
        for (int v = 0; v < 3; v++) {
            g.addVertex(v);
        }
        g.addEdge(0, 1); // data flows 0 -> 1, so 0 in R(1)
        g.addEdge(2, 1);
        g.addEdge(1, 1);
        PartitionDependencies deps = DependencyDeclarations.fromGraph(g);
        assertThat(deps.inputsOf(1)).containsExactly(0, 1, 2);
        assertThat(deps.inputsOf(0)).isEmpty();
    }

    @Test
    void when_undirectedGraph_then_symmetric() {
        Graph<Integer, DefaultEdge> g = new SimpleGraph<>(DefaultEdge.class);
        for (int v = 0; v < 3; v++) {
            g.addVertex(v);
        }
        g.addEdge(0, 1);
        g.addEdge(2, 1);
        PartitionDependencies deps = DependencyDeclarations.fromGraph(g);
        assertThat(deps.inputsOf(1)).containsExactly(0, 2);
        assertThat(deps.inputsOf(0)).containsExactly(1);
    }

    @Test
    void when_graphVerticesAreNotDenseIds_then_rejectedNamingTheVertex() {
        Graph<Integer, DefaultEdge> g = new SimpleGraph<>(DefaultEdge.class);
        g.addVertex(0);
        g.addVertex(5);
        assertThatThrownBy(() -> DependencyDeclarations.fromGraph(g))
                .hasMessageContaining("vertex 5").hasMessageContaining("0..1");
        assertThatThrownBy(() -> DependencyDeclarations.fromGraph(new SimpleGraph<Integer, DefaultEdge>(DefaultEdge.class)))
                .hasMessageContaining("0 vertices");
    }

    @Test
    void when_stencilOnWrongDimensionality_then_rejected() {
        assertThatThrownBy(() -> DependencyDeclarations.stencil(Stencil.ONE_D_3_POINT, CartesianGrid.twoD(4, 2), false))
                .hasMessageContaining("py = 1").hasMessageContaining("2");
    }
}
