package org.dfr.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class CheckpointIntervalAdviceTest {

    @Test
    void when_checkpointIsCheapAgainstTheMtbf_then_dalyIsCloseToYoungAndBothMinimiseTheWaste() {
        // C = 2 s, M = 1 day: sqrt(2 * 2 * 86400) = 587.9 s
        CheckpointIntervalAdvice advice = new CheckpointIntervalAdvice(2, 86_400, 0.5);

        assertThat(advice.youngSeconds()).isCloseTo(Math.sqrt(2 * 2 * 86_400.0), within(1e-9));
        assertThat(advice.dalySeconds()).isCloseTo(advice.youngSeconds(), within(0.01 * advice.youngSeconds()));
        assertThat(advice.youngIterations()).isEqualTo((int) Math.rint(advice.youngSeconds() / 0.5));
        // the first-order waste C/T + T/(2M) is smallest near Young's T
        double t = advice.youngSeconds();
        assertThat(waste(t, 2, 86_400)).isLessThan(waste(0.8 * t, 2, 86_400)).isLessThan(waste(0.5 * t, 2, 86_400));
        assertThat(waste(t, 2, 86_400)).isLessThan(waste(1.25 * t, 2, 86_400));
    }

    @Test
    void when_checkpointCostsMoreThanTwiceTheMtbf_then_dalySaysTheMtbf() {
        assertThat(new CheckpointIntervalAdvice(300, 100, 1).dalySeconds()).isEqualTo(100);
    }

    @Test
    void when_valuesAreNotPositive_then_theMessageNamesThem() {
        assertThatThrownBy(() -> new CheckpointIntervalAdvice(0, 10, 1)).hasMessageContaining("checkpoint cost")
                .hasMessageContaining("got 0.0");
        assertThatThrownBy(() -> new CheckpointIntervalAdvice(1, 10, -1)).hasMessageContaining("iteration time");
    }

    private static double waste(double interval, double cost, double mtbf) {
        return cost / interval + interval / (2 * mtbf);
    }
}
