package org.dfr.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.IntStream;
import org.dfr.runtime.PartitionKernel;
import org.dfr.runtime.net.DataPlane;
import org.dfr.runtime.net.Mailbox;
import org.dfr.runtime.net.MessageKey;
import org.dfr.runtime.net.MessageKind;

/**
 * Sends messages back and forth between two throwaway {@link DataPlane}s over loopback TCP, so that
 * the JIT has compiled the halo path (framing, socket writes and reads, the mailbox, message keys)
 * before a rank process enters its loop, where the compiler threads would otherwise take CPU from
 * the ranks. Nothing of the run is touched: the planes belong to no cluster and are closed after.
 *
 * @param roundTrips how many messages go each way; at least 1
 * @param payloadLengths payload sizes, in doubles, used in turn (halos, residual contributions, barriers)
 */
public record TransportWarmUp(int roundTrips, int[] payloadLengths) {

    /**
     * Round trips of the default warm-up: enough for C1 to compile the whole message path and C2 its
     * hottest parts; about 0.1 s on an idle machine (one round trip is two messages and four thread
     * hand-overs), a second or two when 8 ranks share 2 loaded cores.
     */
    public static final int DEFAULT_ROUND_TRIPS = 1_000;
    /** Time limit of one warm-up message: loopback delivers in microseconds. */
    private static final long TAKE_TIMEOUT_MILLIS = 10_000;

    public TransportWarmUp {
        if (roundTrips < 1) {
            throw new IllegalArgumentException("a transport warm-up needs at least 1 round trip, got " + roundTrips);
        }
        if (payloadLengths.length == 0 || Arrays.stream(payloadLengths).anyMatch(n -> n < 0)) {
            throw new IllegalArgumentException("payload lengths must be >= 0 and at least one, got "
                    + Arrays.toString(payloadLengths));
        }
        payloadLengths = payloadLengths.clone();
    }

    /**
     * A warm-up whose messages have the sizes partition {@code partition} exchanges: the halos it
     * receives, one residual contribution (a partition and its value) and an empty barrier message.
     */
    public static TransportWarmUp forHalosOf(PartitionKernel kernel, int partition, int roundTrips) {
        IntStream halos = Arrays.stream(kernel.dependencies().inputsOf(partition))
                .filter(q -> q != partition)
                .map(q -> kernel.haloLength(q, partition));
        return new TransportWarmUp(roundTrips, IntStream.concat(halos, IntStream.of(2, 0)).toArray());
    }

    /**
     * The transport warm-up of a run of {@code iterations} iterations: {@link #forHalosOf} with
     * {@code roundTrips}, but never more round trips than the run sends messages of those kinds (one
     * of each size per iteration): a warm-up longer than the run cannot pay.
     */
    public static TransportWarmUp forRun(PartitionKernel kernel, int partition, int roundTrips, int iterations) {
        TransportWarmUp full = forHalosOf(kernel, partition, roundTrips);
        long perRun = (long) iterations * full.payloadLengths.length;
        return new TransportWarmUp((int) Math.max(1, Math.min(roundTrips, perRun)), full.payloadLengths);
    }

    /**
     * Runs the round trips.
     *
     * @throws UncheckedIOException if a loopback socket cannot be opened
     * @throws org.dfr.runtime.net.CommunicationException if a message does not arrive
     */
    public void run() {
        run(InetAddress.getLoopbackAddress());
    }

    /**
     * Runs the round trips between two planes bound to {@code address} (the rank's own host address: a
     * rank listens on nothing else, not even for a moment).
     */
    public void run(InetAddress address) {
        Mailbox mailA = new Mailbox();
        Mailbox mailB = new Mailbox();
        int[] ports = new int[2];
        long token = new Random().nextLong();
        try (DataPlane a = new DataPlane(null, 0, mailA, r -> new InetSocketAddress(address, ports[r]), address, token);
             DataPlane b = new DataPlane(null, 1, mailB, r -> new InetSocketAddress(address, ports[r]), address, token)) {
            ports[0] = a.port();
            ports[1] = b.port();
            for (int i = 0; i < roundTrips; i++) {
                double[] payload = new double[payloadLengths[i % payloadLengths.length]];
                MessageKind kind = i % 2 == 0 ? MessageKind.HALO : MessageKind.PARTIAL;
                MessageKey there = new MessageKey(0, kind, i, 0, 1);
                a.send(1, there, payload);
                MessageKey back = new MessageKey(0, kind, i, 1, 0);
                b.send(0, back, mailB.take(there, TAKE_TIMEOUT_MILLIS));
                mailA.take(back, TAKE_TIMEOUT_MILLIS);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a loopback socket for the transport warm-up: " + e.getMessage(), e);
        }
    }
}
