package org.dfr.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.SplittableRandom;
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
            assertThat(rawBits(got)).isEqualTo(rawBits(sent[m]));
        }
    }

    @Test
    void when_manyMessagesFollowOneAnother_then_everyHeaderFieldSurvives() {
        MessageKind[] kinds = MessageKind.values();
        for (int i = 0; i < 500; i++) {
            double[] payload = {i, -i};
            rank0.send(1, new MessageKey(i % 3, kinds[i % kinds.length] == MessageKind.RECOVERY_START
                    ? MessageKind.PARTIAL : kinds[i % kinds.length], i, -i, i * 31), payload);
        }
        for (int i = 0; i < 500; i++) {
            MessageKind kind = kinds[i % kinds.length] == MessageKind.RECOVERY_START
                    ? MessageKind.PARTIAL : kinds[i % kinds.length];
            double[] got = mailboxOfRank1.take(new MessageKey(i % 3, kind, i, -i, i * 31), TIMEOUT_MILLIS);
            assertThat(got).containsExactly(i, -i);
        }
    }

    private static long[] rawBits(double[] values) {
        return Arrays.stream(values).mapToLong(Double::doubleToRawLongBits).toArray();
    }
}
