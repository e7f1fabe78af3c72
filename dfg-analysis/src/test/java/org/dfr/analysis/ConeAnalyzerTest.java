package org.dfr.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.jgrapht.Graph;
import org.jgrapht.alg.shortestpath.BFSShortestPath;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.EdgeReversedGraph;
import org.junit.jupiter.api.Test;

class ConeAnalyzerTest {

    /**
     * The paper's case. 2 x 4 grid (PX = 2, PY = 4), ids py*2+px, 5-point stencil, lost {1}, c = 0, t = 4,
     * so m = 3 lost iterations:
     * <pre>
     *          px=0 px=1       distance from 1:    level 1 (d<=2)   level 2 (d<=1)   level 3 (d=0)
     *   py=0    0    1                1  0            #  #             #  #             .  #
     *   py=1    2    3                2  1            #  #             .  #             .  .
     *   py=2    4    5                3  2            .  #             .  .             .  .
     *   py=3    6    7                4  3            .  .             .  .             .  .
     * </pre>
     * Level 1 = {0,1,2,3,5}, level 2 = {0,1,3}, level 3 = {1}; work 5+3+1 = 9 vs global 3*8 = 24;
     * idle = {4,6,7}.
     */
    @Test
    void when_papersCase_then_levelsMatchHandComputedCone() {
        ConeAnalyzer analyzer = new ConeAnalyzer(DependencyDeclarations.twoD5Point(2, 4, false));

        RecoveryPlan plan = analyzer.plan(new int[] {1}, 0, 4);

        assertThat(plan.lostIterations()).isEqualTo(3);
        assertThat(plan.levelCount()).isEqualTo(3);
        assertThat(plan.level(1)).containsExactly(0, 1, 2, 3, 5);
        assertThat(plan.level(2)).containsExactly(0, 1, 3);
        assertThat(plan.level(3)).containsExactly(1);
        assertThat(plan.recomputedPartitionIterations()).isEqualTo(9);
        assertThat(plan.globalRollbackPartitionIterations()).isEqualTo(24);
        assertThat(plan.participatingPartitions()).containsExactly(0, 1, 2, 3, 5);
        assertThat(plan.idlePartitions()).containsExactly(4, 6, 7);
        assertThat(plan.coversEverything()).isFalse();
        assertThat(plan.recomputedIterationsOf(1)).isEqualTo(3);
        assertThat(plan.recomputedIterationsOf(5)).isEqualTo(1);
        assertThat(plan.recomputedIterationsOf(6)).isZero();
        assertThat(plan.isInLevel(3, 2)).isTrue();
        assertThat(plan.isInLevel(5, 2)).isFalse();
    }

    @Test
    void when_1dInterior_then_levelSizeIs2rPlus1() {
        int n = 101;
        ConeAnalyzer analyzer = new ConeAnalyzer(DependencyDeclarations.oneD3Point(n, false));
        int m = 20;
        RecoveryPlan plan = analyzer.plan(new int[] {50}, 10, 10 + m + 1);
        for (int k = 1; k <= m; k++) {
            int r = m - k;
            assertThat(plan.levelSize(k)).as("level %d", k).isEqualTo(2 * r + 1);
            assertThat(plan.level(k)).hasSize(2 * r + 1).startsWith(50 - r).endsWith(50 + r);
        }
    }

    @Test
    void when_1dNearEdge_then_clipped() {
        ConeAnalyzer analyzer = new ConeAnalyzer(DependencyDeclarations.oneD3Point(10, false));
        RecoveryPlan plan = analyzer.plan(new int[] {2}, 0, 7); // m = 6
        for (int k = 1; k <= 6; k++) {
            int r = 6 - k;
            int expected = Math.min(9, 2 + r) - Math.max(0, 2 - r) + 1;
            assertThat(plan.levelSize(k)).as("level %d", k).isEqualTo(expected);
        }
    }

