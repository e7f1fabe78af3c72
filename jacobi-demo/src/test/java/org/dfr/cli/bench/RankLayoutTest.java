package org.dfr.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RankLayoutTest {

    @Test
    void when_issueCounts_then_issueGrids() {
        assertThat(RankLayout.parseAll(List.of("1", "2", "4", "8")))
                .containsExactly(new RankLayout(1, 1), new RankLayout(2, 1), new RankLayout(2, 2), new RankLayout(2, 4));
    }

    @Test
    void when_otherCount_then_mostSquareFactorisationWithPxAtMostPy() {
        for (int n = 1; n <= 64; n++) {
            if (n == 1 || n == 2 || n == 4 || n == 8) {
                continue;
            }
            RankLayout l = RankLayout.parse(Integer.toString(n));
            assertThat(l.ranks()).isEqualTo(n);
            assertThat(l.px()).isLessThanOrEqualTo(l.py());
            // no factorisation px' <= py' is more square (brute force)
            for (int px = l.px() + 1; px * px <= n; px++) {
                assertThat(n % px).as("n=%d px=%d", n, px).isNotZero();
            }
        }
    }

    @Test
    void when_gridWritten_then_keptAsWritten() {
        assertThat(RankLayout.parse("4x2")).isEqualTo(new RankLayout(4, 2));
    }

    @Test
    void when_badEntry_then_messageNamesItAndTheForms() {
        assertThatThrownBy(() -> RankLayout.parse("0")).hasMessageContaining("'0'").hasMessageContaining(">= 1");
        assertThatThrownBy(() -> RankLayout.parse("2x")).hasMessageContaining("'2x'");
    }
}
