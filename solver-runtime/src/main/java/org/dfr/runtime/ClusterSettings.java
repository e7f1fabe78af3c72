package org.dfr.runtime;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * How the ranks' Hazelcast cluster is formed and how fast it notices a dead member. Fluent and
 * mutable while being built, like Hazelcast's own config objects; units are in the names.
 *
 * <p>Detection defaults come from measurements on loopback: with one connection fault enough to
 * suspect a member and heartbeats every second, a SIGKILLed member is removed in 134-173 ms (its TCP
 * connections are refused at once), whatever the heartbeat timeout; a frozen one after the 10 s
 * without a heartbeat. Since then a SIGKILLed rank is found through the data plane in milliseconds
 * ({@link DeathWatch}), and Hazelcast is told to suspect it; the heartbeat timeout still bounds a host
 * that vanishes without closing its connections. 5 s was too short on a 2-core machine: while 8 rank JVMs start at once, a
 * member that just joined can go 5 s without sending a heartbeat, be suspected, and split the
 * forming cluster.
 */
public final class ClusterSettings {

    public static final int DEFAULT_HEARTBEAT_INTERVAL_MILLIS = 1_000;
    public static final int DEFAULT_MAX_NO_HEARTBEAT_MILLIS = 10_000;
    public static final long DEFAULT_MESSAGE_TIMEOUT_MILLIS = 60_000;
    public static final long DEFAULT_RECOVERY_TIMEOUT_MILLIS = 60_000;
    public static final long DEFAULT_JOIN_TIMEOUT_MILLIS = 60_000;
    /**
     * {@link #respawnWaitMillis} of a run with respawned replacements: a JVM start-up, with margin for
     * 8 JVMs sharing 2 loaded cores (below {@link #DEFAULT_RECOVERY_TIMEOUT_MILLIS}, which bounds the
     * whole agreement round).
     */
    public static final long DEFAULT_RESPAWN_WAIT_MILLIS = 30_000;
    /**
     * {@link #checkpointBackups} by default. Two, not one: with zone-aware groups the three copies live on
     * three hosts, so two simultaneous deaths (two ranks, or a host and a rank) never take every copy of a
     * checkpoint; one backup loses a checkpoint whenever two dead members held its two copies.
     */
    public static final int DEFAULT_CHECKPOINT_BACKUPS = 2;
    /**
     * The most {@link #checkpointBackups}: the rank processes' heap is sized for a checkpoint map of at most
     * three copies (see {@code ProcessLauncher}).
     */
    public static final int MAX_CHECKPOINT_BACKUPS = 2;
    /**
     * {@link #checkpointReplication} by default: the data plane, measured at 0.08-0.17 of the checkpoint map's
     * loop overhead per checkpoint in embedded mode and 0.38-0.57 in processes mode (docs/bench.md, session 17).
     */
    public static final CheckpointReplication DEFAULT_CHECKPOINT_REPLICATION = CheckpointReplication.DATA_PLANE;

    private String clusterName = "dfr-" + UUID.randomUUID();
    private int basePort = -1;
    private int heartbeatIntervalMillis = DEFAULT_HEARTBEAT_INTERVAL_MILLIS;
    private int maxNoHeartbeatMillis = DEFAULT_MAX_NO_HEARTBEAT_MILLIS;
    private long messageTimeoutMillis = DEFAULT_MESSAGE_TIMEOUT_MILLIS;
    private long recoveryTimeoutMillis = DEFAULT_RECOVERY_TIMEOUT_MILLIS;
    private long joinTimeoutMillis = DEFAULT_JOIN_TIMEOUT_MILLIS;
    private long respawnWaitMillis;
    private long rankStopMillis = DEFAULT_RANK_STOP_MILLIS;
    private List<String> hostAddresses = List.of();
    private long dataToken = new SecureRandom().nextLong();
    private DiskCheckpoints diskCheckpoints = DiskCheckpoints.NONE;
    private int checkpointBackups = DEFAULT_CHECKPOINT_BACKUPS;
    private CheckpointReplication checkpointReplication = DEFAULT_CHECKPOINT_REPLICATION;
    private Path sharedMemoryDirectory;

