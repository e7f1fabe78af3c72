package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EmbeddedLimitsTest {

    private static final long GIB = 1L << 30;

    @Test
    void when_theRanksFitTwoCores_then_theRunPasses_andOneMoreIsRefusedNamingTheLimit() {
        EmbeddedLimits twoCores = new EmbeddedLimits(2, 8 * GIB);

        assertThatCode(() -> twoCores.require(RunConfig.of(8, 8, 256, 256, 5, 5))).doesNotThrowAnyException();
        assertThatThrownBy(() -> twoCores.require(RunConfig.of(8, 8, 256, 256, 5, 5).withSpares(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--ranks-grid 8x8 and --spares 1 make 65 ranks: embedded mode runs at most 64"
                        + " here (32 a core");
        assertThatThrownBy(() -> twoCores.require(RunConfig.of(8, 16, 256, 256, 5, 5)))
                .hasMessageStartingWith("--ranks-grid 8x16 makes 128 ranks: embedded mode runs at most 64 here");
    }

    @Test
    void when_moreCores_then_moreRanks() {
        assertThatCode(() -> new EmbeddedLimits(4, 8 * GIB).require(RunConfig.of(8, 16, 256, 256, 5, 5)))
                .doesNotThrowAnyException();
    }

    @Test
    void when_theTwoStatesOfEveryCellExceedTheHeap_then_theRunIsRefusedNamingTheCells() {
        // 16 bytes a cell: 4096 x 4096 cells need 256 MiB at the least
        assertThatCode(() -> new EmbeddedLimits(2, 256L << 20).require(RunConfig.of(2, 4, 4096, 4096, 5, 5)))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> new EmbeddedLimits(2, (256L << 20) - 1).require(RunConfig.of(2, 4, 4096, 4096, 5, 5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--cells 4096x4096 needs at least 256 MiB of heap in embedded mode")
                .hasMessageContaining("this JVM may use 255 MiB");
    }

    @Test
    void when_theRunIsInProcessesMode_then_neitherLimitApplies() {
        EmbeddedLimits small = new EmbeddedLimits(1, 1 << 20);

        assertThatCode(() -> small.require(RunConfig.of(32, 32, 4096, 4096, 5, 5).withMode(Mode.PROCESSES)))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> small.require(RunConfig.of(32, 32, 4096, 4096, 5, 5)))
                .hasMessageStartingWith("--ranks-grid 32x32 makes 1024 ranks");
    }
}
