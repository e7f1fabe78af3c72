import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.HazelcastConfigs;

/** How long 8 rank JVMs take from "go" to a formed cluster, cold or after warm-up members (a pool's gain); see pool-probe.sh. */
public class PoolProbe {
    public static void main(String[] a) throws Exception {
        int rank = Integer.parseInt(a[0]);
        int members = Integer.parseInt(a[1]);
        Path dir = Path.of(a[2]);
        int warmups = Integer.parseInt(a[3]);
        String cluster = a[4];
        int base = Integer.parseInt(a[5]);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int i = 0; i < warmups; i++) {
            ClusterSettings s = new ClusterSettings().clusterName("warm-" + ProcessHandle.current().pid() + "-" + i)
                    .basePort(base + 100 + rank * 20 + i * 5);
            HazelcastInstance hz = Hazelcast.newHazelcastInstance(HazelcastConfigs.member(s, 0, 0, 1));
            hz.getMap("m").put("k", "v");
            hz.getLifecycleService().shutdown();
        }
        long before = os.getProcessCpuTime();
        Files.createFile(dir.resolve("ready-" + rank));
        while (!Files.exists(dir.resolve("go"))) {
            Thread.sleep(1);
        }
        long t0 = System.nanoTime();
        long c0 = os.getProcessCpuTime();
        ClusterSettings s = new ClusterSettings().clusterName(cluster).basePort(base);
        if (rank != 0) {
            while (!Files.exists(dir.resolve("founder-up"))) {
                Thread.sleep(1);
            }
        }
        HazelcastInstance hz = null;
        if (rank == 0) {
            Thread t = new Thread(() -> {
                try {
                    Thread.sleep(50);
                    Files.createFile(dir.resolve("founder-up"));
                } catch (Exception e) {
                }
            });
            t.start();
        }
        if (rank > 0) Thread.sleep((rank - 1) * Long.getLong("stagger", 0));
        long tf = (System.nanoTime() - t0) / 1_000_000;
        com.hazelcast.config.Config cfg = HazelcastConfigs.member(s, rank, 0, members);
        cfg.setProperty("hazelcast.wait.seconds.before.join", System.getProperty("wsbj", "0"));
        if (rank == 0) {
            cfg.addListenerConfig(new com.hazelcast.config.ListenerConfig(new com.hazelcast.cluster.MembershipListener() {
                public void memberAdded(com.hazelcast.cluster.MembershipEvent e) {
                    System.out.println("  +member at " + (System.nanoTime() - t0) / 1_000_000 + " ms: size " + e.getMembers().size());
                }
                public void memberRemoved(com.hazelcast.cluster.MembershipEvent e) { }
            }));
        }
        hz = Hazelcast.newHazelcastInstance(cfg);
        long tj = (System.nanoTime() - t0) / 1_000_000;
        if (rank == 0) System.out.println("  wsbj=" + cfg.getProperty("hazelcast.wait.seconds.before.join") + " sys=" + System.getProperty("wsbj"));
        while (hz.getCluster().getMembers().size() < members) {
            Thread.sleep(1);
        }
        long wall = (System.nanoTime() - t0) / 1_000_000;
        long cpu = (os.getProcessCpuTime() - c0) / 1_000_000;
        System.out.println("rank " + rank + " warmups " + warmups + " formed " + wall + " ms, cpu " + cpu
                + " ms since go, cpu before go " + before / 1_000_000 + " ms; founder seen " + tf + " instance returned " + tj);
        Files.createFile(dir.resolve("formed-" + rank));
        while (!Files.exists(dir.resolve("done"))) {
            Thread.sleep(5);
        }
        hz.getLifecycleService().terminate();
        System.exit(0);
    }
}
