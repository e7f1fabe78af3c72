package org.dfr.cli;

import org.dfr.cli.power.PowerCapCommand;
import org.dfr.cli.power.PowerRestoreCommand;
import org.dfr.cli.power.PowerSampleCommand;
import org.dfr.cli.power.PowerStatusCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code dfr power}: frequency capping and power measurement on this machine. */
@Command(name = "power", mixinStandardHelpOptions = true,
        description = "CPU frequency capping and power measurement on this machine.",
        subcommands = {
                PowerStatusCommand.class,
                PowerCapCommand.class,
                PowerRestoreCommand.class,
                PowerSampleCommand.class
        })
public final class PowerCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "Missing subcommand: one of status, cap, restore, sample");
    }
}
