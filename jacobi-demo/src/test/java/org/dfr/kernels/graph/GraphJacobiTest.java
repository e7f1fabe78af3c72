package org.dfr.kernels.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.dfr.kernels.KernelDriver;
import org.dfr.kernels.Sha;
import org.dfr.runtime.kernel.KernelOptions;
import org.dfr.runtime.kernel.KernelProblem;
import org.dfr.runtime.kernel.KernelSetup;
import org.dfr.runtime.kernel.ReferenceSolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GraphJacobiTest {

    private static KernelSetup create(int n, int partitions) {
        return new GraphJacobiProvider().create(new KernelProblem(new int[] {n}, new int[] {partitions}, KernelOptions.NONE));
    }

    /** The edge rule of DESIGN.md, written out with sets. */
    private static List<TreeSet<Integer>> naiveAdjacency(int n) {
        int w = Math.max(1, (int) Math.floor(Math.sqrt(n)));
        List<TreeSet<Integer>> adj = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            adj.add(new TreeSet<>());
        }
        for (int i = 0; i < n; i++) {
            List<Integer> ends = new ArrayList<>();
            if (i + 1 < n) {
                ends.add(i + 1);
            }
            if (i + w < n) {
                ends.add(i + w);
            }
            if (i % 97 == 0 && (31 * i + 7) % n != i) {
                ends.add((31 * i + 7) % n);
            }
            for (int j : ends) {
                adj.get(i).add(j);
                adj.get(j).add(i);
            }
        }
        return adj;
    }

    /** Naive Jacobi for (L + I) x = b straight from DESIGN.md. */
    private static final class Naive {
        final List<TreeSet<Integer>> adj;
        double[] x;

        Naive(int n) {
            adj = naiveAdjacency(n);
            x = new double[n];
        }

        double iterate() {
            double[] next = new double[x.length];
            double residual = 0;
            for (int i = 0; i < x.length; i++) {
                double s = ((31 * i) % 101) / 100.0;
                for (int j : adj.get(i)) {
                    s = s + x[j];
                }
                next[i] = s / (adj.get(i).size() + 1.0);
                residual += (next[i] - x[i]) * (next[i] - x[i]);
            }
            x = next;
            return residual;
        }

        String digest() {
            Sha sha = new Sha();
            for (double v : x) {
                sha.add(v);
            }
            return sha.hex();
        }
    }

    @ParameterizedTest
    @CsvSource({"1", "2", "3", "20", "200", "1000", "4099"})
    void when_graphBuilt_then_equalsTheEdgeRule(int n) {
        JacobiGraph graph = JacobiGraph.of(n);
        List<TreeSet<Integer>> adj = naiveAdjacency(n);
        long edges = 0;
        for (int i = 0; i < n; i++) {
            assertThat(graph.neighbours(i)).as("vertex %d", i)
                    .containsExactly(adj.get(i).stream().mapToInt(Integer::intValue).toArray());
            edges += adj.get(i).size();
        }
        assertThat(graph.edgeCount()).isEqualTo(edges / 2);
    }

    @ParameterizedTest
    @CsvSource({"200,1", "200,5", "200,7", "1000,3", "1000,13", "97,97", "5,2"})
    void when_runDistributed_then_digestAndResidualEqualReferenceAndNaive(int n, int partitions) {
        KernelSetup setup = create(n, partitions);
        ReferenceSolver reference = setup.reference();
        Naive naive = new Naive(n);
        KernelDriver driver = new KernelDriver(setup.kernel());
        assertThat(setup.digest(driver::state)).isEqualTo(reference.digest()).isEqualTo(naive.digest());
        for (int i = 1; i <= 6; i++) {
            double ref = reference.iterate();
            double plain = naive.iterate();
            double distributed = driver.iterate();
            assertThat(ref).isEqualTo(plain);
            assertThat(distributed).isCloseTo(ref, within(1e-12 * Math.max(1, ref)));
            assertThat(setup.digest(driver::state)).as("iteration %d", i)
                    .isEqualTo(reference.digest()).isEqualTo(naive.digest());
        }
        assertThat(setup.cellCount()).isEqualTo(n);
    }

    @Test
    void when_smallGraph_then_dependenciesAreTheCutEdgesByHand() {
        // n = 20, w = 4, ranges |0..6|7..13|14..19|; edges i~i+1, i~i+4 and the special 0~7.
        // 0..6 reach at most 10: R(0) = {0, 1}; 7..13 reach 3..17: R(1) = {0, 1, 2}; R(2) = {1, 2}
        KernelSetup three = create(20, 3);
        assertThat(three.dependencies().inputsOf(0)).containsExactly(0, 1);
        assertThat(three.dependencies().inputsOf(1)).containsExactly(0, 1, 2);
        assertThat(three.dependencies().inputsOf(2)).containsExactly(1, 2);
        // n = 200, w = 14, ten ranges of 20. Special edges: 0~7 (inside 0), 97~14 (ranges 4 and 0),
        // 194~21 (ranges 9 and 1). So R(0) = {0, 1, 4}, R(4) = {0, 3, 4, 5}, R(9) = {1, 8, 9}.
        KernelSetup ten = create(200, 10);
        assertThat(ten.dependencies().inputsOf(0)).containsExactly(0, 1, 4);
        assertThat(ten.dependencies().inputsOf(4)).containsExactly(0, 3, 4, 5);
        assertThat(ten.dependencies().inputsOf(9)).containsExactly(1, 8, 9);
        assertThat(ten.dependencies().inputsOf(1)).containsExactly(0, 1, 2, 9);
        // halo 9 -> 1: vertex 194 only; 0 -> 4: vertex 14 only
        assertThat(ten.kernel().haloLength(9, 1)).isEqualTo(1);
        assertThat(ten.kernel().haloLength(0, 4)).isEqualTo(1);
        assertThatThrownBy(() -> ten.kernel().haloLength(5, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("partition 5 is not an input of partition 0");
    }

    @ParameterizedTest
    @CsvSource({"200,10", "1000,7", "5000,13"})
    void when_anyGraph_then_dependenciesEqualTheOwnersAcrossCutEdges(int n, int partitions) {
        KernelSetup setup = create(n, partitions);
        GraphJacobiKernel kernel = (GraphJacobiKernel) setup.kernel();
        int[] owner = new int[n];
        for (int p = 0; p < partitions; p++) {
            for (int v = kernel.firstVertex(p); v < kernel.firstVertex(p) + kernel.vertexCount(p); v++) {
                owner[v] = p;
            }
        }
        // ranges: the first n mod P get one more
        assertThat(kernel.vertexCount(0)).isEqualTo(n / partitions + (n % partitions > 0 ? 1 : 0));
        List<TreeSet<Integer>> expected = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            expected.add(new TreeSet<>(List.of(p)));
        }
        List<TreeSet<Integer>> adj = naiveAdjacency(n);
        for (int i = 0; i < n; i++) {
            for (int j : adj.get(i)) {
                expected.get(owner[i]).add(owner[j]);
            }
        }
        for (int p = 0; p < partitions; p++) {
            assertThat(setup.dependencies().inputsOf(p)).as("p=%d", p)
                    .containsExactly(expected.get(p).stream().mapToInt(Integer::intValue).toArray());
        }
    }

    @Test
    void when_millionVertices_then_builtAndIteratedQuickly() {
        long start = System.nanoTime();
        KernelSetup setup = create(1_000_000, 8);
        KernelDriver driver = new KernelDriver(setup.kernel());
        driver.iterate();
        driver.iterate();
        ReferenceSolver reference = setup.reference();
        reference.iterate();
        reference.iterate();
        assertThat(setup.digest(driver::state)).isEqualTo(reference.digest());
        assertThat(System.nanoTime() - start).isLessThan(20_000_000_000L);
    }
}
