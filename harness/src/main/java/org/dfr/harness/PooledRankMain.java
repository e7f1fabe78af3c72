package org.dfr.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.dfr.power.AtomicFiles;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Entry point of a pooled rank JVM ({@link RankJvmPool}): it warms up (starts and stops solo Hazelcast members, so
 * that the classes a member needs are loaded and its start-up code compiled), announces itself with a file in the
 * pool's directory, and waits for one claim. A claim makes it {@link RankProcessMain} of one run, its output and
 * input on the claim's connection; it exits when that rank ends, so no state of one run outlives it. Unclaimed, it
 * exits after {@code --idle-minutes}.
 */
@Command(name = "pooled-rank", mixinStandardHelpOptions = true,
        description = "A warm rank JVM of a dfr pool (started by `dfr pool start`, claimed by `dfr run`).")
public final class PooledRankMain implements Callable<Integer> {

    /**
     * System property: how many warm-up runs a pooled JVM makes before it offers itself ({@value #DEFAULT_WARM_UP_RUNS}
     * by default; a second one costs a fraction of the first and still shortened a claimed rank's start-up).
     */
    public static final String WARM_UP_RUNS_PROPERTY = "dfr.poolWarmUpRuns";
    static final int DEFAULT_WARM_UP_RUNS = 2;
    /** Ranks of each: a join, migrations and halo exchange to warm up too. */
    static final int WARM_UP_RANKS = 2;
    /** How long a claimant has to send its token and claim once connected. */
    static final int CLAIM_READ_TIMEOUT_MILLIS = 5_000;
    /** A claim line longer than this is not one. */
    static final int MAX_CLAIM_BYTES = 1 << 20;

    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "the pool's directory")
    Path dir;

    @Option(names = "--idle-seconds", paramLabel = "S", defaultValue = "3600",
            description = "exit when not claimed within S seconds (default: ${DEFAULT-VALUE})")
    long idleSeconds;

    public static void main(String[] args) {
        StoppedMemberThreads.install();
        System.exit(new CommandLine(new PooledRankMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        long pid = ProcessHandle.current().pid();
        Path warming = RankJvmPool.warmingFile(dir, pid);
        Files.createDirectories(dir);
        Files.writeString(warming, "");
        // an earlier JVM of this pid ran out of memory after the launcher stopped looking: its file is not this one's
        Files.deleteIfExists(RankJvmPool.outOfMemoryFile(dir, pid));
        String token = newToken();
        Path slotFile = RankJvmPool.slotFile(dir, pid);
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            warmUp();
            server.setSoTimeout((int) Math.min(Integer.MAX_VALUE, TimeUnit.SECONDS.toMillis(idleSeconds)));
            AtomicFiles.write(slotFile, tmp -> RunReports.JSON.writeValue(tmp.toFile(),
                    new PoolSlot(pid, server.getLocalPort(), token)), AtomicFiles.PRIVATE_MODE);
            // after the slot's file: `dfr pool stop` finds an unclaimed JVM by one of them at every moment
            Files.deleteIfExists(warming);
            System.out.println("pooled rank JVM " + pid + " ready on port " + server.getLocalPort() + " after "
                    + ProcessHandle.current().info().totalCpuDuration().map(d -> d.toMillis() + " ms of CPU")
                    .orElse("its warm-up"));
            while (true) {
                Socket socket;
                try {
                    socket = server.accept();
                } catch (SocketTimeoutException idle) {
                    System.out.println("pooled rank JVM " + pid + ": not claimed within " + idleSeconds
                            + " s; exiting");
                    Files.deleteIfExists(slotFile);
                    return 0;
                }
                PoolClaim claim = readClaim(socket, token);
                if (claim == null) {
                    socket.close();
                    continue; // not a claim of this pool's: wait for the next
                }
                Files.deleteIfExists(slotFile);
                server.close();
                // the claimant counts on this JVM only now: a second claimant's connection, queued while this one
                // was read, ends without it
                socket.getOutputStream().write(RankJvmPool.CLAIMED_LINE.getBytes(StandardCharsets.UTF_8));
                return runRank(socket, claim);
            }
        } finally {
            Files.deleteIfExists(slotFile);
            Files.deleteIfExists(warming);
        }
    }

    private static String newToken() {
        byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** The claim sent on {@code socket}, or null when it does not start with the token or cannot be read. */
    private static PoolClaim readClaim(Socket socket, String token) {
        try {
            socket.setSoTimeout(CLAIM_READ_TIMEOUT_MILLIS);
            InputStream in = socket.getInputStream();
            if (!token.equals(RankJvmPool.readLine(in, MAX_CLAIM_BYTES))) {
                return null;
            }
            String line = RankJvmPool.readLine(in, MAX_CLAIM_BYTES);
            if (line == null) {
                return null;
            }
            PoolClaim claim = RunReports.JSON.readValue(line, PoolClaim.class);
            socket.setSoTimeout(0);
            return claim;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Runs the claimed rank with stdout, stderr and stdin on the connection (as a fresh rank process has them on its
     * pipes), writes its exit code where the claim says, and exits with it.
     */
    private static int runRank(Socket socket, PoolClaim claim) throws IOException {
        PrintStream out = new PrintStream(socket.getOutputStream(), true, StandardCharsets.UTF_8);
        System.setOut(out);
        System.setErr(out);
        System.setIn(socket.getInputStream());
        System.setProperty(ProcessLauncher.RANK_PROPERTY, Integer.toString(claim.rank()));
        System.setProperty(RankProcessMain.STACK_TRACE_PROPERTY, Boolean.toString(claim.stackTraces()));
        RankProcessMain.startUpFromNow();
        int code = new CommandLine(new RankProcessMain()).execute(claim.arguments().toArray(String[]::new));
        AtomicFiles.writeString(Path.of(claim.exitFile()), code + "\n");
        out.flush();
        return code;
    }

    /**
     * Runs small embedded runs in this JVM (their ranks are members on free loopback ports): what a claimed rank runs
     * (a member's start-up and join, partition migrations, the data plane, checkpoints, the kernel) is loaded and
     * compiled by then. A failed one only leaves the JVM less warm.
     */
    private static void warmUp() {
        for (int i = 0; i < Integer.getInteger(WARM_UP_RUNS_PROPERTY, DEFAULT_WARM_UP_RUNS); i++) {
            try {
                new Runner().run(RunConfig.of(1, WARM_UP_RANKS, 64, 64, 30, 5));
            } catch (RuntimeException e) {
                System.out.println("pooled rank JVM " + ProcessHandle.current().pid() + ": warm-up run " + (i + 1)
                        + " failed (" + e + "); going on");
            }
        }
    }
}
