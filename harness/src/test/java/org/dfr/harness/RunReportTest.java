package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report's derived figures. */
class RunReportTest {

    /** A run of 40 iterations of 24x20 cells whose loop took 0.5 s: 80 iterations/s over all 40. */
    private static RunReport fortyIterationsInHalfASecond() {
        return new RunReport("jacobi2d5", Map.of(), "dfr", List.of(2, 2), List.of(24, 20), 40, null, 40,
                RunReport.StopReason.ITERATIONS, 5, "embedded", 2, 0, "00", 0.0, 900, 500, 8, 1.0, 80.0,
                80.0 * 480, List.of(), List.of(), List.of(), null, null, null, null, 1, 2, "data-plane");
    }

    @Test
    void when_restartedFromTheFileOfIteration30_then_theThroughputCountsTheTenIterationsComputed() {
        RunReport restarted = fortyIterationsInHalfASecond().withRestartedFromIteration(30);

        assertThat(restarted.restartedFromIteration()).isEqualTo(30);
        assertThat(restarted.iterationsRun()).isEqualTo(40);
        assertThat(restarted.iterationsPerSecond()).isEqualTo(20.0);
        assertThat(restarted.cellUpdatesPerSecond()).isEqualTo(20.0 * 480);
    }

    @Test
    void when_notRestarted_then_theThroughputStays() {
        RunReport same = fortyIterationsInHalfASecond().withRestartedFromIteration(null);

        assertThat(same.restartedFromIteration()).isNull();
        assertThat(same.iterationsPerSecond()).isEqualTo(80.0);
        assertThat(same.cellUpdatesPerSecond()).isEqualTo(80.0 * 480);
    }
}
