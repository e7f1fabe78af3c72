package org.dfr.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class MediansTest {

    @Test
    void when_oddCount_then_middleValue_evenCount_then_meanOfMiddlePair() {
        assertThat(Medians.of(List.of(5L, 1L, 3L))).isEqualTo(3.0);
        assertThat(Medians.of(List.of(4L, 1L, 3L, 10L))).isEqualTo(3.5);
    }

    @Test
    void when_nullsPresent_then_ignored_andAllNull_then_null() {
        assertThat(Medians.of(Arrays.asList(null, 7L, null))).isEqualTo(7.0);
        assertThat(Medians.of(Arrays.asList((Long) null))).isNull();
        assertThat(Medians.of(new ArrayList<Long>())).isNull();
    }
}
