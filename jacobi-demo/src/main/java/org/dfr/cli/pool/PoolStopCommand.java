package org.dfr.cli.pool;

import java.util.concurrent.Callable;
import org.dfr.cli.options.PoolDirectoryOption;
import org.dfr.harness.RankJvmPool;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code dfr pool stop}: ends the pool's unclaimed JVMs (the claimed ones belong to their runs). */
@Command(name = "stop", mixinStandardHelpOptions = true,
        description = "Stop the pool's warm rank JVMs (the ones a run claimed end with their run).")
public final class PoolStopCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    PoolDirectoryOption directory;

    @Override
    public Integer call() throws InterruptedException {
        RankJvmPool pool = directory.pool(spec.commandLine());
        int stopped = pool.stop();
        spec.commandLine().getOut().println("stopped " + stopped + " pooled rank JVM" + (stopped == 1 ? "" : "s")
                + " in " + pool.directory());
        return 0;
    }
}
