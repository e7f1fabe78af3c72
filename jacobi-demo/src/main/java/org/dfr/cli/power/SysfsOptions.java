package org.dfr.cli.power;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dfr.power.sysfs.Sysfs;
import org.dfr.power.sysfs.SysfsRoot;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** The options every {@code power} subcommand shares: where sysfs is. */
public final class SysfsOptions {

    @Option(names = "--sysfs-root", paramLabel = "DIR", defaultValue = "/",
            description = "Root of the sysfs tree (default: ${DEFAULT-VALUE}); point it at a fake tree to try things out.")
    Path sysfsRoot;

    /** @return the root, after checking it is a directory */
    SysfsRoot root(CommandLine commandLine) {
        if (!Files.isDirectory(sysfsRoot)) {
            throw new CommandLine.ParameterException(commandLine,
                    "--sysfs-root " + sysfsRoot + ": not a directory (give the directory that holds sys/)");
        }
        if (!Files.isDirectory(sysfsRoot.resolve("sys")) && Files.isDirectory(sysfsRoot.resolve("host0"))) {
            // the per-host layout dfr run and dfr experiment take: a power command works on one host's tree
            throw new CommandLine.ParameterException(commandLine, "--sysfs-root " + sysfsRoot + " holds one tree per"
                    + " simulated host (host0/, host1/, ...): give one of them, e.g. --sysfs-root "
                    + sysfsRoot.resolve("host0"));
        }
        return SysfsRoot.of(sysfsRoot);
    }

    Sysfs sysfs(CommandLine commandLine) {
        return Sysfs.at(root(commandLine));
    }
}
