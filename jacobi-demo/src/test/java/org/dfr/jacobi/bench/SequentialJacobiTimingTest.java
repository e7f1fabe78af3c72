package org.dfr.jacobi.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import java.util.concurrent.atomic.AtomicInteger;
import org.dfr.jacobi.JacobiProblem;
import org.junit.jupiter.api.Test;

class SequentialJacobiTimingTest {

    @Test
    void when_timed_then_counts_only_the_timed_cell_updates() {
        AtomicInteger calls = new AtomicInteger();
        NanoClock clock = () -> calls.getAndIncrement() == 0 ? 1_000 : 1_000 + 2_000_000;
        Throughput t = new SequentialJacobiTiming(clock).measure(new JacobiProblem(100, 50), 4);
        assertThat(calls.get()).isEqualTo(2);
        assertThat(t.units()).isEqualTo(100L * 50 * 4);
        assertThat(t.nanos()).isEqualTo(2_000_000);
        assertThat(t.perSecond()).isCloseTo(20_000 / 2e-3, offset(1e-3));
    }

    @Test
    void when_no_iterations_then_rejected() {
        assertThatThrownBy(() -> SequentialJacobiTiming.withSystemClock().measure(new JacobiProblem(4, 4), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was 0");
    }

    @Test
    void when_bad_throughput_then_rejected() {
        assertThatThrownBy(() -> new Throughput(-1, 5)).hasMessageContaining("units");
        assertThatThrownBy(() -> new Throughput(1, 0)).hasMessageContaining("nanos");
    }
}
