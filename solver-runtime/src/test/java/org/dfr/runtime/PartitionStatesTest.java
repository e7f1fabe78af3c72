package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PartitionStatesTest {

    @Test
    void when_swapped_then_theComputedBufferIsLiveAndTheOldLiveOneIsWrittenNext() {
        double[] a = {1};
        double[] b = {2};
        DoubleBuffer buffer = new DoubleBuffer(a, b);

        buffer.swap();

        assertThat(buffer.live()).isSameAs(b);
        assertThat(buffer.next()).isSameAs(a);
        assertThat(buffer.buffer(0)).isSameAs(b);
        assertThat(buffer.buffer(1)).isSameAs(a);
        buffer.swap();
        assertThat(buffer.live()).isSameAs(a);
    }

    @Test
    void when_createdOfAState_then_theSecondBufferIsACopy() {
        double[] state = {1, 2, 3};
        DoubleBuffer buffer = DoubleBuffer.of(state);

        assertThat(buffer.live()).isSameAs(state);
        assertThat(buffer.next()).containsExactly(1, 2, 3).isNotSameAs(state);
    }

    @Test
    void when_buffersOfDifferentLengths_then_rejected() {
        assertThatThrownBy(() -> new DoubleBuffer(new double[1], new double[2]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void when_advanced_then_everyPartitionSwapsAndBothIterationsMove() {
        PartitionStates states = statesOf(3, 5);
        states.buffer(3).next()[0] = 30;
        states.buffer(5).next()[0] = 50;
        states.markComputed(1);

        states.advanceTo(1);

        assertThat(states.live(3)).containsExactly(30);
        assertThat(states.live(5)).containsExactly(50);
        assertThat(states.liveIteration()).isEqualTo(1);
        assertThat(states.computedIteration()).isEqualTo(1);
    }

    @Test
    void when_fallingBackToTheLiveIteration_then_nothingSwapsAndTheComputedStateIsForgotten() {
        PartitionStates states = statesOf(0);
        states.setLiveIteration(4);
        states.buffer(0).next()[0] = 99;
        states.markComputed(5);

        states.fallBackTo(4);

        assertThat(states.live(0)).containsExactly(0);
        assertThat(states.liveIteration()).isEqualTo(4);
        assertThat(states.computedIteration()).isEqualTo(4);
    }

    @Test
    void when_fallingBackToTheComputedIteration_then_theComputedStateBecomesLive() {
        PartitionStates states = statesOf(0, 1);
        states.setLiveIteration(4);
        states.buffer(0).next()[0] = 99;
        states.buffer(1).next()[0] = 98;
        states.markComputed(5);

        states.fallBackTo(5);

        assertThat(states.live(0)).containsExactly(99);
        assertThat(states.live(1)).containsExactly(98);
        assertThat(states.liveIteration()).isEqualTo(5);
        assertThat(states.computedIteration()).isEqualTo(5);
    }

    @Test
    void when_neitherBufferHoldsTheIteration_then_fallingBackFails() {
        PartitionStates states = statesOf(0);
        states.setLiveIteration(4);

        assertThatThrownBy(() -> states.fallBackTo(5)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot fall back to 5");
        assertThatThrownBy(() -> states.fallBackTo(3)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void when_askedWhetherAStateIsReachable_then_onlyTheLiveAndTheComputedOneAre() {
        PartitionStates states = statesOf(0);
        states.setLiveIteration(2);
        states.markComputed(3);

        assertThat(states.canFallBackTo(2)).isTrue();
        assertThat(states.canFallBackTo(3)).isTrue();
        // state 0 (the checkpoint) is gone from the buffers: recovery must reload it
        assertThat(states.canFallBackTo(0)).isFalse();
        assertThat(states.canFallBackTo(4)).isFalse();
    }

    @Test
    void when_ownershipChanges_then_onlyOwnedPartitionsAreKeptAndOthersAreRefused() {
        PartitionStates states = statesOf(0, 1, 2);
        Ownership own = Ownership.of(new int[] {7, 8, 7});

        states.retainOnly(p -> own.ownerOf(p) == 7);

        assertThat(states.partitions()).containsExactly(0, 2);
        assertThatThrownBy(() -> states.live(1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("does not own partition 1");
    }

    private static PartitionStates statesOf(int... partitions) {
        PartitionStates states = new PartitionStates(7);
        for (int p : partitions) {
            states.install(p, new double[] {0});
        }
        return states;
    }
}
