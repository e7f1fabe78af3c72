package org.dfr.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.dfr.runtime.RawBits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class DataPlaneTest {

    private static final long TIMEOUT_MILLIS = 10_000;

    private final int[] ports = new int[2];
    private final Mailbox mailboxOfRank1 = new Mailbox();
    private DataPlane rank0;
    private DataPlane rank1;

    @BeforeEach
    void openTwoPlanesOverTcp() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        // no cluster name: never the in-JVM shortcut, always a socket
        rank0 = new DataPlane(0, new Mailbox(), r -> new InetSocketAddress(loopback, ports[r]));
        rank1 = new DataPlane(1, mailboxOfRank1, r -> new InetSocketAddress(loopback, ports[r]));
        ports[0] = rank0.port();
        ports[1] = rank1.port();
    }

    @AfterEach
    void close() {
        rank0.close();
        rank1.close();
    }

    @Test
    void when_payloadsOfEverySizeAreSent_then_theyArriveBitForBitUnderTheirKeys() {
        // 0 and 1 doubles, a halo, and 100 000 doubles: larger than the initial frame buffer
        int[] sizes = {0, 1, 2048, 100_000, 3};
        double[][] sent = new double[sizes.length][];
        SplittableRandom random = new SplittableRandom(42);
        for (int m = 0; m < sizes.length; m++) {
            sent[m] = new double[sizes[m]];
            for (int k = 0; k < sizes[m]; k++) {
                sent[m][k] = Double.longBitsToDouble(random.nextLong());
            }
            if (sizes[m] > 0) {
                sent[m][0] = -0.0;
            }
            rank0.send(1, new MessageKey(2, MessageKind.HALO, 7 + m, m, 1), sent[m]);
        }

        // taken in reverse order: each must be found under its own key
        for (int m = sizes.length - 1; m >= 0; m--) {
            double[] got = mailboxOfRank1.take(new MessageKey(2, MessageKind.HALO, 7 + m, m, 1), TIMEOUT_MILLIS);
            assertThat(RawBits.of(got)).isEqualTo(RawBits.of(sent[m]));
        }
    }

    /** Kinds the mailbox stores for {@link Mailbox#take} (the others interrupt, notify or are consumed). */
    private static final MessageKind[] STORED_KINDS = {MessageKind.HALO, MessageKind.PARTIAL,
        MessageKind.RECOMPUTE_HALO, MessageKind.RESUME_BARRIER, MessageKind.END_BARRIER, MessageKind.REDUCED};

    @Test
    void when_manyMessagesFollowOneAnother_then_everyHeaderFieldSurvives() {
        MessageKind[] kinds = STORED_KINDS;
        for (int i = 0; i < 500; i++) {
            double[] payload = {i, -i};
            rank0.send(1, new MessageKey(i % 3, kinds[i % kinds.length], i, -i, i * 31), payload);
        }
        for (int i = 0; i < 500; i++) {
            MessageKind kind = kinds[i % kinds.length];
            double[] got = mailboxOfRank1.take(new MessageKey(i % 3, kind, i, -i, i * 31), TIMEOUT_MILLIS);
            assertThat(got).containsExactly(i, -i);
        }
    }

    @Test
    void when_theReceiverIsNotWaiting_then_aSenderOfMoreThanTheSocketBuffersHoldStillFinishes() throws Exception {
        // 64 MiB: far more than loopback socket buffers take, so the send finishes only if the
        // receiving plane reads while its rank does something else than wait
        double[] large = new double[8 << 20];
        large[large.length - 1] = 42.0;
        ExecutorService sender = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<Void> sent = CompletableFuture.runAsync(
                    () -> rank0.send(1, new MessageKey(0, MessageKind.HALO, 1, 0, 1), large), sender);

            await().atMost(Duration.ofSeconds(30)).until(sent::isDone);
            sent.get();
            double[] got = mailboxOfRank1.take(new MessageKey(0, MessageKind.HALO, 1, 0, 1), TIMEOUT_MILLIS);
            assertThat(got).hasSize(large.length);
            assertThat(got[large.length - 1]).isEqualTo(42.0);
        } finally {
            sender.shutdownNow();
        }
    }

    @Test
    void when_theEpochIsInterruptedWhileTheWaiterReadsTheSockets_then_theWaitEndsWithTheReason() throws Exception {
        rank0.send(1, new MessageKey(0, MessageKind.HALO, 1, 0, 1), new double[] {1});
        mailboxOfRank1.take(new MessageKey(0, MessageKind.HALO, 1, 0, 1), TIMEOUT_MILLIS);
        AtomicReference<Thread> waiterThread = new AtomicReference<>();
        ExecutorService waiter = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "waiter");
            waiterThread.set(t);
            return t;
        });
        try {
            // nothing will come: the waiter ends up in the sockets' select
            CompletableFuture<double[]> wait = CompletableFuture.supplyAsync(() -> mailboxOfRank1.take(
                    new MessageKey(0, MessageKind.HALO, 2, 0, 1), TIMEOUT_MILLIS), waiter);
            await().atMost(Duration.ofSeconds(5)).until(() -> waiterThread.get() != null
                    && Arrays.stream(waiterThread.get().getStackTrace())
                            .anyMatch(f -> f.getMethodName().equals("select")));

            mailboxOfRank1.interruptEpoch("rank 0 started a recovery");

            assertThatThrownBy(() -> wait.get(TIMEOUT_MILLIS / 2, TimeUnit.MILLISECONDS))
                    .hasCauseInstanceOf(EpochChangedException.class)
                    .hasMessageContaining("rank 0 started a recovery");
        } finally {
            waiter.shutdownNow();
        }
    }

    @Test
    void when_twoThreadsWaitForDifferentMessages_then_eachGetsItsOwnWhicheverReadsTheSockets() throws Exception {
        ExecutorService waiters = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 200; round++) {
                MessageKey first = new MessageKey(0, MessageKind.HALO, round, 0, 1);
                MessageKey second = new MessageKey(0, MessageKind.PARTIAL, round, 0, 1);
                CompletableFuture<double[]> a = CompletableFuture.supplyAsync(
                        () -> mailboxOfRank1.take(first, TIMEOUT_MILLIS), waiters);
                CompletableFuture<double[]> b = CompletableFuture.supplyAsync(
                        () -> mailboxOfRank1.take(second, TIMEOUT_MILLIS), waiters);
                rank0.send(1, second, new double[] {round, 2});
                rank0.send(1, first, new double[] {round, 1});

                assertThat(a.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)).containsExactly(round, 1);
                assertThat(b.get(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)).containsExactly(round, 2);
            }
        } finally {
            waiters.shutdownNow();
        }
    }
}
