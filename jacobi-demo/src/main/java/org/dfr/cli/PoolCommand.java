package org.dfr.cli;

import org.dfr.cli.pool.PoolStartCommand;
import org.dfr.cli.pool.PoolStatusCommand;
import org.dfr.cli.pool.PoolStopCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code dfr pool}: warm rank JVMs kept ahead of processes-mode runs. */
@Command(name = "pool", mixinStandardHelpOptions = true,
        description = {"A pool of warm rank JVMs on this machine: `dfr run --mode processes --pool` claims one per rank"
                + " instead of starting it, and starts in a few seconds instead of 10-20 (docs/cluster.md, \"Rank JVM"
                + " pool\")."},
        subcommands = {
                PoolStartCommand.class,
                PoolStatusCommand.class,
                PoolStopCommand.class
        })
public final class PoolCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing subcommand: one of start, status, stop");
    }
}
