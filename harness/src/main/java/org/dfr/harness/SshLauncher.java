package org.dfr.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.HazelcastConfigs;
import org.dfr.runtime.RunFailedException;

/**
 * Starts a processes-mode run on several machines over ssh: one {@code ssh HOST java ... dfr rank} per rank,
 * host of rank {@code r} = {@code hosts[r / ranksPerHost]}. The run's configuration, the rank logs and the
 * report go to a directory that must be visible under the same path on every host (a shared file system),
 * as must the dfr jar and kernel jars (this JVM's class path).
 *
 * <p>Each rank is started with {@code --exit-when-stdin-closes}: ssh closes the remote command's stdin when
 * the ssh client ends, so a SIGKILLed launcher takes its ranks down with it, as in local processes mode.
 */
public final class SshLauncher {

    /** Hazelcast's own default port: the base port on hosts this machine cannot probe. */
    public static final int DEFAULT_REMOTE_BASE_PORT = 5701;

    /** How long ranks may take to leave once the report is written. */
    public static final long EXIT_GRACE_MILLIS = 10_000;

    private static final long POLL_MILLIS = 20;

    private final List<String> sshCommand;
    private final String remoteJava;
    private final Path sharedDirectory;
    private final Consumer<String> progress;

    /**
     * @param sshCommand      the ssh client and its options, e.g. {@code [ssh, -o, BatchMode=yes]}; the host and
     *                        the remote command (one shell-quoted string) are appended
     * @param remoteJava      the java command on the hosts
     * @param sharedDirectory where the configuration, logs and report go (same path on every host)
     * @param progress        receives one line per step
     */
    public SshLauncher(List<String> sshCommand, String remoteJava, Path sharedDirectory, Consumer<String> progress) {
        if (sshCommand.isEmpty()) {
            throw new IllegalArgumentException("the ssh command is empty");
        }
        this.sshCommand = List.copyOf(sshCommand);
        this.remoteJava = Objects.requireNonNull(remoteJava);
        this.sharedDirectory = sharedDirectory.toAbsolutePath().normalize();
        this.progress = progress;
    }

