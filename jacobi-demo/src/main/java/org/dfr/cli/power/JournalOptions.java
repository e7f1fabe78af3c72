package org.dfr.cli.power;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dfr.power.freq.RestoreJournal;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** Where the frequency restore journal is, for the subcommands that cap, restore or report it. */
public final class JournalOptions {

    @Option(names = "--journal", paramLabel = "FILE",
            description = "Restore journal (default: ~/.dfr/freq-journal.json for root /, "
                    + "~/.dfr/freq-journal-<hash of the root>.json for other roots).")
    Path journal;

    RestoreJournal journal(CommandLine commandLine, SysfsOptions sysfsOptions) {
        if (journal != null && Files.isDirectory(journal)) {
            throw new CommandLine.ParameterException(commandLine, "--journal " + journal + " is a directory; give the"
                    + " journal's file name");
        }
        return journal != null ? new RestoreJournal(journal) : RestoreJournal.defaultFor(sysfsOptions.root(commandLine));
    }
}
