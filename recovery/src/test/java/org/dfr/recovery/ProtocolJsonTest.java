package org.dfr.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProtocolJsonTest {

    /**
     * The warm-up runs off the critical path and swallows its failures (the first recovery is then only slower): a
     * value it cannot build or write would silently leave every later one cold, so it must run through.
     */
    @Test
    void when_warmedUp_then_everyProtocolValueWasWrittenAndReadWithoutFailure() {
        assertThatCode(ProtocolJson::warmUp).doesNotThrowAnyException();
    }

    /** A status as a rank writes it (ArrayLists) reads back equal, through the warmed mapper. */
    @Test
    void when_aStatusHoldsArrayLists_then_itReadsBackEqual() {
        ProtocolJson.warmUp();
        RankStatus status = new RankStatus(3, 2, 15, 14, 10, new ArrayList<>(List.of(1, 4)), new ArrayList<>(List.of(3)),
                -1, 1234L, null);

        RankStatus read = ProtocolJson.read(ProtocolJson.write(status), RankStatus.class);

        assertThat(read).isEqualTo(status);
    }
}
