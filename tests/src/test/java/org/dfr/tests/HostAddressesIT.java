package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.dfr.harness.Campaign;
import org.dfr.harness.Mode;
import org.dfr.harness.ProcessLauncher;
import org.dfr.harness.RankProcessListener;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.recovery.FaultPlan;
import org.dfr.runtime.ClusterSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * One loopback address per simulated host, as on a real cluster: host h's ranks bind 127.0.0.(2+h)
 * only (Hazelcast and the data plane), and a rank death (4 ranks on two hosts) and a host failure (8 on four,
 * thorough) recover bit-exactly.
 * While the cluster runs, every listening socket of every rank process is read from /proc and must
 * be on its host's address.
 */
@Isolated // starts rank processes
class HostAddressesIT {

    private static final List<String> HOSTS = List.of("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5");

    @Test
    void when_everyHostHasItsOwnAddress_then_aDeathIsRecoveredAndRanksBindOnlyTheirHostsAddress() {
        // 4 rank JVMs on two hosts (8 on four took 8 s more of a verify near its budget); kill 0 at 3 (m = 2): the
        // cone {0}, then {0, 1}
        RunConfig config = RunConfig.of(1, 4, 64, 64, 10, 10).withMode(Mode.PROCESSES)
                .withFaults(List.of(new FaultPlan.Kill(0, 3, FaultPlan.Point.ITERATION_START)), List.of(), Set.of());
        Map<Integer, List<String>> listening = new ConcurrentHashMap<>();

        RunReport report = launch(config, listening);

        assertThat(report.fieldSha256()).isEqualTo(Campaign.referenceDigest(config));
        assertThat(report.recoveries()).singleElement()
                .satisfies(r -> assertThat(r.recomputedPartitionIterations()).isEqualTo(3));
        assertThat(listening).as("listening sockets per rank").hasSize(4);
        listening.forEach((rank, sockets) -> assertThat(sockets).as("rank %d", rank).isNotEmpty()
                .allSatisfy(s -> assertThat(s).startsWith(HOSTS.get(rank / 2) + ":")));
    }

    @Test
    @Thorough
    void when_aWholeHostFails_then_theRunRecoversBitExactly() {
        RunConfig config = RunConfig.of(2, 4, 64, 64, 10, 4).withMode(Mode.PROCESSES)
                .withFaults(List.of(), List.of(new FaultPlan.Kill(2, 6, FaultPlan.Point.ITERATION_START)), Set.of());

        RunReport report = launch(config, new ConcurrentHashMap<>());

        assertThat(report.fieldSha256()).isEqualTo(Campaign.referenceDigest(config));
        assertThat(report.recoveries()).singleElement()
                .satisfies(r -> assertThat(r.lostPartitions()).containsExactly(4, 5));
    }

    private static RunReport launch(RunConfig config, Map<Integer, List<String>> listening) {
        Map<Integer, ProcessHandle> ranks = new ConcurrentHashMap<>();
        return new ProcessLauncher(new ClusterSettings().hostAddresses(HOSTS))
                .jvmOptions(List.of("-XX:TieredStopAtLevel=1")).runTimeoutMillis(150_000)
                .listener(new RankProcessListener() {
                    @Override
                    public void started(int rank, ProcessHandle process) {
                        ranks.put(rank, process);
                    }

                    @Override
                    public void clusterFormed(int members, long millis) {
                        ranks.forEach((rank, p) -> listening.put(rank, listeningSockets(p.pid())));
                    }
                })
                .run(config);
    }

    /** The {@code a.b.c.d:port} of every IPv4 TCP socket process {@code pid} listens on (from /proc). */
    static List<String> listeningSockets(long pid) {
        Map<String, String> listeningByInode = new HashMap<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "net", "tcp"))) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && "0A".equals(f[3])) {
                    listeningByInode.put(f[9], address(f[1]));
                }
            }
            List<String> out = new ArrayList<>();
            try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
                for (Path fd : fds) {
                    String target;
                    try {
                        target = Files.readSymbolicLink(fd).toString();
                    } catch (IOException gone) {
                        continue;
                    }
                    if (target.startsWith("socket:[")) {
                        String inode = target.substring(8, target.length() - 1);
                        if (listeningByInode.containsKey(inode)) {
                            out.add(listeningByInode.get(inode));
                        }
                    }
                }
            }
            return out;
        } catch (IOException e) {
            return List.of("unreadable: " + e.getMessage());
        }
    }

    /** {@code 0200007F:1F90} (little-endian IPv4, hex port) as {@code 127.0.0.2:8080}. */
    private static String address(String hex) {
        String[] parts = hex.split(":");
        long ip = Long.parseLong(parts[0], 16);
        return (ip & 0xff) + "." + ((ip >> 8) & 0xff) + "." + ((ip >> 16) & 0xff) + "." + ((ip >> 24) & 0xff) + ":"
                + Integer.parseInt(parts[1], 16);
    }
}
