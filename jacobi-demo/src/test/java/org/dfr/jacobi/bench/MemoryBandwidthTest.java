package org.dfr.jacobi.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class MemoryBandwidthTest {

    @Test
    void when_copy_takes_given_time_then_bytes_per_second_count_read_and_write() {
        // each nanoTime() call advances 500 ns, so every timed copy "takes" 500 ns
        AtomicLong now = new AtomicLong();
        NanoClock clock = () -> now.addAndGet(500);
        Throughput t = new MemoryBandwidth(8 * 1024, 3, clock).measureCopy();
        assertThat(t.units()).isEqualTo(2L * 8 * 1024);
        assertThat(t.nanos()).isEqualTo(500);
        assertThat(t.perSecond()).isCloseTo(16384 / 500e-9, offset(1.0));
    }

    @Test
    void when_best_of_repetitions_then_shortest_counts() {
        long[] ticks = {0, 900, 1000, 1300, 2000, 2700};
        int[] call = {0};
        Throughput t = new MemoryBandwidth(64, 3, () -> ticks[call[0]++]).measureCopy();
        assertThat(t.nanos()).isEqualTo(300);
    }

    @Test
    void when_fraction_of_bound_then_sixteen_bytes_per_cell_update() {
        assertThat(MemoryBandwidth.fractionOfBound(1e9, 32e9)).isCloseTo(0.5, offset(1e-12));
        assertThatThrownBy(() -> MemoryBandwidth.fractionOfBound(1e9, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bytesPerSecond");
    }

    @Test
    void when_bad_settings_then_rejected_naming_them() {
        assertThatThrownBy(() -> new MemoryBandwidth(4, 1, NanoClock.SYSTEM))
                .hasMessageContaining("arrayBytes")
                .hasMessageContaining("was 4");
        assertThatThrownBy(() -> new MemoryBandwidth(1024, 0, NanoClock.SYSTEM))
                .hasMessageContaining("repetitions")
                .hasMessageContaining("was 0");
    }

    @Test
    void when_several_threads_then_all_bytes_count_once_and_the_common_span_is_timed() {
        AtomicLong now = new AtomicLong();
        NanoClock clock = () -> now.addAndGet(1000);
        Throughput t = new MemoryBandwidth(8 * 1000, 2, clock).measureCopy(3);
        assertThat(t.units()).isEqualTo(2L * 8 * 1000);
        assertThat(t.nanos()).isEqualTo(1000);
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(th -> th.getName().startsWith("dfr-bandwidth-"));
    }

    @Test
    void when_thread_count_out_of_range_then_rejected_naming_it() {
        MemoryBandwidth m = new MemoryBandwidth(64, 1, NanoClock.SYSTEM);
        assertThatThrownBy(() -> m.measureCopy(0)).hasMessageContaining("threads").hasMessageContaining("was 0");
        // 64 bytes are 8 elements: a ninth thread would have nothing to copy
        assertThatThrownBy(() -> m.measureCopy(9)).hasMessageContaining("between 1 and 8").hasMessageContaining("was 9");
    }

    @Test
    void when_real_clock_on_small_arrays_then_positive_finite() {
        Throughput t = new MemoryBandwidth(1 << 16, 2, NanoClock.SYSTEM).measureCopy();
        assertThat(t.perSecond()).isPositive().isFinite();
        assertThat(new MemoryBandwidth(1 << 16, 2, NanoClock.SYSTEM).measureCopy(2).perSecond()).isPositive().isFinite();
    }
}
