package org.dfr.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class RankKillerTest {

    private static final long PAUSE_MILLIS = 300;

    @Test
    void when_theIterationThreadHoldsAPermit_then_aPauseStillLastsItsWholeLength() {
        // what a completed future or a queue leaves on a thread it handed something to
        LockSupport.unpark(Thread.currentThread());

        long start = System.nanoTime();
        RankKiller.parkFor(PAUSE_MILLIS);

        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(PAUSE_MILLIS);
    }

    @Test
    void when_theThreadIsInterrupted_then_thePauseEnds() throws InterruptedException {
        Thread paused = new Thread(() -> RankKiller.parkFor(60_000));
        paused.start();
        paused.interrupt();

        paused.join(TimeUnit.SECONDS.toMillis(10));

        assertThat(paused.isAlive()).isFalse();
    }
}
