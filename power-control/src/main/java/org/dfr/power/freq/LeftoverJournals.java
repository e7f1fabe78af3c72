package org.dfr.power.freq;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.dfr.power.HostName;
import org.dfr.power.sysfs.Sysfs;
import org.dfr.power.sysfs.SysfsRoot;

/**
 * Finds the restore journals that processes killed while capped left in a journal directory, and puts
 * their CPUs' limits back. A journal stays while its writer runs (the run holding the cap lifts it
 * itself); a journal of another host is not touched (a home directory shared across a cluster holds
 * every host's journals).
 *
 * <p>Every {@code dfr} command runs this at start (the rank processes excepted: their launcher does), so a
 * SIGKILLed launcher's capped host is restored by whatever the user runs next, and the command says so.
 */
public final class LeftoverJournals {

    /**
     * What became of one journal.
     *
     * @param journal  the journal file
     * @param pid      the process that wrote it
     * @param sysfsRoot the sysfs root its limits belong to
     * @param restored whether the limits were put back (and the journal removed)
     * @param message  one line for the user
     */
    public record Outcome(Path journal, long pid, String sysfsRoot, boolean restored, String message) {
    }

    private LeftoverJournals() {
    }

    /** @return the outcome of every leftover journal in {@code directory} (empty when there is none) */
    public static List<Outcome> restoreAll(Path directory) {
        List<Outcome> outcomes = new ArrayList<>();
        if (!Files.isDirectory(directory)) {
            return outcomes;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "freq-journal*.json")) {
            for (Path file : files) {
                restoreOne(file).ifPresent(outcomes::add);
            }
        } catch (IOException e) {
            outcomes.add(new Outcome(directory, -1, "?", false, "cannot list the restore journals in " + directory
                    + ": " + e.getMessage()));
        }
        return outcomes;
    }

    /** The default journal directory, {@code ~/.dfr}. */
    public static Path defaultDirectory() {
        return Path.of(System.getProperty("user.home"), RestoreJournal.DEFAULT_DIRECTORY);
    }

    private static Optional<Outcome> restoreOne(Path file) {
        RestoreJournal journal = new RestoreJournal(file);
        JournalRecord record;
        try {
            Optional<JournalRecord> read = journal.read();
            if (read.isEmpty()) {
                return Optional.empty(); // removed meanwhile by its owner
            }
            record = read.get();
        } catch (IOException e) {
            return Optional.of(new Outcome(file, -1, "?", false, "cannot read the leftover restore journal " + file
                    + " (left in place; `dfr power restore --journal " + file + "` after fixing it): "
                    + e.getMessage()));
        }
        if (record.heldUntilRestore() || !HostName.local().equals(record.host())
                || isAlive(record.pid(), record.createdEpochMillis())) {
            // a `dfr power cap` holds until `dfr power restore`: the next command undid it (walk-through)
            return Optional.empty();
        }
        if (!Files.isDirectory(Path.of(record.sysfsRoot()))) {
            // a fake tree removed with its experiment's output: nothing is left to restore, and a journal kept
            // for it would be reported by every command from now on
            try {
                journal.delete();
            } catch (IOException e) {
                return Optional.of(new Outcome(file, record.pid(), record.sysfsRoot(), false, "cannot remove the"
                        + " restore journal " + file + " of process " + record.pid() + ": " + e.getMessage()));
            }
            return Optional.of(new Outcome(file, record.pid(), record.sysfsRoot(), false, "process " + record.pid()
                    + " was killed while it capped the CPU frequency under " + record.sysfsRoot() + ", which no longer"
                    + " exists: nothing to restore; its journal " + file + " is removed"));
        }
        try {
            Sysfs sysfs = Sysfs.at(SysfsRoot.of(Path.of(record.sysfsRoot())));
            RestoreOutcome outcome = new CpufreqFrequencyController(sysfs, journal).restore();
            return Optional.of(new Outcome(file, record.pid(), record.sysfsRoot(), outcome.restored(),
                    "process " + record.pid() + " was killed while it capped the CPU frequency under "
                            + record.sysfsRoot() + ": " + outcome.message()));
        } catch (FrequencyControlException | RuntimeException e) {
            return Optional.of(new Outcome(file, record.pid(), record.sysfsRoot(), false, "process " + record.pid()
                    + " was killed while it capped the CPU frequency under " + record.sysfsRoot()
                    + ", and restoring it failed (journal " + file + " left in place): " + e.getMessage()));
        }
    }

    /** Whether the journal's writer still runs: its pid is alive and was not reused by a younger process. */
    private static boolean isAlive(long pid, long journalCreatedEpochMillis) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .filter(p -> p.info().startInstant().map(start -> start.toEpochMilli() <= journalCreatedEpochMillis)
                        .orElse(true))
                .isPresent();
    }
}