    /** The address every member binds when no host addresses are given: loopback. */
    public static final String DEFAULT_ADDRESS = "127.0.0.1";

    public String clusterName() {
        return clusterName;
    }

    /** A name unique to this run; members of other runs on the same machine never join it. */
    public ClusterSettings clusterName(String name) {
        this.clusterName = Objects.requireNonNull(name);
        return this;
    }

    /** First port of the range the members bind to; {@code -1} picks a free range. */
    public int basePort() {
        return basePort;
    }

    public ClusterSettings basePort(int port) {
        this.basePort = port;
        return this;
    }

    public int heartbeatIntervalMillis() {
        return heartbeatIntervalMillis;
    }

    public ClusterSettings heartbeatIntervalMillis(int millis) {
        this.heartbeatIntervalMillis = positive("heartbeatIntervalMillis", millis);
        return this;
    }

    public int maxNoHeartbeatMillis() {
        return maxNoHeartbeatMillis;
    }

    public ClusterSettings maxNoHeartbeatMillis(int millis) {
        this.maxNoHeartbeatMillis = positive("maxNoHeartbeatMillis", millis);
        return this;
    }

    /** How long a rank waits for one halo or reduction message before suspecting its peer. */
    public long messageTimeoutMillis() {
        return messageTimeoutMillis;
    }

    public ClusterSettings messageTimeoutMillis(long millis) {
        this.messageTimeoutMillis = positive("messageTimeoutMillis", millis);
        return this;
    }

    /** Upper bound of one agreement round (statuses in, directive out) before the run fails. */
    public long recoveryTimeoutMillis() {
        return recoveryTimeoutMillis;
    }

    public ClusterSettings recoveryTimeoutMillis(long millis) {
        this.recoveryTimeoutMillis = positive("recoveryTimeoutMillis", millis);
        return this;
    }

    /**
     * With respawned replacements: how long the coordinator of a recovery waits for the fresh rank
     * processes the launcher starts in place of the dead ones to join, before survivors adopt the
     * lost partitions instead; {@code 0} (the default): no respawn, a spare or a survivor adopts at
     * once. A respawned rank joins in about a JVM start-up (1-3 s on 2 cores).
     */
    public long respawnWaitMillis() {
        return respawnWaitMillis;
    }

