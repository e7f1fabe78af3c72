package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.dfr.analysis.PartitionDependencies;
import org.dfr.jacobi.BlockDecomposition;
import org.dfr.jacobi.JacobiKernel;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.runtime.PartitionKernel;
import org.junit.jupiter.api.Test;

class KernelWarmUpTest {

    @Test
    void when_blockIsMidSized_then_sweepsAddUpToTheCellBudget() {
        // 100 000 cells: 3e7 / 1e5 sweeps; 70 001 cells: rounded up
        assertThat(KernelWarmUp.forCells(100_000).sweeps()).isEqualTo(300);
        assertThat(KernelWarmUp.forCells(70_001).sweeps()).isEqualTo((30_000_000L + 70_000) / 70_001);
    }

    @Test
    void when_theRunIsShorterThanTheWarmUp_then_theWarmUpHasAsManySweepsAsTheRunHasIterations() {
        // 152 cells would warm up for 2 000 sweeps; a 10-iteration run does not repay more than 10
        assertThat(KernelWarmUp.forRun(152, 10).sweeps()).isEqualTo(10);
        assertThat(KernelWarmUp.forRun(100_000, 5_000).sweeps()).isEqualTo(300);
        assertThatThrownBy(() -> KernelWarmUp.forRun(152, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0");
    }

    @Test
    void when_blockIsTiny_then_theMaximumNumberOfSweepsRuns() {
        assertThat(KernelWarmUp.forCells(152).sweeps()).isEqualTo(KernelWarmUp.DEFAULT_MAX_SWEEPS);
    }

    @Test
    void when_blockIsLarge_then_theMinimumNumberOfSweepsRuns() {
        assertThat(KernelWarmUp.forCells(2048L * 1024).sweeps()).isEqualTo(KernelWarmUp.DEFAULT_MIN_SWEEPS);
    }

    @Test
    void when_sizesAreNotPositive_then_rejected() {
        assertThatThrownBy(() -> KernelWarmUp.forCells(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0");
        assertThatThrownBy(() -> new KernelWarmUp(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0");
    }

    @Test
    void when_run_then_everyHaloIsPackedAndUnpackedAndTheBlockUpdatedOncePerSweep_onScratchBuffersOnly() {
        JacobiKernel jacobi = new JacobiKernel(new BlockDecomposition(new JacobiProblem(64, 64), 2, 4));
        CountingKernel kernel = new CountingKernel(jacobi);
        int partition = 2; // px 0, py 1 of 2x4: neighbours 0 (north), 3 (east), 4 (south)

        new KernelWarmUp(5).run(kernel, partition);

        assertThat(kernel.updates).isEqualTo(5);
        assertThat(kernel.packedFor).hasSize(15).containsOnly(0, 3, 4);
        assertThat(kernel.unpackedFrom).hasSize(15).containsOnly(0, 3, 4);
        // the only state buffers it touched are the ones it asked initialState for, and their clone
        assertThat(kernel.initialStates).isEqualTo(1);
    }

    /** Delegates to a real kernel and records what the warm-up asks of it. */
    private static final class CountingKernel implements PartitionKernel {
        private final PartitionKernel delegate;
        int updates;
        int initialStates;
        final List<Integer> packedFor = new ArrayList<>();
        final List<Integer> unpackedFrom = new ArrayList<>();

        CountingKernel(PartitionKernel delegate) {
            this.delegate = delegate;
        }

        @Override
        public PartitionDependencies dependencies() {
            return delegate.dependencies();
        }

        @Override
        public double[] initialState(int partition) {
            initialStates++;
            return delegate.initialState(partition);
        }

        @Override
        public int haloLength(int from, int to) {
            return delegate.haloLength(from, to);
        }

        @Override
        public void packHalo(int from, double[] fromState, int to, double[] out) {
            packedFor.add(to);
            delegate.packHalo(from, fromState, to, out);
        }

        @Override
        public void unpackHalo(int to, double[] toState, int from, double[] in) {
            unpackedFrom.add(from);
            delegate.unpackHalo(to, toState, from, in);
        }

        @Override
        public double update(int partition, double[] in, double[] out) {
            updates++;
            return delegate.update(partition, in, out);
        }

        @Override
        public long cellsOf(int partition) {
            return delegate.cellsOf(partition);
        }
    }
}
