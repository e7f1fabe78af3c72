package org.dfr.cli.options;

import org.dfr.runtime.CheckpointReplication;
import org.dfr.runtime.ClusterSettings;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code --checkpoint-backups N} and {@code --checkpoint-replication PATH}, shared by the commands that run a
 * cluster and time its checkpoints ({@code run}, {@code bench}, {@code bench-recovery}, {@code campaign}): how
 * many copies of every checkpoint ({@link ClusterSettings#checkpointBackups}) and what carries them
 * ({@link ClusterSettings#checkpointReplication}).
 */
public final class CheckpointCopiesMixin {

    @Option(names = "--checkpoint-backups", paramLabel = "N",
            defaultValue = "" + ClusterSettings.DEFAULT_CHECKPOINT_BACKUPS,
            description = "Copies of every checkpoint on other members (other hosts where there are some), besides"
                    + " the writer's: 1.." + ClusterSettings.MAX_CHECKPOINT_BACKUPS + ". With 2 no two simultaneous"
                    + " deaths lose a checkpoint; 1 sends one copy per checkpoint instead of two and survives any one"
                    + " death (a rank's or a host's), but a second one before the copies are repaired may lose a"
                    + " checkpoint. Default: ${DEFAULT-VALUE}.")
    int checkpointBackups;

    @Option(names = "--checkpoint-replication", paramLabel = "PATH", converter = CheckpointReplicationConverter.class,
            defaultValue = "data-plane",
            description = "What carries the copies: hazelcast (the checkpoint map and its backups, which Hazelcast"
                    + " restores after a loss) or data-plane (holder ranks on other hosts over the ranks' own TCP"
                    + " connections: no serialisation, cheaper per checkpoint; the recovery after a holder's death places"
                    + " its copies again). Default: ${DEFAULT-VALUE}.")
    CheckpointReplication checkpointReplication;

    /**
     * The number given, checked.
     *
     * @throws ParameterException (exit code 2) naming the value and what is allowed
     */
    public int validated(CommandSpec spec) {
        if (!ClusterSettings.isAllowedCheckpointBackups(checkpointBackups)) {
            throw new ParameterException(spec.commandLine(), "--checkpoint-backups " + checkpointBackups
                    + " is not allowed: 1.." + ClusterSettings.MAX_CHECKPOINT_BACKUPS + (checkpointBackups < 1
                    ? " (without a backup a checkpoint lives only on its writer, whose death loses it)"
                    : " (the rank processes' heap is sized for at most " + ClusterSettings.MAX_CHECKPOINT_BACKUPS + ")"));
        }
        return checkpointBackups;
    }

    /**
     * Sets the backups on {@code settings}.
     *
     * @throws ParameterException (exit code 2) naming the value and what is allowed
     */
    public ClusterSettings applyTo(CommandSpec spec, ClusterSettings settings) {
        return settings.checkpointBackups(validated(spec)).checkpointReplication(checkpointReplication);
    }

    /** The path given for the copies. */
    public CheckpointReplication replication() {
        return checkpointReplication;
    }

    /**
     * "N checkpoint backup(s) over PATH", as the run line and the bench table say it; a report written
     * before the path was recorded used the map.
     */
    public static String describe(int backups, String replication) {
        return backups + " checkpoint backup" + (backups == 1 ? "" : "s") + " over "
                + (replication == null ? CheckpointReplication.HAZELCAST.optionValue() : replication);
    }
}
