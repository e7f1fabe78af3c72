package org.dfr.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CommitLagTest {

    @Test
    void when_aLagIsAllowed_then_clampKeepsIt_andOtherwiseClampGivesTheNearestAllowedOne() {
        for (int interval = 1; interval <= 12; interval++) {
            for (int requested = -3; requested <= 15; requested++) {
                int clamped = CommitLag.clamp(requested, interval);
                assertThat(CommitLag.isAllowed(clamped, interval)).as("K=%d, L=%d", interval, requested).isTrue();
                if (CommitLag.isAllowed(requested, interval)) {
                    assertThat(clamped).isEqualTo(requested);
                } else {
                    assertThat(clamped).isEqualTo(requested < 0 ? 0 : interval - 1);
                }
            }
        }
    }

    @Test
    void when_theIntervalIsTen_then_theMessageNamesZeroToNine() {
        assertThat(CommitLag.allowed(10)).startsWith("0..9 ");
    }
}
