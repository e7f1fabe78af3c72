package org.dfr.cli.pool;

import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.dfr.cli.options.PoolDirectoryOption;
import org.dfr.harness.RankJvmPool;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code dfr pool status}: how many warm rank JVMs wait, and how they were started. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show how many warm rank JVMs the pool has ready and warming up.")
public final class PoolStatusCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    PoolDirectoryOption directory;

    @Override
    public Integer call() {
        RankJvmPool pool = directory.pool(spec.commandLine());
        PrintWriter out = spec.commandLine().getOut();
        Optional<RankJvmPool.Manifest> manifest = pool.manifest();
        if (manifest.isEmpty()) {
            out.println("no rank JVM pool in " + pool.directory() + " (dfr pool start makes one)");
            return 0;
        }
        List<Long> ready = pool.readyPids();
        int unclaimed = pool.unclaimed().size();
        out.println("rank JVM pool in " + pool.directory() + ": " + ready.size() + " ready, "
                + Math.max(0, unclaimed - ready.size()) + " warming up, of " + manifest.get().size() + " kept; heap "
                + manifest.get().heapMib() + " MiB each");
        if (!ready.isEmpty()) {
            out.println("ready: pids " + ready);
        }
        return 0;
    }
}
