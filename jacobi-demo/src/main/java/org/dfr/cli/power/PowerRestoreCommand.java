package org.dfr.cli.power;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.dfr.power.freq.CpufreqFrequencyController;
import org.dfr.power.freq.FrequencyChange;
import org.dfr.power.freq.FrequencyControlException;
import org.dfr.power.freq.JournalRecord;
import org.dfr.power.freq.RestoreJournal;
import org.dfr.power.freq.RestoreOutcome;
import org.dfr.power.sysfs.Sysfs;
import org.dfr.power.sysfs.SysfsRoot;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code dfr power restore}: puts back the limits recorded in the restore journal, on the sysfs root the
 * journal names, and removes the journal. Exit 0 when restored or when there is nothing to restore, 1
 * when a policy could not be restored (the journal is kept for another try).
 */
@Command(name = "restore", mixinStandardHelpOptions = true,
        description = {"Restore the CPU frequency limits saved in the restore journal (after `dfr power cap`"
                + " or a killed run).",
                "--sysfs-root only selects the default journal; the journal names the root it applies to.",
                "Exit codes: 0 restored or nothing to restore, 1 a policy could not be restored, 2 bad usage."})
public final class PowerRestoreCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    SysfsOptions sysfsOptions;

    @Mixin
    JournalOptions journalOptions;

    @Override
    public Integer call() {
        CommandLine cl = spec.commandLine();
        PrintWriter out = cl.getOut();
        RestoreJournal journal = journalOptions.journal(cl, sysfsOptions);
        try {
            Optional<JournalRecord> record = journal.read();
            if (record.isEmpty()) {
                out.println("nothing to restore: no journal at " + journal.file());
                out.flush();
                return 0;
            }
            Path root = Path.of(record.get().sysfsRoot());
            if (!Files.isDirectory(root)) {
                // a fake tree deleted since the cap: nothing is left to restore, and the journal could never be cleared.
                // Set aside, not deleted: a root that is only absent for now (an unmounted path) keeps its record
                Path aside = journal.file().resolveSibling(journal.file().getFileName() + ".orphaned");
                Files.move(journal.file(), aside, StandardCopyOption.REPLACE_EXISTING);
                out.println("nothing to restore: the sysfs root " + root + " of journal " + journal.file()
                        + " does not exist; the journal is set aside as " + aside + " (`dfr power restore --journal "
                        + aside + "` once the root is back)");
                out.flush();
                return 0;
            }
            Sysfs sysfs = Sysfs.at(SysfsRoot.of(root));
            out.println("journal " + journal.file() + " written by pid " + record.get().pid() + " on "
                    + record.get().host() + " for sysfs root " + sysfs.root());
            RestoreOutcome outcome = new CpufreqFrequencyController(sysfs, journal).restore();
            for (FrequencyChange change : outcome.changes()) {
                out.println("  " + change);
            }
            out.println(outcome.message());
            out.flush();
            return 0;
        } catch (IOException | FrequencyControlException e) {
            cl.getErr().println("dfr power restore: " + e.getMessage());
            cl.getErr().flush();
            return 1;
        }
    }
}
