package org.dfr.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The verdict of a throughput row follows from its ratio to the sequential kernel and the target. */
class ThroughputRowTest {

    private static final BandwidthBound BOUND = BandwidthBound.of(2, 16e9);

    @Test
    void when_twoRanksReachTheirTarget_then_met_andTheReferencesAreAttached() {
        ThroughputRow row = ThroughputRow.measured("2x1 embedded", 2, "embedded", 1.7e9, 100, 1.0e9, BOUND);

        assertThat(row.ratioToSequential()).isEqualTo(1.7);
        assertThat(row.targetRatio()).isEqualTo(1.6);
        assertThat(row.met()).isTrue();
        assertThat(row.mpiCellUpdatesPerSecond()).isEqualTo(1.8e9);
        assertThat(row.fractionOfBandwidthBound()).isEqualTo(1.7e9 / BOUND.boundCellUpdatesPerSecond());
    }

    @Test
    void when_twoRanksMissTheirTarget_then_notMet() {
        ThroughputRow row = ThroughputRow.measured("2x1 embedded", 2, "embedded", 1.5e9, 100, 1.0e9, BOUND);

        assertThat(row.met()).isFalse();
    }

    @Test
    void when_rankCountHasNoTarget_then_noVerdict() {
        ThroughputRow row = ThroughputRow.measured("2x2 embedded", 4, "embedded", 1.5e9, 100, 1.0e9, BOUND);

        assertThat(row.targetRatio()).isNull();
        assertThat(row.met()).isNull();
    }

    @Test
    void when_referencesAreDropped_then_theMeasurementStays_butNoTargetVerdictOrPeerFigure() {
        ThroughputRow row = ThroughputRow.measured("8 processes", 8, "processes", 1.2e9, 100, 1.0e9, BOUND)
                .withoutReferences();

        assertThat(row.cellUpdatesPerSecond()).isEqualTo(1.2e9);
        assertThat(row.ratioToSequential()).isEqualTo(1.2);
        assertThat(row.targetRatio()).isNull();
        assertThat(row.met()).isNull();
        assertThat(row.mpiCellUpdatesPerSecond()).isNull();
    }
}
