package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The commit lag a run asks for and the one it uses. */
class RunSpecTest {

    @Test
    void when_noLagIsAskedFor_then_theDefaultIsUsedBelowTheInterval() {
        RunSpec spec = new RunSpec(8, 20, 5, 2, 0);

        assertThat(spec.commitLagIterations()).isEqualTo(Checkpointing.DEFAULT_COMMIT_LAG_ITERATIONS);
        assertThat(spec.commitLagFor(5)).isEqualTo(1);
        // a checkpoint every iteration is committed with its own reduction
        assertThat(spec.commitLagFor(1)).isZero();
    }

    @Test
    void when_aLongerLagIsAskedFor_then_itIsUsedUpToTheIntervalMinusOne() {
        RunSpec spec = new RunSpec(8, 20, 10, 2, 0).withCommitLagIterations(9);

        assertThat(spec.commitLagFor(10)).isEqualTo(9);
        // an interval agreed later (auto) that is shorter still commits before the next checkpoint
        assertThat(spec.commitLagFor(4)).isEqualTo(3);
        assertThat(spec.withTolerance(1e-3).commitLagIterations()).isEqualTo(9);
    }

    @Test
    void when_theLagIsNegative_then_theSpecIsRefused() {
        assertThatThrownBy(() -> new RunSpec(8, 20, 10, 2, 0).withCommitLagIterations(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("commitLagIterations must be >= 0, got -1");
    }
}
