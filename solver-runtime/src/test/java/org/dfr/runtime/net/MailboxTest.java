package org.dfr.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Recoveries announced on the data plane end the epoch they were announced in, whenever this rank gets
 * there.
 *
 * <pre>
 *   rank 7 takes the directive of epoch 1 first, fails in epoch 1 and announces it;
 *   this rank is still in epoch 0 when the announcement arrives, and enters epoch 1 after it
 * </pre>
 */
class MailboxTest {

    private static final double[] NONE = new double[0];

    @Test
    void when_aRecoveryOfTheNextEpochIsAnnouncedBeforeThisRankEntersIt_then_enteringItInterruptsAtOnce() {
        Mailbox mailbox = new Mailbox();
        mailbox.deliver(new MessageKey(1, MessageKind.RECOVERY_START, 0, 7, 0), NONE);

        assertThat(mailbox.isInterrupted()).as("epoch 0 goes on").isFalse();
        mailbox.enterEpoch(1);

        assertThat(mailbox.isInterrupted()).isTrue();
        assertThatThrownBy(() -> mailbox.take(new MessageKey(1, MessageKind.HALO, 6, 7, 5), 10_000))
                .isInstanceOf(EpochChangedException.class)
                .hasMessageContaining("rank 7 started a recovery in epoch 1");
    }

    @Test
    void when_theAnnouncedEpochIsSkipped_then_aLaterEpochIsNotInterrupted() {
        Mailbox mailbox = new Mailbox();
        mailbox.deliver(new MessageKey(1, MessageKind.RECOVERY_START, 0, 7, 0), NONE);

        mailbox.enterEpoch(2);

        assertThat(mailbox.isInterrupted()).isFalse();
        mailbox.deliver(new MessageKey(2, MessageKind.HALO, 3, 1, 0), new double[] {4.0});
        assertThat(mailbox.take(new MessageKey(2, MessageKind.HALO, 3, 1, 0), 10_000)).containsExactly(4.0);
    }

    @Test
    void when_aRecoveryOfThisEpochIsAnnounced_then_waitsThrowUntilTheNextEpoch() {
        Mailbox mailbox = new Mailbox();
        mailbox.enterEpoch(3);
        mailbox.deliver(new MessageKey(3, MessageKind.RECOVERY_START, 0, 2, 0), NONE);

        assertThatThrownBy(() -> mailbox.take(new MessageKey(3, MessageKind.HALO, 1, 2, 0), 10_000))
                .isInstanceOf(EpochChangedException.class);
        mailbox.enterEpoch(4);
        assertThat(mailbox.isInterrupted()).isFalse();
    }

    /*
     * The end of a run, epoch 2: rank 5 sent its end-of-run notice, rank 6 did not.
     *
     *   rank 5 --END(2)--> this rank      rank 6: nothing yet
     */
    @Test
    void when_aRanksEndNoticeOfThisEpochArrived_then_itPassedTheEndEvenOnceTaken() {
        Mailbox mailbox = new Mailbox();
        mailbox.enterEpoch(2);
        MessageKey end = new MessageKey(2, MessageKind.END_BARRIER, 9, 5, 0);
        mailbox.deliver(end, NONE);

        assertThat(mailbox.passedEnd(5)).isTrue();
        assertThat(mailbox.passedEnd(6)).isFalse();
        mailbox.take(end, 10_000);
        assertThat(mailbox.passedEnd(5)).as("taken").isTrue();
    }

    @Test
    void when_theEpochChangesAfterAnEndNotice_then_theRankHasNotPassedTheEndOfTheNewOne() {
        Mailbox mailbox = new Mailbox();
        mailbox.enterEpoch(2);
        mailbox.deliver(new MessageKey(2, MessageKind.END_BARRIER, 9, 5, 0), NONE);
        mailbox.deliver(new MessageKey(1, MessageKind.END_BARRIER, 9, 6, 0), NONE); // an epoch that is over

        mailbox.enterEpoch(3);

        assertThat(mailbox.passedEnd(5)).as("a recovery began after its notice: it runs to the end again").isFalse();
        assertThat(mailbox.passedEnd(6)).isFalse();
    }

    @Test
    void when_anEndNoticeOfTheNextEpochArrivesEarly_then_itCountsOnceThisRankEntersThatEpoch() {
        Mailbox mailbox = new Mailbox();
        mailbox.enterEpoch(2);
        mailbox.deliver(new MessageKey(3, MessageKind.END_BARRIER, 9, 5, 0), NONE);

        assertThat(mailbox.passedEnd(5)).isFalse();
        mailbox.enterEpoch(3);
        assertThat(mailbox.passedEnd(5)).isTrue();
    }
}
