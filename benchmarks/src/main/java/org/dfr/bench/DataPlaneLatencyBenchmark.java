package org.dfr.bench;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.dfr.runtime.net.DataPlane;
import org.dfr.runtime.net.Mailbox;
import org.dfr.runtime.net.MessageKey;
import org.dfr.runtime.net.MessageKind;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Round trip of one halo-sized message between two ranks' data planes: over loopback TCP (ranks in
 * different processes) and through memory (ranks in one JVM). One-way latency is half the score.
 *
 * <p>{@code java -jar benchmarks/target/benchmarks.jar DataPlaneLatency -f 1 -wi 3 -i 5}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DataPlaneLatencyBenchmark {

    /** Doubles per message: 1024 = 8 KiB, a 1024-cell halo row. */
    @Param({"1024"})
    int doubles;

    /** tcp: ranks in different processes; memory: ranks in one JVM. */
    @Param({"tcp", "memory"})
    String transport;

    private DataPlane a;
    private DataPlane b;
    private Mailbox boxA;
    private Mailbox boxB;
    private Thread echo;
    private volatile boolean running;
    private double[] payload;
    private int sequence;

    @Setup(Level.Trial)
    public void start() throws IOException {
        String cluster = "memory".equals(transport) ? "bench-" + System.nanoTime() : null;
        boxA = new Mailbox();
        boxB = new Mailbox();
        DataPlane[] planes = new DataPlane[2];
        a = new DataPlane(cluster, 0, boxA, r -> r == 1 ? address(planes[1]) : null);
        b = new DataPlane(cluster, 1, boxB, r -> r == 0 ? address(planes[0]) : null);
        planes[0] = a;
        planes[1] = b;
        payload = new double[doubles];
        running = true;
        echo = new Thread(() -> {
            int n = 0;
            while (running) {
                try {
                    double[] got = boxB.take(new MessageKey(0, MessageKind.HALO, n, 0, 1), 1_000);
                    b.send(0, new MessageKey(0, MessageKind.HALO, n, 1, 0), got);
                    n++;
                } catch (RuntimeException e) {
                    // timeout while stopping
                }
            }
        }, "bench-echo");
        echo.setDaemon(true);
        echo.start();
    }

    private static InetSocketAddress address(DataPlane plane) {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), plane.port());
    }

    @Benchmark
    public double[] roundTrip() {
        int n = sequence++;
        a.send(1, new MessageKey(0, MessageKind.HALO, n, 0, 1), payload.clone());
        return boxA.take(new MessageKey(0, MessageKind.HALO, n, 1, 0), 5_000);
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        running = false;
        echo.join(2_000);
        a.close();
        b.close();
    }
}