    public ClusterSettings respawnWaitMillis(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("respawnWaitMillis must be >= 0 (0: no respawn), got " + millis);
        }
        this.respawnWaitMillis = millis;
        return this;
    }

    /** {@link #rankStopMillis} by default. */
    public static final long DEFAULT_RANK_STOP_MILLIS = 30_000;

    /**
     * Embedded runs: how long the rank threads may take to stop once the run failed and its members were killed.
     * A thread still busy after that (a kernel's {@code update} that never returns: a thread cannot be killed)
     * is named in the failure, with the line it is at, and the run ends without waiting for it.
     */
    public long rankStopMillis() {
        return rankStopMillis;
    }

    public ClusterSettings rankStopMillis(long millis) {
        this.rankStopMillis = positive("rankStopMillis", millis);
        return this;
    }

    /** How long the members may take to find each other before the run fails. */
    public long joinTimeoutMillis() {
        return joinTimeoutMillis;
    }

    public ClusterSettings joinTimeoutMillis(long millis) {
        this.joinTimeoutMillis = positive("joinTimeoutMillis", millis);
        return this;
    }

    /**
     * The address the members of each host bind and advertise (Hazelcast and the data plane), host
     * {@code h} at index {@code h}; empty (the default) puts every member on {@link #DEFAULT_ADDRESS}.
     * Rank 0's host is the seed every other member joins through.
     */
    public List<String> hostAddresses() {
        return hostAddresses;
    }

    public ClusterSettings hostAddresses(List<String> addresses) {
        for (String a : addresses) {
            if (a == null || a.isBlank()) {
                throw new IllegalArgumentException("a host address must not be empty");
            }
        }
        this.hostAddresses = List.copyOf(addresses);
        return this;
    }

    /**
     * The address the members of host {@code host} bind and advertise.
     *
     * @throws IllegalArgumentException when host addresses are given and none is for {@code host}
     */
    public String addressOfHost(int host) {
        if (hostAddresses.isEmpty()) {
            return DEFAULT_ADDRESS;
        }
        if (host < 0 || host >= hostAddresses.size()) {
            throw new IllegalArgumentException("no address for host " + host + ": " + hostAddresses.size()
                    + " host addresses are given (" + String.join(",", hostAddresses) + ")");
        }
        return hostAddresses.get(host);
    }

    /**
     * The secret a data-plane connection must present before the member accepts it: generated per
     * run (a new one for every settings object) and handed to the rank processes with the run.
     */
    public long dataToken() {
        return dataToken;
    }

    public ClusterSettings dataToken(long token) {
        this.dataToken = token;
        return this;
    }

    /** The file level of checkpoints and the restart from it ({@link DiskCheckpoints#NONE} by default). */
    public DiskCheckpoints diskCheckpoints() {
        return diskCheckpoints;
    }

    public ClusterSettings diskCheckpoints(DiskCheckpoints value) {
        this.diskCheckpoints = value == null ? DiskCheckpoints.NONE : value;
        return this;
    }

    /**
     * Synchronous backups of every replicated checkpoint, on other members (other hosts when they have
     * some): {@value #DEFAULT_CHECKPOINT_BACKUPS} by default, so that two simultaneous deaths never take
     * every copy. One sends one copy per checkpoint instead of two and still survives any single death, a
     * host's included; but a second death before the copies are repaired (at once, during the recovery, or
     * while Hazelcast restores the promoted partitions' backups, {@link BackupRepair}) may lose a checkpoint.
     */
    public int checkpointBackups() {
        return checkpointBackups;
    }

    /** @throws IllegalArgumentException unless {@code 1 <= count <= }{@value #MAX_CHECKPOINT_BACKUPS} */
    public ClusterSettings checkpointBackups(int count) {
        this.checkpointBackups = requireCheckpointBackups(count);
        return this;
    }

    /**
     * {@code count}, if it is an allowed {@link #checkpointBackups}.
     *
     * @throws IllegalArgumentException naming the value and what is allowed
     */
    public static int requireCheckpointBackups(int count) {
        if (!isAllowedCheckpointBackups(count)) {
            throw new IllegalArgumentException("checkpointBackups must be 1.." + MAX_CHECKPOINT_BACKUPS + ", got " + count);
        }
        return count;
    }

    /**
     * The path that carries the replicated copies of checkpoints; {@link #checkpointBackups} copies either
     * way. Default {@link #DEFAULT_CHECKPOINT_REPLICATION}.
     */
    public CheckpointReplication checkpointReplication() {
        return checkpointReplication;
    }

    public ClusterSettings checkpointReplication(CheckpointReplication value) {
        this.checkpointReplication = value == null ? DEFAULT_CHECKPOINT_REPLICATION : value;
        return this;
    }

    /**
     * The directory in shared memory (a tmpfs) through which rank processes of one machine hand each other their
     * checkpoint copies ({@link SharedMemoryCopies}), or null (the default): every copy over the data plane. Set by
     * the launcher of rank processes for the run, which deletes it afterwards; a rank on a machine where it does
     * not exist sends over the data plane.
     */
    public Path sharedMemoryDirectory() {
        return sharedMemoryDirectory;
    }

    public ClusterSettings sharedMemoryDirectory(Path directory) {
        this.sharedMemoryDirectory = directory;
        return this;
    }

    /** Whether {@code count} is an allowed {@link #checkpointBackups}. */
    public static boolean isAllowedCheckpointBackups(int count) {
        return count >= 1 && count <= MAX_CHECKPOINT_BACKUPS;
    }

    private static int positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, got " + value);
        }
        return value;
    }

    private static long positive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, got " + value);
        }
        return value;
    }
}