    @Test
    void when_1dPeriodic_then_wrapsAndSaturatesAtN() {
        int n = 9;
        ConeAnalyzer analyzer = new ConeAnalyzer(DependencyDeclarations.oneD3Point(n, true));
        RecoveryPlan plan = analyzer.plan(new int[] {0}, 0, 9); // m = 8
        for (int k = 1; k <= 8; k++) {
            assertThat(plan.levelSize(k)).isEqualTo(Math.min(2 * (8 - k) + 1, n));
        }
        assertThat(plan.level(7)).containsExactly(0, 1, 8);
        assertThat(plan.coversEverything()).isTrue();
    }

    @Test
    void when_2d5PointInterior_then_levelSizeIs2rSquaredPlus2rPlus1() {
        ConeAnalyzer analyzer = new ConeAnalyzer(DependencyDeclarations.twoD5Point(41, 41, false));
        int centre = 20 * 41 + 20;
        int m = 15;
        RecoveryPlan plan = analyzer.plan(new int[] {centre}, 0, m + 1);
        for (int k = 1; k <= m; k++) {
            int r = m - k;
            assertThat(plan.levelSize(k)).as("level %d", k).isEqualTo(2 * r * r + 2 * r + 1);
        }
    }

    @Test
    void when_2d5PointNearCorner_then_clippedToManhattanBallInsideGrid() {
        int px = 7;
        int py = 5;
        ConeAnalyzer analyzer = new ConeAnalyzer(DependencyDeclarations.twoD5Point(px, py, false));
        int lost = 1 * px + 1; // (x=1, y=1)
        RecoveryPlan plan = analyzer.plan(new int[] {lost}, 3, 13); // m = 9
        for (int k = 1; k <= 9; k++) {
            int r = 9 - k;
            List<Integer> expected = new ArrayList<>();
            for (int y = 0; y < py; y++) {
                for (int x = 0; x < px; x++) {
                    if (Math.abs(x - 1) + Math.abs(y - 1) <= r) {
                        expected.add(y * px + x);
                    }
                }
            }
            assertThat(plan.level(k)).as("level %d", k)
                    .containsExactly(expected.stream().mapToInt(Integer::intValue).toArray());
        }
    }

    @Test
    void when_2d5PointPeriodicCorner_then_sameAsInteriorClosedForm() {
        ConeAnalyzer analyzer = new ConeAnalyzer(DependencyDeclarations.twoD5Point(21, 21, true));
        RecoveryPlan plan = analyzer.plan(new int[] {0}, 0, 11); // m = 10, r <= 9 fits the 21 x 21 torus
        for (int k = 1; k <= 10; k++) {
            int r = 10 - k;
            assertThat(plan.levelSize(k)).isEqualTo(2 * r * r + 2 * r + 1);
        }
        // radius 1 from the corner wraps to the last column and the last row
        assertThat(plan.level(9)).containsExactly(0, 1, 20, 21, 420);
    }

    @Test
    void when_2d9PointInterior_then_levelIsSquare() {
        ConeAnalyzer analyzer = new ConeAnalyzer(DependencyDeclarations.twoD9Point(31, 31, false));
        RecoveryPlan plan = analyzer.plan(new int[] {15 * 31 + 15}, 0, 13);
        for (int k = 1; k <= 12; k++) {
            int side = 2 * (12 - k) + 1;
            assertThat(plan.levelSize(k)).isEqualTo(side * side);
        }
    }

    @Test
    void when_3d7PointInterior_then_levelIsOctahedralNumber() {
        int s = 21;
        ConeAnalyzer analyzer = new ConeAnalyzer(DependencyDeclarations.threeD7Point(s, s, s, false));
        int centre = (10 * s + 10) * s + 10;
        RecoveryPlan plan = analyzer.plan(new int[] {centre}, 0, 11);
        for (int k = 1; k <= 10; k++) {
            int r = 10 - k;
            assertThat(plan.levelSize(k)).isEqualTo((2 * r + 1) * (2 * r * r + 2 * r + 3) / 3);
        }
    }

