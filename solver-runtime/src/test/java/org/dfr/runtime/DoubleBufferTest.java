package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/*
 * A checkpoint holds a buffer of the pair instead of copying it. One partition, K = 2, commit lag 1:
 *
 *   iteration:   1    2    3    4    5    6
 *   checkpoint:       c2        c4        c6      (the buffer 2 was computed into is held)
 *   commit:                c2        c4           (at the reduction after; drops the one before)
 *
 * The update never writes a held buffer; once a checkpoint has been given back, its array is the one
 * written next (no copy, no allocation).
 */
class DoubleBufferTest {

    /** A "kernel" whose state is the iteration in every owned cell; cell 0 is a fixed boundary. */
    private static void update(double[] in, double[] out) {
        for (int i = 1; i < out.length; i++) {
            out[i] = in[i] + 1;
        }
    }

    @Test
    void when_aCheckpointHoldsTheComputedBuffer_then_noUpdateWritesItUntilItIsGivenBack() {
        double[] initial = {-7, 0, 0, 0};
        DoubleBuffer b = DoubleBuffer.of(initial);
        Map<double[], Integer> held = new IdentityHashMap<>();
        Deque<double[]> kept = new ArrayDeque<>();
        Map<double[], Boolean> written = new IdentityHashMap<>();
        for (int i = 1; i <= 12; i++) {
            double[] out = b.writableNext();
            assertThat(held).as("iteration %d writes a held buffer", i).doesNotContainKey(out);
            written.put(out, true);
            update(b.live(), out);
            if (i % 2 == 0) {
                double[] h = b.hold(1);
                held.put(h, i);
                kept.addLast(h);
            }
            b.swap();
            while (i % 2 == 1 && kept.size() > 1) {
                // the commit of checkpoint i-1 drops the one before it
                double[] dropped = kept.removeFirst();
                held.remove(dropped);
                b.release(dropped);
            }
            for (Map.Entry<double[], Integer> e : held.entrySet()) {
                assertThat(e.getKey()).as("checkpoint %d after iteration %d", e.getValue(), i)
                        .containsExactly(-7, e.getValue(), e.getValue(), e.getValue());
            }
            assertThat(b.live()).containsExactly(-7, i, i, i);
        }
        // the pair and one copy made before the first give-back: three arrays hold the live state, the
        // committed checkpoint and the one in flight (a copying checkpoint needs four)
        assertThat(written).as("arrays the updates wrote").hasSize(3);
    }

    @Test
    void when_aHeldBufferIsGivenBackWhileStillInThePair_then_itIsWrittenAgainAndNotMadeTheSpare() {
        DoubleBuffer b = DoubleBuffer.of(new double[] {1, 2});
        double[] h = b.hold(1);

        b.release(h);

        assertThat(b.isHeld(1)).isFalse();
        assertThat(b.writableNext()).as("no longer held: written in place").isSameAs(h);
    }

    @Test
    void when_noArrayWasGivenBackYet_then_theHeldBufferIsReplacedByACopyOfIt() {
        DoubleBuffer b = DoubleBuffer.of(new double[] {5, 6});
        double[] h = b.hold(1);

        double[] out = b.writableNext();

        assertThat(out).isNotSameAs(h).containsExactly(5, 6);
        assertThat(b.isHeld(1)).isFalse();
    }

    @Test
    void when_theLiveBufferIsHeldAndSwappedOut_then_theFlagMovesWithIt() {
        DoubleBuffer b = DoubleBuffer.of(new double[] {1});
        double[] h = b.hold(0);
        double[] other = b.next();

        b.swap();

        assertThat(b.isHeld(0)).isFalse();
        assertThat(b.isHeld(1)).isTrue();
        assertThat(b.live()).isSameAs(other);
        assertThat(b.writableNext()).isNotSameAs(h);
    }

    @Test
    void when_twoArraysComeBackBeforeTheyAreNeeded_then_bothReplaceHeldBuffersAndAThirdIsLeftToTheCollector() {
        DoubleBuffer b = DoubleBuffer.of(new double[] {1, 2});
        double[] late1 = {0, 0};
        double[] late2 = {0, 0};
        b.release(late1);
        b.release(late2);
        b.release(new double[] {0, 0});

        b.hold(1);
        double[] first = b.writableNext();
        b.hold(1);
        double[] second = b.writableNext();
        b.hold(1);
        double[] third = b.writableNext();

        assertThat(List.of(first, second)).as("the spares, newest first").containsExactly(late2, late1);
        assertThat(third).as("none left: a copy").isNotSameAs(late1).isNotSameAs(late2).containsExactly(0, 0);
    }
}
