package org.dfr.runtime.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the data plane tells about a peer whose connection ends, and what a probe finds. */
class PeerLossTest {

    private final int[] ports = new int[3];
    private final List<Integer> suspectedByRank0 = new CopyOnWriteArrayList<>();
    private DataPlane rank0;
    private DataPlane rank1;

    @BeforeEach
    void openTwoPlanesOverTcp() throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        rank0 = new DataPlane(0, new Mailbox(), r -> new InetSocketAddress(loopback, ports[r]));
        rank1 = new DataPlane(1, new Mailbox(), r -> new InetSocketAddress(loopback, ports[r]));
        ports[0] = rank0.port();
        ports[1] = rank1.port();
        rank0.onPeerConnectionLost(suspectedByRank0::add);
        // rank 1 sends to rank 0: rank 0 holds an inbound connection from rank 1
        rank1.send(0, new MessageKey(0, MessageKind.HALO, 1, 1, 0), new double[] {1.0});
        await().atMost(Duration.ofSeconds(10)).until(() -> rank0.mailbox().take(
                new MessageKey(0, MessageKind.HALO, 1, 1, 0), 10_000).length == 1);
    }

    @AfterEach
    void close() {
        rank0.close();
        rank1.close();
    }

    @Test
    void when_aPeerClosesWithoutGoodbye_then_itsRankIsSuspectedAndTheProbeFindsItDead() {
        rank1.closeAbruptly();

        await().atMost(Duration.ofSeconds(10)).until(() -> !suspectedByRank0.isEmpty());
        assertThat(suspectedByRank0).containsOnly(1);
        assertThat(rank0.probe(1, 1_000)).isEqualTo(DataPlane.PeerState.DEAD);
    }

    @Test
    void when_aPeerClosesInOrder_then_nothingIsSuspected() throws Exception {
        rank1.close();

        // the goodbye frame and the end of the stream arrive together: once the probe is refused,
        // the reader has long seen both
        await().atMost(Duration.ofSeconds(10)).until(() -> rank0.probe(1, 1_000) == DataPlane.PeerState.DEAD);
        rank0.mailbox().readIfNobodyReads();
        assertThat(suspectedByRank0).isEmpty();
    }

    @Test
    void when_aLivePeerIsProbed_then_itIsAliveAndSuspectsNobody() {
        List<Integer> suspectedByRank1 = new CopyOnWriteArrayList<>();
        rank1.onPeerConnectionLost(suspectedByRank1::add);

        assertThat(rank0.probe(1, 1_000)).isEqualTo(DataPlane.PeerState.ALIVE);
        // the probe said goodbye: a later message still flows and nobody was suspected
        rank0.send(1, new MessageKey(0, MessageKind.HALO, 2, 0, 1), new double[] {2.0});
        assertThat(rank1.mailbox().take(new MessageKey(0, MessageKind.HALO, 2, 0, 1), 10_000)).containsExactly(2.0);
        assertThat(suspectedByRank1).isEmpty();
    }

    @Test
    void when_aLivePeerIsProbedWithLinger_then_itStaysAlive() {
        assertThat(rank0.probe(1, 1_000, 100)).isEqualTo(DataPlane.PeerState.ALIVE);
    }

    @Test
    void when_aListeningSocketClosesWhileAProbeWaitsInIt_then_thePeerIsDead() throws Exception {
        // a dying process: its listening socket still takes the connection, then closes with it queued
        try (ServerSocketChannel dying = ServerSocketChannel.open()) {
            dying.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            ports[2] = ((InetSocketAddress) dying.getLocalAddress()).getPort();
            CompletableFuture<DataPlane.PeerState> probe = CompletableFuture.supplyAsync(() -> rank0.probe(2, 1_000, 5_000));
            await().pollDelay(Duration.ofMillis(100)).atMost(Duration.ofSeconds(5)).until(() -> true);
            assertThat(probe).isNotDone();
            dying.close();
            assertThat(probe.get(5, TimeUnit.SECONDS)).isEqualTo(DataPlane.PeerState.DEAD);
        }
    }

    @Test
    void when_textIsCarried_then_itComesBackUnchanged() {
        String text = "{\"epoch\":3,\"reason\":\"é ✓ \\u0000\"}x";
        for (int cut = 0; cut <= text.length(); cut++) {
            String s = text.substring(0, cut);
            assertThat(TextPayload.decode(TextPayload.encode(s))).isEqualTo(s);
        }
    }
}