    @Test
    void when_severalLostFarApart_then_levelsAreDisjointUnion() {
        ConeAnalyzer analyzer = new ConeAnalyzer(DependencyDeclarations.oneD3Point(100, false));
        RecoveryPlan plan = analyzer.plan(new int[] {80, 20}, 0, 6); // m = 5
        for (int k = 1; k <= 5; k++) {
            int r = 5 - k;
            assertThat(plan.levelSize(k)).isEqualTo(2 * (2 * r + 1));
        }
        assertThat(plan.lostPartitions()).containsExactly(20, 80);
    }

    @Test
    void when_severalLostOverlapping_then_unionOfSingleCones() {
        PartitionDependencies deps = DependencyDeclarations.twoD5Point(9, 9, false);
        ConeAnalyzer analyzer = new ConeAnalyzer(deps);
        int a = 3 * 9 + 3;
        int b = 4 * 9 + 5;
        RecoveryPlan both = analyzer.plan(new int[] {a, b, a}, 2, 8); // m = 5, duplicates count once
        RecoveryPlan onlyA = analyzer.plan(new int[] {a}, 2, 8);
        RecoveryPlan onlyB = analyzer.plan(new int[] {b}, 2, 8);
        for (int k = 1; k <= 5; k++) {
            TreeSet<Integer> union = new TreeSet<>();
            for (int p : onlyA.level(k)) {
                union.add(p);
            }
            for (int p : onlyB.level(k)) {
                union.add(p);
            }
            assertThat(both.level(k)).containsExactly(NaiveCone.toArray(union));
        }
        assertThat(both.lostPartitions()).containsExactly(a, b);
    }

    @Test
    void when_global_then_everyLevelButTheLastCoversEverything() {
        ConeAnalyzer analyzer = new ConeAnalyzer(DependencyDeclarations.global(6));
        RecoveryPlan plan = analyzer.plan(new int[] {4}, 0, 4); // m = 3
        assertThat(plan.level(1)).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(plan.level(2)).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(plan.level(3)).containsExactly(4);
        assertThat(plan.coversEverything()).isTrue();
        assertThat(plan.idlePartitions()).isEmpty();
        assertThat(plan.recomputedPartitionIterations()).isEqualTo(13);
        assertThat(plan.globalRollbackPartitionIterations()).isEqualTo(18);
    }

    /*
     * 1-D, 4 partitions, partition 1 lost, m = 4:
     *
     *   distance   1   0   1   2
     *   partition [0] [1] [2] [3]
     *
     * level 1 (distance <= 3) is every partition: the cone's levels sum to 4 + 4 + 3 + 1 = 12, but a DFR run then
     * does global rollback, 4 x 4 = 16.
     */
    @Test
    void when_theConeCoversEverything_then_theRunsPlanIsGlobalRollbackAndThePlanStaysTheCone() {
        RecoveryPlan plan = new ConeAnalyzer(DependencyDeclarations.oneD3Point(4, false)).plan(new int[] {1}, 0, 5);

        RecoveryPlan run = plan.asRun();

        assertThat(plan.coversEverything()).isTrue();
        assertThat(plan.recomputedPartitionIterations()).isEqualTo(12);
        assertThat(plan.level(3)).containsExactly(0, 1, 2);
        assertThat(run.recomputedPartitionIterations()).isEqualTo(run.globalRollbackPartitionIterations()).isEqualTo(16);
        assertThat(run.levels()).hasSize(4).allSatisfy(level -> assertThat(level).containsExactly(0, 1, 2, 3));
        assertThat(run.recomputedIterationsOf(3)).isEqualTo(4);
        assertThat(run.levelSize(4)).isEqualTo(4);
        assertThat(run.idlePartitions()).isEmpty();
        assertThat(run.coversEverything()).isTrue();
        // a cone that leaves someone out, and m = 0, are run as planned
        RecoveryPlan partial = new ConeAnalyzer(DependencyDeclarations.oneD3Point(8, false)).plan(new int[] {1}, 0, 3);
        assertThat(partial.asRun()).isSameAs(partial);
        RecoveryPlan reload = new ConeAnalyzer(DependencyDeclarations.oneD3Point(1, false)).plan(new int[] {0}, 3, 4);
        assertThat(reload.asRun()).isSameAs(reload);
    }

