package org.dfr.tests;

import static org.awaitility.Awaitility.await;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.internal.partition.InternalPartition;
import com.hazelcast.internal.partition.PartitionReplica;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.dfr.runtime.PromotionRetry;

/** The members that hold a key's copies in a {@link HeldMigrationsCluster}, and their deaths. */
final class ReplicaHolders {

    private ReplicaHolders() {
    }

    /** The members holding the partition of {@code key}, owner first, for a map with {@code backupCount} backups. */
    static List<HazelcastInstance> inReplicaOrder(List<HazelcastInstance> members, Object key, int backupCount) {
        HazelcastInstance any = members.get(0);
        int partitionId = any.getPartitionService().getPartition(key).getPartitionId();
        InternalPartition partition = ((HazelcastInstanceProxy) any).getOriginal().node.getPartitionService()
                .getPartition(partitionId);
        List<HazelcastInstance> holders = new ArrayList<>();
        for (int i = 0; i <= backupCount; i++) {
            PartitionReplica replica = partition.getReplica(i);
            if (replica != null) {
                holders.add(memberOf(members, replica.uuid()));
            }
        }
        return holders;
    }

    /** A member that holds no copy of the key. */
    static HazelcastInstance survivor(List<HazelcastInstance> members, List<HazelcastInstance> holders) {
        return members.stream().filter(m -> !holders.contains(m)).findFirst().orElseThrow();
    }

    /** Terminates {@code dying} (removing them from {@code members}) and waits until the others see them gone. */
    static void kill(List<HazelcastInstance> members, List<HazelcastInstance> dying) {
        for (HazelcastInstance m : dying) {
            members.remove(m);
            m.getLifecycleService().terminate();
        }
        HazelcastInstance any = members.get(0);
        await().atMost(Duration.ofSeconds(30)).until(() -> any.getCluster().getMembers().size() == members.size());
    }

    /** The runtime's retry of a map operation while a partition awaits its promoted owner, on {@code member}. */
    static PromotionRetry retryOn(HazelcastInstance member) {
        return new PromotionRetry(member, PromotionRetry.DEFAULT_MAX_WAIT_MILLIS);
    }

    private static HazelcastInstance memberOf(List<HazelcastInstance> members, UUID uuid) {
        for (HazelcastInstance m : members) {
            Member local = m.getCluster().getLocalMember();
            if (local.getUuid().equals(uuid)) {
                return m;
            }
        }
        throw new IllegalStateException("no member " + uuid);
    }
}
