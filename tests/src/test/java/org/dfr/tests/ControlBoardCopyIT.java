package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.dfr.tests.ReplicaHolders.inReplicaOrder;
import static org.dfr.tests.ReplicaHolders.kill;
import static org.dfr.tests.ReplicaHolders.retryOn;
import static org.dfr.tests.ReplicaHolders.survivor;

import com.hazelcast.core.HazelcastInstance;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.dfr.runtime.ControlBoard;
import org.dfr.runtime.HazelcastConfigs;
import org.dfr.runtime.ResultCollector;
import org.junit.jupiter.api.Test;

/** The report's records on the control board outlive every holder of their copies ({@link ControlBoard#entries}). */
class ControlBoardCopyIT {

    private static final int MEMBERS = 8;

    /*
     * Eight members, migrations held, as in a run. The coordinator of recovery 1 writes its record and the root its
     * end; then every member holding the key's partition dies before any backup is re-created:
     *
     *   recovery/1    replicas on  h0 h1 h2 h3    s s s s    (h = holder, in replica order; h0 wrote it)
     *   s                                                    heard of it; its own putIfAbsent of another record
     *                                                        loses, and s keeps h0's, the one on the board
     *   then                       X  X  X  X                the board's map lost it; s still reports it
     *
     * The failure map lost a record this way in campaign 158's trial 319 (FailureLogIT); the board's entries are
     * written the same way and have four copies, not seven.
     */
    @Test
    void when_everyHolderOfAReportRecordDies_then_aSurvivorsBoardStillReportsIt() {
        List<HazelcastInstance> members = new ArrayList<>();
        try {
            HeldMigrationsCluster.start(MEMBERS, members);
            String key = ResultCollector.RECOVERY_PREFIX + 1;
            List<HazelcastInstance> holders = inReplicaOrder(members, key, HazelcastConfigs.CONTROL_BACKUP_COUNT);
            assertThat(holders).as("a board entry has a copy on four members")
                    .hasSize(HazelcastConfigs.CONTROL_BACKUP_COUNT + 1);
            HazelcastInstance survivor = survivor(members, holders);
            ControlBoard survivorsBoard = board(survivor);

            String record = "{\"epoch\":1,\"deadRanks\":[2]}";
            board(holders.get(0)).put(key, record);
            await().atMost(Duration.ofSeconds(10)).until(() -> record.equals(survivorsBoard.entries().get(key)));
            assertThat(survivorsBoard.putIfAbsent(key, "{\"epoch\":1,\"deadRanks\":[]}")).isEqualTo(record);

            kill(members, holders);
            assertThat(survivorsBoard.get(key)).as("the board's map after its last holder died").isNull();
            assertThat(survivorsBoard.entries()).containsEntry(key, record);
        } finally {
            members.forEach(m -> m.getLifecycleService().terminate());
        }
    }

    private static ControlBoard board(HazelcastInstance member) {
        return new ControlBoard(member.getMap(HazelcastConfigs.CONTROL_MAP), retryOn(member));
    }
}
