package org.dfr.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.DataOutputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The data plane's token: a connection that does not present the run's secret first is closed unread,
 * and the run's own traffic goes on. Each plane binds its own loopback address (127.0.0.2 and
 * 127.0.0.3), as two hosts would.
 */
class DataPlaneTokenTest {

    private static final long TOKEN = 0x5eed_1234_abcdL;
    private final int[] ports = new int[2];
    private final String[] hosts = {"127.0.0.2", "127.0.0.3"};
    private DataPlane rank0;
    private DataPlane rank1;

    private void start(long tokenOfRank0) throws Exception {
        Mailbox mailbox1 = new Mailbox();
        rank0 = new DataPlane(null, 0, new Mailbox(), r -> new InetSocketAddress(hosts[r], ports[r]),
                InetAddress.getByName(hosts[0]), tokenOfRank0);
        rank1 = new DataPlane(null, 1, mailbox1, r -> new InetSocketAddress(hosts[r], ports[r]),
                InetAddress.getByName(hosts[1]), TOKEN);
        ports[0] = rank0.port();
        ports[1] = rank1.port();
    }

    @AfterEach
    void close() {
        if (rank0 != null) {
            rank0.close();
        }
        if (rank1 != null) {
            rank1.close();
        }
    }

    @Test
    void when_foreignClientsConnect_then_theyAreRefusedAndTheRunsMessagesStillArrive() throws Exception {
        start(TOKEN);
        MessageKey key = new MessageKey(1, MessageKind.HALO, 3, 0, 1);

        // a client with the wrong token, and one that sends a frame header straight away
        try (Socket wrong = new Socket(hosts[1], ports[1]); Socket raw = new Socket(hosts[1], ports[1])) {
            new DataOutputStream(wrong.getOutputStream()).writeLong(TOKEN + 1);
            OutputStream out = raw.getOutputStream();
            out.write(new byte[] {0, 0, 0, 2, 0, 0, 0, 1});
            out.flush();
            await().atMost(Duration.ofSeconds(10)).until(() -> rank1.refusedConnections() == 2);
            assertThat(wrong.getInputStream().read()).as("the refused connection is closed").isEqualTo(-1);
        }
        rank0.send(1, key, new double[] {1.5, -2.25});

        assertThat(rank1.mailbox().take(key, 10_000)).containsExactly(1.5, -2.25);
        assertThat(rank1.refusedConnections()).isEqualTo(2);
    }

    @Test
    void when_aRankOfAnotherRunConnects_then_itsMessageNeverArrives() throws Exception {
        start(TOKEN ^ 0xffff);
        MessageKey key = new MessageKey(1, MessageKind.HALO, 3, 0, 1);

        try {
            rank0.send(1, key, new double[] {4.0});
        } catch (CommunicationException e) {
            // the refusing rank may close the connection before the frame is written: a reset, which is fine
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> rank1.refusedConnections() == 1);
        assertThatThrownBy(() -> rank1.mailbox().take(key, 200)).isInstanceOf(CommunicationException.class);
    }
}