    @Test
    void when_mIsZero_then_onlyLostPartitionsReload() {
        ConeAnalyzer analyzer = new ConeAnalyzer(DependencyDeclarations.twoD5Point(4, 4, false));
        RecoveryPlan plan = analyzer.plan(new int[] {5, 10}, 7, 8);
        assertThat(plan.lostIterations()).isZero();
        assertThat(plan.levels()).isEmpty();
        assertThat(plan.recomputedPartitionIterations()).isZero();
        assertThat(plan.globalRollbackPartitionIterations()).isZero();
        assertThat(plan.participatingPartitions()).containsExactly(5, 10);
        assertThat(plan.idlePartitions()).hasSize(14).doesNotContain(5, 10);
        assertThatThrownBy(() -> plan.level(1)).hasMessageContaining("level 1");
    }

    @Test
    void when_randomDirectedGraphs_then_levelsMatchNaiveSetExpansion() {
        Random random = new Random(42);
        for (int trial = 0; trial < 30; trial++) {
            int n = 1 + random.nextInt(40);
            int[][] rows = new int[n][];
            for (int p = 0; p < n; p++) {
                rows[p] = random.ints(random.nextInt(4), 0, n).distinct().toArray();
            }
            PartitionDependencies deps = DependencyDeclarations.fromAdjacency(rows, false);
            int[] lost = random.ints(1 + random.nextInt(3), 0, n).toArray();
            int c = random.nextInt(5);
            int m = random.nextInt(8);
            RecoveryPlan plan = new ConeAnalyzer(deps).plan(lost, c, c + m + 1);
            List<TreeSet<Integer>> expected = NaiveCone.levels(deps, lost, m);
            assertThat(plan.levelCount()).isEqualTo(m);
            long work = 0;
            for (int k = 1; k <= m; k++) {
                assertThat(plan.level(k)).as("trial %d level %d", trial, k)
                        .containsExactly(NaiveCone.toArray(expected.get(k - 1)));
                work += expected.get(k - 1).size();
            }
            assertThat(plan.recomputedPartitionIterations()).isEqualTo(work);
            assertThat(plan.participatingPartitionCount() + plan.idlePartitionCount()).isEqualTo(n);
        }
    }

    @Test
    void when_dataFlowGraphSearchedBackwards_then_distancesMatchThePlan() {
        PartitionDependencies deps = DependencyDeclarations.twoD9Point(6, 5, true);
        ConeAnalyzer analyzer = new ConeAnalyzer(deps);
        Graph<Integer, DefaultEdge> graph = analyzer.dataFlowGraph();
        assertThat(graph.vertexSet()).hasSize(30);
        assertThat(graph.containsEdge(7, 0)).as("7 feeds 0 on the 6x5 torus (diagonal)").isTrue();
        // data flows input -> consumer; the cone walks consumer -> input, i.e. the reversed graph
        BFSShortestPath<Integer, DefaultEdge> bfs = new BFSShortestPath<>(new EdgeReversedGraph<>(graph));
        RecoveryPlan plan = analyzer.plan(new int[] {14}, 0, 4); // m = 3
        for (int p = 0; p < 30; p++) {
            double d = p == 14 ? 0 : bfs.getPathWeight(14, p);
            int expected = d <= 2 ? 3 - (int) d : 0;
            assertThat(plan.recomputedIterationsOf(p)).as("partition %d", p).isEqualTo(expected);
        }
    }

