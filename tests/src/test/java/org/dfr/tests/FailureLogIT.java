package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.dfr.tests.ReplicaHolders.inReplicaOrder;
import static org.dfr.tests.ReplicaHolders.kill;
import static org.dfr.tests.ReplicaHolders.retryOn;
import static org.dfr.tests.ReplicaHolders.survivor;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.dfr.recovery.FailureRecord;
import org.dfr.runtime.FailureLog;
import org.dfr.runtime.HazelcastConfigs;
import org.junit.jupiter.api.Test;

/** The records of injected deaths outlive the deaths that follow them, as the report needs ({@link FailureLog}). */
class FailureLogIT {

    private static final int MEMBERS = 8;
    /** Deaths in a row that took every copy of a record on the control board (campaign 158, trial 319). */
    private static final int DEATHS = 4;

    /*
     * Eight members, migrations held, as in a run. A rank writes its failure record and dies; more members die
     * before any backup is re-created, and they are the record's next holders:
     *
     *   record 11:2   replicas on  h0 h1 h2 h3 | h4 h5 h6    s    (h = holder, in replica order; h0 wrote it)
     *   first                      X  X  X  X                     the map still has it (on the control board's
     *                                                             four copies, these four deaths took it)
     *   then                                   | X  X  X          the map lost it; s, the survivor, heard of it
     *
     * Campaign 158's trial 319 lost a record from the map with fewer deaths, while the cluster rebalanced.
     */
    @Test
    void when_theRecordsHoldersDie_then_theMapKeepsItPastFourDeathsAndASurvivorPastAll() {
        List<HazelcastInstance> members = new ArrayList<>();
        try {
            HeldMigrationsCluster.start(MEMBERS, members);
            int key = 11 * 100_000 + 2;
            List<HazelcastInstance> holders = inReplicaOrder(members, key, HazelcastConfigs.FAILURE_BACKUP_COUNT);
            assertThat(holders).as("a record has a copy on seven members").hasSize(HazelcastConfigs.FAILURE_BACKUP_COUNT + 1);
            HazelcastInstance survivor = survivor(members, holders);
            FailureLog survivorsLog = new FailureLog(survivor.getMap(HazelcastConfigs.FAILURE_MAP), retryOn(survivor));
            IMap<Integer, String> map = survivor.getMap(HazelcastConfigs.FAILURE_MAP);

            String record = new FailureRecord(2, 11, "AFTER_END_NOTICES", 1234L).toJson();
            HazelcastInstance writer = holders.get(0);
            new FailureLog(writer.getMap(HazelcastConfigs.FAILURE_MAP), retryOn(writer)).record(key, record);
            await().atMost(Duration.ofSeconds(10)).until(() -> survivorsLog.all().contains(record));

            kill(members, holders.subList(0, DEATHS));
            assertThat(retryOn(survivor).call(() -> map.get(key))).as("the map after four deaths").isEqualTo(record);

            kill(members, holders.subList(DEATHS, holders.size()));
            assertThat(retryOn(survivor).call(() -> map.get(key))).as("the map after its last holder died").isNull();
            assertThat(survivorsLog.all()).containsExactly(record);
        } finally {
            members.forEach(m -> m.getLifecycleService().terminate());
        }
    }
}
