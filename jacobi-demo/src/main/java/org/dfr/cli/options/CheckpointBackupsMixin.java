package org.dfr.cli.options;

import org.dfr.runtime.ClusterSettings;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code --checkpoint-backups N}, shared by the commands that run a cluster and time its checkpoints
 * ({@code run}, {@code bench}, {@code bench-recovery}, {@code campaign}): the synchronous backups of every replicated checkpoint
 * ({@link ClusterSettings#checkpointBackups}).
 */
public final class CheckpointBackupsMixin {

    @Option(names = "--checkpoint-backups", paramLabel = "N",
            defaultValue = "" + ClusterSettings.DEFAULT_CHECKPOINT_BACKUPS,
            description = "Copies of every checkpoint on other members (other hosts where there are some), besides"
                    + " the writer's: 1.." + ClusterSettings.MAX_CHECKPOINT_BACKUPS + ". With 2 no two simultaneous"
                    + " deaths lose a checkpoint; 1 makes a checkpoint about half as costly and survives any one death"
                    + " (a rank's or a host's). Default: ${DEFAULT-VALUE}.")
    int checkpointBackups;

    /** The number given (unchecked: {@link #applyTo} checks it). */
    public int checkpointBackups() {
        return checkpointBackups;
    }

    /**
     * Sets the backups on {@code settings}.
     *
     * @throws ParameterException (exit code 2) naming the value and what is allowed
     */
    public ClusterSettings applyTo(CommandSpec spec, ClusterSettings settings) {
        if (!ClusterSettings.isAllowedCheckpointBackups(checkpointBackups)) {
            throw new ParameterException(spec.commandLine(), "--checkpoint-backups " + checkpointBackups
                    + " is not allowed: 1.." + ClusterSettings.MAX_CHECKPOINT_BACKUPS
                    + " (with 0 a checkpoint would live only on its writer, whose death loses it; the rank heap is sized"
                    + " for at most " + ClusterSettings.MAX_CHECKPOINT_BACKUPS + ")");
        }
        return settings.checkpointBackups(checkpointBackups);
    }
}
