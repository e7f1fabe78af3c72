package org.dfr.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.dfr.runtime.HeldCopy;
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
                -1, 1234L, null, new ArrayList<>(List.of(new HeldCopy(10, 2), new HeldCopy(10, 5))));

        RankStatus read = ProtocolJson.read(ProtocolJson.write(status), RankStatus.class);

        assertThat(read).isEqualTo(status);
        assertThat(read.heldCopies()).containsExactly(new HeldCopy(10, 2), new HeldCopy(10, 5));
    }

    /** A status written without held copies (a rank of an older build) reads as naming none, not as null. */
    @Test
    void when_aStatusHasNoHeldCopiesField_then_itReadsAsHoldingNone() {
        String older = "{\"rank\":3,\"epoch\":2,\"liveIteration\":15,\"computedIteration\":14,"
                + "\"committedCheckpoint\":10,\"invalidPartitions\":[],\"heldPartitions\":[3],\"pendingTarget\":-1,"
                + "\"stoppedAtMillis\":1234,\"detectedBy\":null}";

        RankStatus read = ProtocolJson.read(older, RankStatus.class);

        assertThat(read.heldCopies()).isEmpty();
        assertThat(RankStatus.holdersOf(List.of(read), 10, 3)).isEmpty();
    }

    /** The holders of a copy are the ranks whose statuses name it, in rank order; another checkpoint's do not count. */
    @Test
    void when_statusesNameHeldCopies_then_theHoldersOfACopyAreTheRanksNamingIt() {
        RankStatus five = new RankStatus(5, 0, 15, 15, 10, List.of(), List.of(5), -1, 0L, null,
                List.of(new HeldCopy(10, 1), new HeldCopy(0, 1)));
        RankStatus three = new RankStatus(3, 0, 15, 15, 10, List.of(), List.of(3), -1, 0L, null,
                List.of(new HeldCopy(10, 1)));
        RankStatus two = new RankStatus(2, 0, 15, 15, 10, List.of(), List.of(2), -1, 0L, null,
                List.of(new HeldCopy(0, 1), new HeldCopy(10, 0)));

        assertThat(RankStatus.holdersOf(List.of(five, three, two), 10, 1)).containsExactly(3, 5);
        assertThat(RecoveryProtocol.reportedHolders(List.of(five, three, two), Set.of(2, 5), 10, 1))
                .as("a holder that is no member any more does not count").containsExactly(5);
        assertThat(RankStatus.holdersOf(List.of(five, three, two), 10, 2)).isEmpty();
    }
}
