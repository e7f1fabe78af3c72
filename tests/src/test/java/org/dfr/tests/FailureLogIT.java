package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
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
import org.dfr.recovery.FailureRecord;
import org.dfr.runtime.FailureLog;
import org.dfr.runtime.HazelcastConfigs;
import org.dfr.runtime.PromotionRetry;
import org.junit.jupiter.api.Test;

/** The records of injected deaths outlive the deaths that follow them, as the report needs. */
class FailureLogIT {

    private static final int MEMBERS = 8;
    /** Deaths in a row that took every copy of a record on the control board (campaign 158, trial 319). */
    private static final int DEATHS = 4;

    /*
     * Eight members, migrations held, as in a run. A rank writes its failure record and dies; three more
     * members die before any backup is re-created, and they are the record's next holders:
     *
     *   record 11:2   replicas on  h0 h1 h2 h3 | h4 h5 h6     (h = holder, in replica order; h0 wrote it)
     *   killed                     X  X  X  X
     *   survivors still read it from h4
     *
     * The control board keeps four copies, so these four deaths took a record with them.
     */
    @Test
    void when_theRecordsFirstFourHoldersDie_then_aSurvivorStillReadsIt() {
        List<HazelcastInstance> members = new ArrayList<>();
        try {
            HeldMigrationsCluster.start(MEMBERS, members);
            int key = 11 * 100_000 + 2;
            List<HazelcastInstance> holders = holdersInReplicaOrder(members, key);
            assertThat(holders).as("a record has a copy on seven members").hasSize(HazelcastConfigs.FAILURE_BACKUP_COUNT + 1);

            String record = new FailureRecord(2, 11, "AFTER_END_NOTICES", 1234L).toJson();
            HazelcastInstance writer = holders.get(0);
            new FailureLog(writer.getMap(HazelcastConfigs.FAILURE_MAP), retryOn(writer)).record(key, record);
            for (HazelcastInstance dying : holders.subList(0, DEATHS)) {
                members.remove(dying);
                dying.getLifecycleService().terminate();
            }
            HazelcastInstance survivor = members.get(0);
            await().atMost(Duration.ofSeconds(30)).until(() -> survivor.getCluster().getMembers().size() == MEMBERS - DEATHS);

            FailureLog log = new FailureLog(survivor.getMap(HazelcastConfigs.FAILURE_MAP), retryOn(survivor));
            assertThat(log.all()).containsExactly(record);
        } finally {
            members.forEach(m -> m.getLifecycleService().terminate());
        }
    }

    private static PromotionRetry retryOn(HazelcastInstance member) {
        return new PromotionRetry(member, PromotionRetry.DEFAULT_MAX_WAIT_MILLIS);
    }

    /** The members holding the partition of {@code key} in the failure map, owner first. */
    private static List<HazelcastInstance> holdersInReplicaOrder(List<HazelcastInstance> members, int key) {
        HazelcastInstance any = members.get(0);
        int partitionId = any.getPartitionService().getPartition(key).getPartitionId();
        InternalPartition partition = ((HazelcastInstanceProxy) any).getOriginal().node.getPartitionService()
                .getPartition(partitionId);
        List<HazelcastInstance> holders = new ArrayList<>();
        for (int i = 0; i <= HazelcastConfigs.FAILURE_BACKUP_COUNT; i++) {
            PartitionReplica replica = partition.getReplica(i);
            if (replica != null) {
                holders.add(memberOf(members, replica.uuid()));
            }
        }
        return holders;
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
