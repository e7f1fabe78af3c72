package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.dfr.jacobi.BlockDecomposition;
import org.dfr.jacobi.JacobiKernel;
import org.dfr.jacobi.JacobiProblem;
import org.junit.jupiter.api.Test;

class TransportWarmUpTest {

    @Test
    void when_builtForAPartition_then_messagesHaveTheSizesOfItsHalosAReductionAndABarrier() {
        // 64x64 on 2x4: blocks of 32 columns x 16 rows; partition 0 hears from 1 (east, a column of
        // 16) and 2 (south, a row of 32)
        JacobiKernel kernel = new JacobiKernel(new BlockDecomposition(new JacobiProblem(64, 64), 2, 4));

        TransportWarmUp warmUp = TransportWarmUp.forHalosOf(kernel, 0, 10);

        assertThat(warmUp.payloadLengths()).containsExactlyInAnyOrder(16, 32, 2, 0);
        assertThat(warmUp.roundTrips()).isEqualTo(10);
    }

    @Test
    void when_theRunSendsFewerMessagesThanTheWarmUp_then_theWarmUpSendsNoMore() {
        JacobiKernel kernel = new JacobiKernel(new BlockDecomposition(new JacobiProblem(64, 64), 2, 4));

        // 4 message sizes per iteration: 3 iterations send 12 of them, 1 000 iterations more than 1 000
        assertThat(TransportWarmUp.forRun(kernel, 0, 1_000, 3).roundTrips()).isEqualTo(12);
        assertThat(TransportWarmUp.forRun(kernel, 0, 1_000, 1_000).roundTrips()).isEqualTo(1_000);
        assertThat(TransportWarmUp.forRun(kernel, 0, 1_000, 3).payloadLengths()).containsExactlyInAnyOrder(16, 32, 2, 0);
    }

    @Test
    void when_run_then_everyMessageComesBackOverLoopback() {
        // a lost or garbled message would make take() time out and throw
        new TransportWarmUp(50, new int[] {0, 3, 20_000}).run();
    }

    @Test
    void when_argumentsAreInvalid_then_rejected() {
        assertThatThrownBy(() -> new TransportWarmUp(0, new int[] {1})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0");
        assertThatThrownBy(() -> new TransportWarmUp(1, new int[0])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TransportWarmUp(1, new int[] {-1})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }
}
