package org.dfr.cli.pool;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.dfr.cli.options.PoolDirectoryOption;
import org.dfr.harness.ProcessLauncher;
import org.dfr.harness.RankJvmPool;
import org.dfr.runtime.ClusterSettings;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code dfr pool start}: starts warm rank JVMs up to the pool's size and waits until they are ready. A pool started
 * otherwise (another heap, other JVM options, another build) is stopped first: its JVMs could serve no run of this one.
 */
@Command(name = "start", mixinStandardHelpOptions = true,
        description = {"Start warm rank JVMs (up to --size) that `dfr run --mode processes --pool` claims, one per rank;"
                + " each serves one run and then exits, and `dfr run --pool` starts new ones for the next run.",
                "Start it with the DFR_JAVA_OPTS the runs will have: a run uses the pool only when its rank JVMs"
                        + " would be started exactly as the pool's were (it says why not otherwise)."})
public final class PoolStartCommand implements Callable<Integer> {

    /** How long the JVMs may take to be ready: 8 of them warm up in 10-20 s on 2 cores. */
    static final long READY_TIMEOUT_MILLIS = 180_000;
    static final int MAX_SIZE = 256;
    static final long MAX_HEAP_MIB = 1L << 20;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    PoolDirectoryOption directory;

    @Option(names = "--size", paramLabel = "N", defaultValue = "8",
            description = "How many JVMs the pool keeps ready: the ranks of the runs, spares included (default:"
                    + " ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--heap-mib", paramLabel = "MIB", defaultValue = "1024",
            description = "Each JVM's heap (-Xmx); a run whose ranks need more starts fresh JVMs (default:"
                    + " ${DEFAULT-VALUE}; a 2x4 rank of 4096x4096 needs 449).")
    long heapMib;

    @Option(names = "--idle-minutes", paramLabel = "N", defaultValue = "60",
            description = "A JVM not claimed within N minutes exits (default: ${DEFAULT-VALUE}).")
    long idleMinutes;

    @Override
    public Integer call() throws InterruptedException {
        CommandLine cl = spec.commandLine();
        if (size < 1 || size > MAX_SIZE) {
            throw new CommandLine.ParameterException(cl, "--size " + size + " is not allowed: 1.." + MAX_SIZE);
        }
        if (heapMib < ProcessLauncher.MIN_HEAP_MIB || heapMib > MAX_HEAP_MIB) {
            throw new CommandLine.ParameterException(cl, "--heap-mib " + heapMib + " is not allowed: "
                    + ProcessLauncher.MIN_HEAP_MIB + ".." + MAX_HEAP_MIB);
        }
        if (idleMinutes < 1 || idleMinutes > TimeUnit.DAYS.toMinutes(365)) {
            throw new CommandLine.ParameterException(cl, "--idle-minutes " + idleMinutes + " is not allowed: 1.."
                    + TimeUnit.DAYS.toMinutes(365));
        }
        RankJvmPool pool = directory.pool(cl);
        PrintWriter out = cl.getOut();
        List<String> command = new ProcessLauncher(new ClusterSettings()).pooledJvmCommand(heapMib);
        if (!pool.startedWith(command, heapMib)) {
            int stopped = pool.stop();
            if (stopped > 0) {
                out.println("stopped " + stopped + " JVMs of the pool started before with other options");
            }
        }
        int missing = Math.max(0, size - pool.unclaimed().size());
        long startedAt = System.nanoTime();
        List<ProcessHandle> started = pool.start(command, heapMib, size, missing,
                TimeUnit.MINUTES.toSeconds(idleMinutes));
        out.println("starting " + missing + " warm rank JVMs in " + pool.directory() + " (heap " + heapMib
                + " MiB each; " + (size - missing) + " already there)");
        out.flush();
        boolean ready = pool.awaitReady(size, started, READY_TIMEOUT_MILLIS, n -> {
            if (missing > 0) {
                out.println("  " + n + " of " + size + " ready");
                out.flush();
            }
        });
        double seconds = (System.nanoTime() - startedAt) / 1e9;
        if (!ready) {
            cl.getErr().println("dfr pool start: only " + pool.readyPids().size() + " of " + size + " JVMs were ready"
                    + String.format(" after %.1f s; their log: %s", seconds,
                    pool.directory().resolve("pool.log")) + lastLogLine(pool));
            return 1;
        }
        out.printf("pool ready: %d rank JVMs in %.1f s. `dfr run --mode processes --pool` claims them; each serves"
                + " one run; unclaimed ones exit after %d minutes; `dfr pool stop` ends them.%n", size, seconds,
                idleMinutes);
        return 0;
    }

    private static String lastLogLine(RankJvmPool pool) {
        try {
            List<String> lines = Files.readAllLines(pool.directory().resolve("pool.log"));
            return lines.isEmpty() ? "" : " (last line: " + lines.get(lines.size() - 1) + ")";
        } catch (IOException e) {
            return "";
        }
    }
}
