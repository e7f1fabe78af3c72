package org.dfr.bench;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.dfr.runtime.CheckpointStore;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.HazelcastConfigs;
import org.dfr.runtime.PromotionRetry;
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
 * One rank's checkpoint replicated to two other members, by the two paths issue 13 asks to compare:
 * <ul>
 *   <li>{@code imap}: dfr's path, {@link CheckpointStore} (local copy, then {@code IMap.set} of the encoded
 *       state with its primary on this member and two synchronous backups), three in-JVM Hazelcast members
 *       over loopback TCP;</li>
 *   <li>{@code dataplane}: a local copy, then the raw doubles to two buddies over the data plane (loopback
 *       TCP, as between rank processes), each of which keeps the copy and acknowledges it; not built into
 *       the runtime.</li>
 * </ul>
 * The score is the time from the local copy until both remote copies are in place: what a commit waits
 * for. {@code megabytes} is the state of one rank: 16 is a 4096x4096 grid on 2x4 ranks.
 *
 * <p>{@code java -jar benchmarks/target/benchmarks.jar ReplicationPath -f 1 -wi 3 -i 5}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms3g", "-Xmx3g", "-XX:+UseParallelGC"})
public class ReplicationPathBenchmark {

    private static final long TIMEOUT_MILLIS = 30_000;

    @Param({"1", "16"})
    int megabytes;

    @Param({"imap", "dataplane"})
    String path;

    private double[] state;
    private int iteration;

    private final List<HazelcastInstance> members = new ArrayList<>();
    private CheckpointStore store;

    private final List<DataPlane> planes = new ArrayList<>();
    private final List<Thread> buddies = new ArrayList<>();
    private Mailbox senderBox;
    private double[] localCopy;
    private volatile boolean running;

    @Setup(Level.Trial)
    public void start() throws IOException {
        state = new double[megabytes * (1 << 20) / Double.BYTES];
        for (int k = 0; k < state.length; k++) {
            state[k] = Math.sin(k);
        }
        if ("imap".equals(path)) {
            startMembers();
        } else {
            startPlanes();
        }
    }

    private void startMembers() {
        ClusterSettings settings = new ClusterSettings().clusterName("bench-" + UUID.randomUUID())
                .basePort(HazelcastConfigs.freeBasePort(6));
        for (int r = 0; r < 3; r++) {
            members.add(Hazelcast.newHazelcastInstance(HazelcastConfigs.member(settings, r, 0, 3)));
        }
        HazelcastInstance self = members.get(0);
        String localKey = keyOwnedBy(self);
        store = new CheckpointStore(self.getMap(HazelcastConfigs.CHECKPOINT_MAP), new PromotionRetry(self, TIMEOUT_MILLIS),
                () -> localKey);
    }

    /** A partition key whose Hazelcast partition the member owns, as a rank keeps its primary copies. */
    private static String keyOwnedBy(HazelcastInstance member) {
        for (int k = 0; ; k++) {
            String key = "k" + k;
            if (member.getPartitionService().getPartition(key).getOwner().localMember()) {
                return key;
            }
        }
    }

    private void startPlanes() throws IOException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        int[] ports = new int[3];
        List<Mailbox> boxes = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            Mailbox box = new Mailbox();
            // no cluster name: always a socket, as between rank processes
            DataPlane plane = new DataPlane(r, box, rank -> new InetSocketAddress(loopback, ports[rank]));
            ports[r] = plane.port();
            boxes.add(box);
            planes.add(plane);
        }
        senderBox = boxes.get(0);
        localCopy = new double[state.length];
        running = true;
        for (int r = 1; r < 3; r++) {
            int buddy = r;
            Thread t = new Thread(() -> keepCopies(buddy, boxes.get(buddy)), "bench-buddy" + buddy);
            t.setDaemon(true);
            t.start();
            buddies.add(t);
        }
    }

    /** A buddy: keeps the newest copy it received (the older one is garbage) and acknowledges it. */
    private void keepCopies(int buddy, Mailbox box) {
        double[] kept = null;
        for (int n = 1; running; n++) {
            try {
                kept = box.take(new MessageKey(0, MessageKind.HALO, n, 0, buddy), TIMEOUT_MILLIS);
                planes.get(buddy).send(0, new MessageKey(0, MessageKind.REDUCED, n, buddy, 0), new double[] {kept.length});
            } catch (RuntimeException e) {
                return; // stopping
            }
        }
    }

    @Benchmark
    public int replicate() {
        int i = ++iteration;
        state[0] = i; // a changed state: an unchanged one is not sent again
        if (store != null) {
            store.writeLocal(i, 0, state);
            store.replicate(i, 0);
            store.dropOlderThan(i, new int[] {0});
            return i;
        }
        System.arraycopy(state, 0, localCopy, 0, state.length);
        for (int buddy = 1; buddy < 3; buddy++) {
            planes.get(0).send(buddy, new MessageKey(0, MessageKind.HALO, i, 0, buddy), localCopy);
        }
        for (int buddy = 1; buddy < 3; buddy++) {
            senderBox.take(new MessageKey(0, MessageKind.REDUCED, i, buddy, 0), TIMEOUT_MILLIS);
        }
        return i;
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        running = false;
        planes.forEach(DataPlane::close);
        for (Thread t : buddies) {
            t.join(2_000);
        }
        members.forEach(m -> m.getLifecycleService().terminate());
    }
}