    @Test
    void when_millionPartitions_then_coneIsTheInteriorBall() {
        ConeAnalyzer analyzer = new ConeAnalyzer(DependencyDeclarations.twoD5Point(1000, 1000, false));
        RecoveryPlan plan = analyzer.plan(new int[] {500 * 1000 + 500}, 0, 101); // m = 100
        assertThat(plan.participatingPartitionCount()).isEqualTo(2 * 99 * 99 + 2 * 99 + 1);
        assertThat(plan.idlePartitionCount()).isEqualTo(1_000_000 - plan.participatingPartitionCount());
        long expectedWork = 0;
        for (int r = 0; r < 100; r++) {
            expectedWork += 2L * r * r + 2L * r + 1;
        }
        assertThat(plan.recomputedPartitionIterations()).isEqualTo(expectedWork);
        assertThat(plan.globalRollbackPartitionIterations()).isEqualTo(100_000_000L);
    }

    @Test
    void when_badArguments_then_rejectedNamingTheValue() {
        ConeAnalyzer analyzer = new ConeAnalyzer(DependencyDeclarations.oneD3Point(8, false));
        assertThatThrownBy(() -> analyzer.plan(new int[] {8}, 0, 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lost partition 8").hasMessageContaining("0..7");
        assertThatThrownBy(() -> analyzer.plan(new int[] {}, 0, 3)).hasMessageContaining("at least one lost partition");
        assertThatThrownBy(() -> analyzer.plan(new int[] {1}, -1, 3)).hasMessageContaining("-1");
        assertThatThrownBy(() -> analyzer.plan(new int[] {1}, 5, 5)).hasMessageContaining("failure iteration")
                .hasMessageContaining("5");
    }

    @Test
    void when_declarationBreaksItsContract_then_analyzerRejectsIt() {
        PartitionDependencies unsorted = new PartitionDependencies() {
            @Override
            public int partitionCount() {
                return 3;
            }

            @Override
            public int[] inputsOf(int partition) {
                return partition == 1 ? new int[] {2, 0} : new int[] {partition};
            }
        };
        assertThatThrownBy(() -> new ConeAnalyzer(unsorted)).hasMessageContaining("partition 1")
                .hasMessageContaining("[2, 0]");
    }
    /*
     * Upwind chain, p reads p-1 and itself:   0 -> 1 -> 2 -> 3   (data flows right)
     * 3 is read by nobody but itself; 1 is read by 2; {2, 3} is read by nobody outside it.
     */
    @Test
    void when_noOtherPartitionReadsTheLost_then_readByOthersSaysSo() {
        ConeAnalyzer upwind = new ConeAnalyzer(DependencyDeclarations.fromAdjacency(
                new int[][] {{0}, {0, 1}, {1, 2}, {2, 3}}, false));

        assertThat(upwind.readByOthers(new int[] {3})).isFalse();
        assertThat(upwind.readByOthers(new int[] {1})).isTrue();
        assertThat(upwind.readByOthers(new int[] {3, 2})).isFalse();
        assertThat(upwind.readByOthers(new int[] {1, 3})).isTrue();
        ConeAnalyzer global = new ConeAnalyzer(new GlobalDependencies(3));
        assertThat(global.readByOthers(new int[] {0})).isTrue();
        assertThat(global.readByOthers(new int[] {0, 1, 2})).isFalse();
        assertThatThrownBy(() -> upwind.readByOthers(new int[] {4})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("partition 4 is out of range 0..3");
    }

    @Test
    void when_theHeapIsEstimated_then_itCountsTheSampledEdgesOfEachPartition() {
        // a ring: every partition reads itself and its two neighbours, 3 ints an edge at the peak
        assertThat(ConeAnalyzer.estimatedBytes(DependencyDeclarations.oneD3Point(10_000, true)))
                .isEqualTo(10_000L * 8 + 12L * 10_000 * 3);
        // every partition reads every partition: no edges are stored
        assertThat(ConeAnalyzer.estimatedBytes(new GlobalDependencies(10_000))).isEqualTo(10_000L * 8);
    }
}