    /**
     * Runs {@code config} (processes mode) on the hosts named by {@code settings.hostAddresses()}.
     *
     * @return the report the collecting rank wrote
     * @throws RunFailedException when no report appears (the message names the ranks' logs)
     */
    public RunReport run(RunConfig config, ClusterSettings settings) {
        RunConfig processes = config.withMode(Mode.PROCESSES);
        int hosts = processes.runSpec().hostCount();
        if (settings.hostAddresses().size() != hosts) {
            throw new IllegalArgumentException("--hosts names " + settings.hostAddresses().size() + " hosts but the run has "
                    + hosts + " (ranks / --ranks-per-host)");
        }
        try {
            Files.createDirectories(sharedDirectory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + sharedDirectory + ": " + e.getMessage(), e);
        }
        List<String> addresses = IntStream.range(0, hosts).mapToObj(settings::addressOfHost).distinct().toList();
        int members = processes.runSpec().memberCount();
        int port = settings.basePort() > 0 ? settings.basePort()
                : addresses.stream().allMatch(SshLauncher::isLocal) ? HazelcastConfigs.freeBasePort(HazelcastConfigs.portCount(members), addresses)
                : DEFAULT_REMOTE_BASE_PORT;
        Path configFile = sharedDirectory.resolve("run.json");
        Path report = sharedDirectory.resolve("report.json");
        try {
            Files.deleteIfExists(report);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        RankProcessConfig.of(processes, settings, port, ProcessLauncher.collectTimeoutMillis(processes), -1)
                .write(configFile);
        progress.accept("ssh: " + members + " ranks on " + String.join(", ", settings.hostAddresses()) + ", base port "
                + port + ", files in " + sharedDirectory);

        long timeoutMillis = ProcessLauncher.derivedTimeoutMillis(processes) + settings.joinTimeoutMillis();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        List<Process> ranks = new ArrayList<>();
        try {
            for (int r = 0; r < members; r++) {
                ranks.add(start(processes, settings, configFile, r, report));
                if (r == 0) {
                    // the seed first: members started together each found a cluster of their own and merge late
                    awaitMemberUp(ranks.get(0), log(0), settings.joinTimeoutMillis());
                }
            }
            awaitEnd(ranks, report, deadline, timeoutMillis);
        } catch (IOException e) {
            throw new RunFailedException(RunFailedException.Kind.OTHER, "cannot start " + sshCommand.get(0) + ": "
                    + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailedException(RunFailedException.Kind.OTHER, "interrupted while the ranks ran");
        } finally {
            // closing stdin ends every remote rank still running (--exit-when-stdin-closes)
            ranks.forEach(Process::destroyForcibly);
        }
        if (!Files.isRegularFile(report)) {
            throw new RunFailedException(RunFailedException.Kind.OTHER, "no rank wrote the report " + report
                    + "; the ranks' output is in " + sharedDirectory.resolve("rank-*.log"));
        }
        RunReport read = RunReports.read(report);
        return read.withProvenance(read.provenance().withLauncherCommandLine());
    }

    private Process start(RunConfig config, ClusterSettings settings, Path configFile, int rank, Path report)
            throws IOException {
        List<String> cmd = new ArrayList<>(sshCommand);
        cmd.add(settings.hostAddresses().get(config.runSpec().hostOf(rank)));
        cmd.add(remoteCommand(config, configFile, rank, report));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log(rank).toFile()).start();
    }

    private Path log(int rank) {
        return sharedDirectory.resolve("rank-" + rank + ".log");
    }

    private void awaitMemberUp(Process seed, Path log, long timeoutMillis) throws IOException, InterruptedException {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!Files.readString(log).contains(RankProcessMain.MEMBER_UP_LINE)) {
            if (!seed.isAlive()) {
                throw new RunFailedException(RunFailedException.Kind.OTHER, "rank 0 ended (exit code "
                        + seed.exitValue() + ") before its member was up; its output: " + tail(log));
            }
            if (System.nanoTime() > until) {
                throw new RunFailedException(RunFailedException.Kind.TIMEOUT, "rank 0's member was not up within "
                        + timeoutMillis + " ms; its output: " + tail(log));
            }
            seed.waitFor(POLL_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Waits until every rank has exited, or the report is written and {@link #EXIT_GRACE_MILLIS} passed
     * (ranks that wait for a collector that is gone would otherwise hold the run up to their own timeout).
     */
    private void awaitEnd(List<Process> ranks, Path report, long deadline, long timeoutMillis)
            throws InterruptedException {
        long graceEnd = Long.MAX_VALUE;
        while (ranks.stream().anyMatch(Process::isAlive)) {
            long now = System.nanoTime();
            if (now > graceEnd) {
                progress.accept("ssh: the report is written; ending the ranks still running");
                return;
            }
            if (now > deadline) {
                throw new RunFailedException(RunFailedException.Kind.TIMEOUT, "the ranks did not finish within "
                        + timeoutMillis + " ms; their output is in " + sharedDirectory.resolve("rank-*.log"));
            }
            if (graceEnd == Long.MAX_VALUE && Files.isRegularFile(report)) {
                graceEnd = now + TimeUnit.MILLISECONDS.toNanos(EXIT_GRACE_MILLIS);
            }
            Thread.sleep(POLL_MILLIS); // polling processes on other hosts: no event to wait on
        }
    }

    private static String tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log);
        return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    }

    /** The command ssh runs on the host, as one string its login shell splits. */
    String remoteCommand(RunConfig config, Path configFile, int rank, Path report) {
        List<String> words = new ArrayList<>();
        words.add(remoteJava);
        words.add("-Xmx" + ProcessLauncher.heapMib(config) + "m");
        words.add("-XX:+UseParallelGC");
        words.add("-XX:+ExitOnOutOfMemoryError");
        words.add("-Djava.net.preferIPv4Stack=true");
        words.add("-Dhazelcast.logging.type=slf4j");
        words.addAll(ProcessLauncher.HAZELCAST_MODULE_ACCESS);
        words.addAll(ProcessLauncher.VECTOR_MODULE_ACCESS);
        words.add("-cp");
        words.add(ProcessLauncher.classPath(config.kernelJars()));
        words.add(RankProcessMain.class.getName());
        words.addAll(List.of("--config", configFile.toString(), "--rank", Integer.toString(rank), "--result",
                report.toString(), RankProcessMain.EXIT_WHEN_STDIN_CLOSES));
        return String.join(" ", words.stream().map(SshLauncher::quote).toList());
    }

    /** POSIX shell single quotes, unless the word needs none. */
    static String quote(String word) {
        if (word.matches("[A-Za-z0-9_./:=,@%+-]+")) {
            return word;
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }

    private static boolean isLocal(String address) {
        try {
            InetAddress a = InetAddress.getByName(address);
            return a.isLoopbackAddress() || NetworkInterface.getByInetAddress(a) != null;
        } catch (UnknownHostException | SocketException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "SshLauncher[%s, %s]", String.join(" ", sshCommand), sharedDirectory);
    }
}
