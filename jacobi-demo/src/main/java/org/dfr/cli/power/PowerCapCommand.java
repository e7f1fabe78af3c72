package org.dfr.cli.power;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.dfr.power.freq.CapOutcome;
import org.dfr.power.freq.FrequencyChange;
import org.dfr.power.freq.FrequencyControlException;
import org.dfr.power.freq.FrequencyController;
import org.dfr.power.freq.FrequencyControllers;
import org.dfr.power.freq.JournalRecord;
import org.dfr.power.freq.RestoreJournal;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code dfr power cap}: caps every writable cpufreq policy to its minimum and leaves it so; the journal
 * remembers the originals for {@code dfr power restore}. Exit 0 when capped or when there is nothing to
 * cap (a no-op is not an error: it says why), 1 when a write failed (what was written is restored).
 */
@Command(name = "cap", mixinStandardHelpOptions = true,
        description = {"Cap every cpufreq policy of this machine to its minimum frequency (until `dfr power restore`).",
                "Exit codes: 0 capped or nothing to cap (the reason is printed), 1 a write failed, 2 bad usage."})
public final class PowerCapCommand implements Callable<Integer> {

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
        FrequencyController controller = FrequencyControllers.probe(sysfsOptions.sysfs(cl), journal);
        try {
            CapOutcome outcome = controller.capToMinimum();
            holdUntilRestore(journal);
            for (FrequencyChange change : outcome.changes()) {
                out.println("  " + change);
            }
            out.println(outcome.message());
            out.flush();
            return 0;
        } catch (IOException e) {
            cl.getErr().println("dfr power cap: capped, but cannot mark the restore journal " + journal.file()
                    + " as held until `dfr power restore` (the next dfr command will restore the limits): "
                    + e.getMessage());
            cl.getErr().flush();
            return 1;
        } catch (FrequencyControlException e) {
            cl.getErr().println("dfr power cap: " + e.getMessage());
            cl.getErr().flush();
            return 1;
        }
    }

    /**
     * Marks the journal as this cap's, held until {@code dfr power restore}: without it, the next dfr command took
     * it for the journal of a process killed while capped, since this one has exited, and restored the limits.
     */
    private static void holdUntilRestore(RestoreJournal journal) throws IOException {
        Optional<JournalRecord> record = journal.read();
        if (record.isPresent()) {
            journal.write(record.get().heldUntilRestored());
        }
    }
}
