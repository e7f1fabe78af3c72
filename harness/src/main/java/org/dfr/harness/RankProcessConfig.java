package org.dfr.harness;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.dfr.power.AtomicFiles;
import org.dfr.runtime.CheckpointReplication;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.DiskCheckpoints;

/**
 * What the launcher hands to every rank process: the run, the cluster to form, and the launcher's
 * pid (a rank halts as soon as its launcher is gone, so that a SIGKILLed launcher leaves no orphans).
 * Written once as a JSON file that all ranks read; the rank id and result file travel as arguments.
 *
 * @param run the run (kernel, sizes, faults)
 * @param clusterName the unique name of this run's Hazelcast cluster
 * @param basePort first port of the members' range on 127.0.0.1
 * @param collectTimeoutMillis how long a non-collecting rank waits for the collector before leaving
 * @param hostAddresses the address of each host's members (empty: loopback)
 * @param dataToken the secret data-plane connections present
 * @param diskCheckpoints the file level and the restart (null: none)
 * @param respawnWaitMillis how long a recovery waits for respawned ranks (0: no respawn; see
 *     {@link ClusterSettings#respawnWaitMillis})
 * @param checkpointBackups synchronous backups of each replicated checkpoint ({@link ClusterSettings#checkpointBackups});
 *     0 (a file written before the option existed, which has no such field) means the default
 * @param checkpointReplication the path of the replicated copies ({@link ClusterSettings#checkpointReplication});
 *     null (a file written before the option existed) means the default
 * @param sharedMemoryDirectory where the ranks of one machine hand each other checkpoint copies
 *     ({@link ClusterSettings#sharedMemoryDirectory}); null for none
 */
public record RankProcessConfig(RunConfig run, String clusterName, int basePort, int heartbeatIntervalMillis,
                                int maxNoHeartbeatMillis, long messageTimeoutMillis, long recoveryTimeoutMillis,
                                long joinTimeoutMillis, long collectTimeoutMillis, long launcherPid,
                                List<String> hostAddresses, long dataToken,
                                DiskCheckpoints diskCheckpoints, long respawnWaitMillis, int checkpointBackups,
                                CheckpointReplication checkpointReplication, String sharedMemoryDirectory) {

    public RankProcessConfig {
        Objects.requireNonNull(run);
        Objects.requireNonNull(clusterName);
        hostAddresses = hostAddresses == null ? List.of() : List.copyOf(hostAddresses);
        diskCheckpoints = diskCheckpoints == null ? DiskCheckpoints.NONE : diskCheckpoints;
        checkpointBackups = ClusterSettings.requireCheckpointBackups(
                checkpointBackups == 0 ? ClusterSettings.DEFAULT_CHECKPOINT_BACKUPS : checkpointBackups);
        checkpointReplication = checkpointReplication == null
                ? ClusterSettings.DEFAULT_CHECKPOINT_REPLICATION : checkpointReplication;
        if (basePort <= 0) {
            throw new IllegalArgumentException("basePort must be a port number, got " + basePort);
        }
    }

    /** The configuration of a run whose cluster uses {@code settings} with the given (resolved) base port. */
    public static RankProcessConfig of(RunConfig run, ClusterSettings settings, int basePort,
                                       long collectTimeoutMillis, long launcherPid) {
        return new RankProcessConfig(run, settings.clusterName(), basePort, settings.heartbeatIntervalMillis(),
                settings.maxNoHeartbeatMillis(), settings.messageTimeoutMillis(), settings.recoveryTimeoutMillis(),
                settings.joinTimeoutMillis(), collectTimeoutMillis, launcherPid, settings.hostAddresses(),
                settings.dataToken(), settings.diskCheckpoints(), settings.respawnWaitMillis(),
                settings.checkpointBackups(), settings.checkpointReplication(),
                settings.sharedMemoryDirectory() == null ? null : settings.sharedMemoryDirectory().toString());
    }

    /** This configuration with the ranks' shared-memory directory (null: none). */
    public RankProcessConfig withSharedMemoryDirectory(Path directory) {
        return new RankProcessConfig(run, clusterName, basePort, heartbeatIntervalMillis, maxNoHeartbeatMillis,
                messageTimeoutMillis, recoveryTimeoutMillis, joinTimeoutMillis, collectTimeoutMillis, launcherPid,
                hostAddresses, dataToken, diskCheckpoints, respawnWaitMillis, checkpointBackups, checkpointReplication,
                directory == null ? null : directory.toString());
    }

    /** A fresh {@link ClusterSettings} equal to the launcher's. */
    public ClusterSettings clusterSettings() {
        return new ClusterSettings()
                .clusterName(clusterName)
                .basePort(basePort)
                .heartbeatIntervalMillis(heartbeatIntervalMillis)
                .maxNoHeartbeatMillis(maxNoHeartbeatMillis)
                .messageTimeoutMillis(messageTimeoutMillis)
                .recoveryTimeoutMillis(recoveryTimeoutMillis)
                .joinTimeoutMillis(joinTimeoutMillis)
                .hostAddresses(hostAddresses)
                .dataToken(dataToken)
                .diskCheckpoints(diskCheckpoints)
                .respawnWaitMillis(respawnWaitMillis)
                .checkpointBackups(checkpointBackups)
                .checkpointReplication(checkpointReplication)
                .sharedMemoryDirectory(sharedMemoryDirectory == null ? null : Path.of(sharedMemoryDirectory));
    }

    /** Writes this configuration as JSON, atomically. */
    public void write(Path file) {
        try {
            // it holds the data plane's token (docs/cluster.md: keep it private)
            AtomicFiles.write(file, tmp -> RunReports.JSON.writeValue(tmp.toFile(), this), AtomicFiles.PRIVATE_MODE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write rank configuration " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads a configuration written by {@link #write}.
     *
     * @throws UncheckedIOException naming the file when it is missing or not a valid configuration
     */
    public static RankProcessConfig read(Path file) {
        try {
            return RunReports.JSON.readValue(file.toFile(), RankProcessConfig.class);
        } catch (JacksonException e) {
            if (e.getCause() instanceof KernelJars.MissingJarException missing) {
                // the file is right; the jar it names was not copied to this host
                throw new UncheckedIOException("rank configuration " + file + " names kernel jar " + missing.jar()
                        + ", which is not on this host (or not readable): copy it to that same path on every host",
                        new IOException(missing.getMessage(), missing));
            }
            // Jackson's own message spans lines (its source location, "through reference chain ..."): one line here
            JsonLocation at = e.getLocation();
            throw new UncheckedIOException("cannot read rank configuration " + file + (at == null ? "" : " (line "
                    + at.getLineNr() + ", column " + at.getColumnNr() + ")") + ": "
                    + e.getOriginalMessage().replace('\n', ' ') + "; write it again with dfr run ... --write-rank-config",
                    e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read rank configuration " + file + ": " + e.getMessage(), e);
        }
    }
}
