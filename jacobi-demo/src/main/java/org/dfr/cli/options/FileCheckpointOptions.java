package org.dfr.cli.options;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.dfr.harness.FileCheckpoints;
import org.dfr.harness.RunConfig;
import org.dfr.runtime.ClusterSettings;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code --checkpoint-dir DIR}, {@code --file-checkpoint-every N} and {@code --restart-from DIR} of
 * {@code dfr run}: the checkpoint level on disk, and a restart from it (README "Checkpoints on disk").
 */
public final class FileCheckpointOptions {

    @Option(names = "--checkpoint-dir", paramLabel = "DIR",
            description = "Also write every N-th in-memory checkpoint to DIR (in the background, atomically, with a"
                    + " checksum; N from --file-checkpoint-every). A recovery that finds every in-memory copy of a"
                    + " lost partition gone reads the newest complete level from DIR. See README \"Checkpoints on"
                    + " disk\".")
    Path checkpointDir;

    @Option(names = "--file-checkpoint-every", paramLabel = "N",
            description = "With --checkpoint-dir: a file checkpoint every N in-memory checkpoints. Default: 1.")
    Integer fileCheckpointEvery;

    @Option(names = "--restart-from", paramLabel = "DIR",
            description = "Start from the newest complete checkpoint of this problem in DIR (written by"
                    + " --checkpoint-dir) instead of the initial state; corrupt or partial ones are skipped.")
    Path restartFrom;

    /**
     * Checks the options and sets the disk level on {@code settings}; {@code --restart-from} is read here,
     * to choose the one iteration every rank restarts from.
     *
     * @param ranksStartHere whether the ranks start on this machine, so that {@code --checkpoint-dir} can be
     *                       proven writable before the run (not with {@code --write-rank-config}: the ranks
     *                       start on other machines)
     * @param log            where the lines about skipped (corrupt or partial) checkpoints go
     * @throws ParameterException (exit code 2) naming the value and what is allowed
     */
    public void applyTo(CommandSpec spec, RunConfig config, ClusterSettings settings, boolean ranksStartHere,
                        Consumer<String> log) {
        if (fileCheckpointEvery != null && checkpointDir == null) {
            throw new ParameterException(spec.commandLine(), "--file-checkpoint-every needs --checkpoint-dir DIR");
        }
        // before the directory is made: a refused run leaves nothing behind
        if (fileCheckpointEvery != null && fileCheckpointEvery < 1) {
            throw new ParameterException(spec.commandLine(), "--file-checkpoint-every " + fileCheckpointEvery
                    + " is not allowed: give N >= 1 (a file checkpoint every N in-memory ones)");
        }
        // before the run, not as a warning per checkpoint that fails to be written (a run that looks fine but kept
        // no file)
        if (ranksStartHere) {
            CliFiles.requireWritableDirectory(spec, "--checkpoint-dir", checkpointDir);
        }
        try {
            settings.diskCheckpoints(FileCheckpoints.resolve(config, checkpointDir,
                    fileCheckpointEvery == null ? 1 : fileCheckpointEvery, restartFrom, log));
        } catch (IllegalArgumentException | UncheckedIOException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }
}
