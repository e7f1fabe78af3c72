package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LeadershipTest {

    @Test
    void when_theRunStarts_then_partitionPIsOnRankPAndTheRootIsRankZero() {
        Ownership own = Ownership.initial(4);

        assertThat(own.partitionsOf(2)).containsExactly(2);
        assertThat(own.partitionsOf(4)).isEmpty();
        assertThat(own.isActive(4)).isFalse();
        assertThat(Leadership.root(own)).isZero();
        assertThat(Leadership.isRoot(0, own)).isTrue();
    }

    @Test
    void when_theLowestRankLostItsPartitions_then_theRootIsTheLowestRankThatOwnsOne() {
        // rank 0 died; spare 8 adopted partition 0 and rank 3 partition 1
        Ownership own = Ownership.of(new int[] {8, 3, 2, 3});

        assertThat(own.activeRanks()).containsExactly(2, 3, 8);
        assertThat(Leadership.root(own)).isEqualTo(2);
        assertThat(Leadership.isRoot(3, own)).isFalse();
    }

    @Test
    void when_aRankOwnsSeveralPartitions_then_itsPartitionsAreListedAscending() {
        Ownership own = Ownership.of(new int[] {5, 1, 5, 1, 5});

        assertThat(own.partitionsOf(5)).containsExactly(0, 2, 4);
        assertThat(own.partitionsOf(1)).containsExactly(1, 3);
        assertThat(own.ownerOf(4)).isEqualTo(5);
        assertThat(Leadership.root(own)).isEqualTo(1);
    }

    @Test
    void when_asked_then_onlyRankZeroFoundsTheCluster() {
        assertThat(Leadership.isFounder(Leadership.FOUNDER_RANK)).isTrue();
        assertThat(Leadership.FOUNDER_RANK).isZero();
        assertThat(Leadership.isFounder(1)).isFalse();
    }

    @Test
    void when_ownershipIsCopied_then_laterChangesToTheArrayDoNotLeakIn() {
        int[] owner = {0, 1};
        Ownership own = Ownership.of(owner);
        owner[1] = 0;

        assertThat(own.ownerOf(1)).isEqualTo(1);
        assertThat(own).isEqualTo(Ownership.of(new int[] {0, 1}));
        assertThatThrownBy(() -> Ownership.of(new int[] {0, -1})).isInstanceOf(IllegalArgumentException.class);
    }
}
