package org.dfr.runtime;

import com.hazelcast.config.Config;
import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.PartitionGroupConfig;
import com.hazelcast.config.PartitioningStrategyConfig;
import com.hazelcast.partition.strategy.StringPartitioningStrategy;
import com.hazelcast.spi.partitiongroup.PartitionGroupMetaData;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Builds the Hazelcast member configuration of a rank: TCP-IP join through rank 0, no multicast. Every
 * member binds the address of its host ({@link ClusterSettings#addressOfHost}, loopback by default)
 * and advertises its data-plane address as member attributes.
 */
public final class HazelcastConfigs {

    /** Member attribute holding the rank id. */
    public static final String RANK_ATTRIBUTE = "dfr.rank";
    /** Member attribute holding the data-plane port. */
    public static final String DATA_PORT_ATTRIBUTE = "dfr.dataPort";
    /** Member attribute holding the data-plane host address. */
    public static final String DATA_HOST_ATTRIBUTE = "dfr.dataHost";
    /**
     * Member attribute naming the JVM that started the member ({@link #JVM_TOKEN}): a member of this rank id from
     * this very JVM is an attempt to join that it gave up on, not a second copy of the rank.
     */
    public static final String JVM_ATTRIBUTE = "dfr.jvm";
    /** This JVM's {@link #JVM_ATTRIBUTE}. */
    public static final String JVM_TOKEN = UUID.randomUUID().toString();
    /** IMap of replicated checkpoints. */
    public static final String CHECKPOINT_MAP = "dfr.checkpoints";
    /** Small IMaps used for agreement and results; all carry one synchronous backup. */
    public static final String CONTROL_MAP = "dfr.control";
    public static final String STATUS_MAP = "dfr.status";
    public static final String STATS_MAP = "dfr.stats";
    /** Hazelcast's property: how often the master sends its partition table to the other members, seconds. */
    static final String PARTITION_TABLE_SEND_INTERVAL_PROPERTY = "hazelcast.partition.table.send.interval";
    /** Its value here: Hazelcast's smallest (the default is 15). */
    static final int PARTITION_TABLE_SEND_INTERVAL_SECONDS = 1;
    /** Hazelcast's property: what its health monitor logs; {@code OFF} runs no monitor thread at all. */
    static final String HEALTH_MONITORING_LEVEL_PROPERTY = "hazelcast.health.monitoring.level";
    /** Synchronous backups of the control board. */
    public static final int CONTROL_BACKUP_COUNT = 3;
    /** IMap of the records of injected deaths ({@link FailureLog}). */
    public static final String FAILURE_MAP = "dfr.failures";
    /** Synchronous backups of {@link #FAILURE_MAP}: Hazelcast's largest, so that a record has a copy on seven members. */
    public static final int FAILURE_BACKUP_COUNT = 6;

    private HazelcastConfigs() {
    }

    /**
     * The configuration of one member.
     *
     * @param memberCount members expected in the cluster: start-up waits until all of them joined
     */
    public static Config member(ClusterSettings settings, int rank, int dataPort, int memberCount) {
        return member(settings, rank, dataPort, memberCount, rank, memberCount);
    }

    /**
     * The configuration of one member on simulated host {@code host}. With two hosts or more,
     * partition groups are zone-aware by host, so that the backup of every checkpoint lives on
     * another host than its primary: a whole host can fail without losing a checkpoint.
     */
    public static Config member(ClusterSettings settings, int rank, int dataPort, int memberCount, int host,
                                int hostCount) {
        String bind = settings.addressOfHost(host);
        String seed = settings.addressOfHost(0);
        Config config = new Config();
        config.setClusterName(settings.clusterName());
        config.setInstanceName(settings.clusterName() + "-rank" + rank);
        config.getMemberAttributeConfig().setAttribute(RANK_ATTRIBUTE, Integer.toString(rank));
        config.getMemberAttributeConfig().setAttribute(DATA_PORT_ATTRIBUTE, Integer.toString(dataPort));
        config.getMemberAttributeConfig().setAttribute(DATA_HOST_ATTRIBUTE, bind);
        config.getMemberAttributeConfig().setAttribute(JVM_ATTRIBUTE, JVM_TOKEN);
        if (hostCount >= 2) {
            config.getMemberAttributeConfig().setAttribute(PartitionGroupMetaData.PARTITION_GROUP_ZONE, "host" + host);
            config.getPartitionGroupConfig().setEnabled(true)
                    .setGroupType(PartitionGroupConfig.MemberGroupType.ZONE_AWARE);
        }

        NetworkConfig network = config.getNetworkConfig();
        // the base port is rank 0's alone: a rank started before it must not take it and pass for it
        network.setPort(rank == 0 ? settings.basePort() : settings.basePort() + 1)
                .setPortAutoIncrement(true).setPortCount(memberCount + 2);
        network.getInterfaces().setEnabled(true).addInterface(bind);
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setConnectionTimeoutSeconds(1);
        if (rank == 0) {
            // rank 0 starts first and founds the cluster: with nobody to probe it is master at once
            // (probing the empty ports of the range costs about two seconds). It must hold the base
            // port, through which the others join: if that port was taken meanwhile, fail now
            network.setPortAutoIncrement(false);
            join.getTcpIpConfig().addMember(seed + ":" + settings.basePort());
        } else {
            for (int port = settings.basePort(); port < settings.basePort() + memberCount + 2; port++) {
                join.getTcpIpConfig().addMember(seed + ":" + port);
            }
            // join through rank 0 or not at all: without this, a member whose probes time out on a
            // loaded machine takes itself for the first one and founds a second cluster, which never
            // merges (merges are off, see below), and the run waits for members it will never see.
            // A rank respawned in place of a dead one (its id is beyond the run's members) joins a
            // running cluster whose rank 0 may be the dead one: it joins through any member
            if (rank < memberCount) {
                join.getTcpIpConfig().setRequiredMember(seed + ":" + settings.basePort());
            }
        }

        config.setProperty("hazelcast.logging.type", "slf4j");
        config.setProperty("hazelcast.phone.home.enabled", "false");
        config.setProperty("hazelcast.local.localAddress", bind);
        // bind the host's address only, not every interface (Hazelcast's default binds 0.0.0.0)
        config.setProperty("hazelcast.socket.bind.any", "false");
        config.setProperty("hazelcast.wait.seconds.before.join", "0");
        // a member that cannot reach rank 0 gives up when the run would (default: 300 s)
        config.setProperty("hazelcast.max.join.seconds",
                Long.toString(Math.max(1, (settings.joinTimeoutMillis() + 999) / 1000)));
        config.setProperty("hazelcast.partition.count", "71");
        // the master sends its partition table to the others this often (default 15 s) besides on each change: when
        // two members die at once, a promotion's update can miss a member, which then finds "Partition owner is null"
        // until the next send, and its reads of the control board waited 11-13 s in a recovery (bench-recovery
        // --mode embedded --ranks-grid 1x4 --fail 1@4 --fail 2@4)
        config.setProperty(PARTITION_TABLE_SEND_INTERVAL_PROPERTY, Integer.toString(PARTITION_TABLE_SEND_INTERVAL_SECONDS));
        config.setProperty("hazelcast.heartbeat.interval.seconds",
                Integer.toString(Math.max(1, settings.heartbeatIntervalMillis() / 1000)));
        config.setProperty("hazelcast.max.no.heartbeat.seconds",
                Integer.toString(Math.max(1, settings.maxNoHeartbeatMillis() / 1000)));
        // one refused connection is enough to suspect a member: a SIGKILLed JVM refuses at once
        config.setProperty("hazelcast.connection.monitor.max.faults", "1");
        config.setProperty("hazelcast.merge.first.run.delay.seconds", "3600");
        config.setProperty("hazelcast.shutdownhook.enabled", "false");
        config.setProperty("hazelcast.operation.call.timeout.millis", "30000");
        // a synchronous backup to a member that just died is not acknowledged: give up waiting after
        // 1 s instead of 5 s (the primary is written; the other backups hold the data)
        config.setProperty("hazelcast.operation.backup.timeout.millis", "1000");
        // an operation sent to a partition whose owner just died is retried with doubling pauses up
        // to this cap (default 500 ms): a small cap lets it land soon after the backup is promoted
        config.setProperty("hazelcast.invocation.retry.pause.millis", "20");
        // ... and the retry count keeps the default's time budget (250 retries at up to 500 ms, about
        // 2 minutes): 250 retries at 20 ms would give up after 5 s while promotions are still running
        config.setProperty("hazelcast.invocation.max.retry.count", "6000");
        config.getJetConfig().setEnabled(false);
        // nobody reads Hazelcast's own metrics (no Management Center): do not register and collect them every
        // 5 s on cores the kernels share
        config.getMetricsConfig().setEnabled(false);
        // nor its health monitor, which only logs (memory or CPU above a threshold): its first run, 20 s after the
        // member starts, builds the JVM's platform MBean server, about 60 ms of CPU in each rank JVM at the same
        // moment, inside the loop or a recovery (async-profiler, session 48), then reads metrics every 20 s
        config.setProperty(HEALTH_MONITORING_LEVEL_PROPERTY, "OFF");

        // "name@key" keys let a rank keep the primary copy of its checkpoint on its own member
        config.addMapConfig(new MapConfig(CHECKPOINT_MAP).setBackupCount(settings.checkpointBackups()).setAsyncBackupCount(0)
                .setInMemoryFormat(InMemoryFormat.BINARY)
                .setPartitioningStrategyConfig(new PartitioningStrategyConfig(StringPartitioningStrategy.class.getName())));
        // agreement data must survive simultaneous losses (a host, a failure during recovery)
        config.addMapConfig(new MapConfig(CONTROL_MAP).setBackupCount(CONTROL_BACKUP_COUNT).setAsyncBackupCount(0));
        config.addMapConfig(new MapConfig(FAILURE_MAP).setBackupCount(FAILURE_BACKUP_COUNT).setAsyncBackupCount(0));
        for (String name : new String[] {STATUS_MAP, STATS_MAP}) {
            config.addMapConfig(new MapConfig(name).setBackupCount(1).setAsyncBackupCount(0));
        }
        return config;
    }

    /**
     * How many ports a run of {@code members} ranks takes from its base port on each host: one member port per
     * rank, and two more (the ranges chosen by {@link #freeBasePort} and checked for {@code --base-port} agree).
     */
    public static int portCount(int members) {
        return members + 2;
    }

    /**
     * A base port with {@code count} free ports after it on loopback, chosen at random so that
     * concurrent runs (tests) rarely collide; the unique cluster name makes a collision harmless.
     */
    public static int freeBasePort(int count) {
        return freeBasePort(count, List.of(ClusterSettings.DEFAULT_ADDRESS));
    }

    /** As {@link #freeBasePort(int)}, the range free on every one of {@code addresses}. */
    public static int freeBasePort(int count, List<String> addresses) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 200; attempt++) {
            int base = 20_000 + random.nextInt(30_000);
            if (addresses.stream().allMatch(a -> rangeIsFree(a, base, count))) {
                return base;
            }
        }
        throw new IllegalStateException("no free range of " + count + " ports on " + String.join(", ", addresses));
    }

    private static boolean rangeIsFree(String address, int base, int count) {
        return firstPortInUse(address, base, count) < 0;
    }

    /**
     * The first port of {@code base..base+count-1} that cannot be bound on {@code address} (in use, or not this
     * machine's), or -1 when all can: a range given by the user ({@code --base-port}) is checked before any member
     * starts, instead of failing in Hazelcast's bind with its stack traces.
     */
    public static int firstPortInUse(String address, int base, int count) {
        for (int port = base; port < base + count; port++) {
            try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName(address))) {
                socket.setReuseAddress(true);
            } catch (IOException e) {
                return port;
            }
        }
        return -1;
    }
}
