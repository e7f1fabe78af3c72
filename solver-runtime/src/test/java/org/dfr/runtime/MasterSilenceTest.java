package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A dying master that the ranks of its JVM are told of slowly must not split the cluster ({@link MasterSilence}). */
class MasterSilenceTest {

    private static final int MEMBERS = 4;

    private final List<HazelcastInstance> members = new ArrayList<>();

    @AfterEach
    void terminateEveryMember() {
        members.forEach(m -> m.getLifecycleService().terminate());
    }

    /*
     * Four members of one JVM; m0, the master, dies. The others are told one by one, slowly, as under load
     * (campaign 159, trial 177):
     *
     *   m0 (master)  dies           cut off at once
     *   m1           told first     suspects m0, closes its connections to it, claims mastership
     *   m2, m3       told 4 s later suspect m0 too
     *
     * A live m0 took m1's closed connections for m1's death, removed it and told m2 and m3, who then never took
     * m1's claim: {m1} and {m2, m3} ended as two clusters (here within the 4 s, in the trial within 180 ms, on a
     * loaded machine). Cut off, m0 reaches nobody, and m1, m2, m3 are one.
     */
    @Test
    void when_theMasterDiesAndIsToldOfSlowly_then_theSurvivorsStayOneCluster() {
        ClusterSettings settings = new ClusterSettings().basePort(HazelcastConfigs.freeBasePort(MEMBERS + 2));
        for (int r = 0; r < MEMBERS; r++) {
            members.add(Hazelcast.newHazelcastInstance(HazelcastConfigs.member(settings, r, 0, MEMBERS)));
        }
        HazelcastInstance master = members.get(0);
        await().atMost(Duration.ofSeconds(60)).until(() -> everyOneSees(members, members));
        Member dead = master.getCluster().getLocalMember();
        List<HazelcastInstance> survivors = members.subList(1, MEMBERS);

        assertThat(MasterSilence.ifMaster(survivors.get(0))).as("a member that is not the master").isFalse();
        assertThat(MasterSilence.ifMaster(master)).isTrue();
        suspect(survivors.get(0), dead);
        // the ranks not yet told keep the first one as a member: nobody told them otherwise
        await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(5))
                .until(() -> survivors.subList(1, survivors.size()).stream()
                        .allMatch(m -> uuids(m).contains(survivors.get(0).getCluster().getLocalMember().getUuid())));
        survivors.subList(1, survivors.size()).forEach(m -> suspect(m, dead));
        master.getLifecycleService().terminate();

        await().atMost(Duration.ofSeconds(30)).until(() -> everyOneSees(survivors, survivors));
    }

    /**
     * {@code member} suspects {@code dead} as a rank told of its death does ({@link Membership}), unless it already
     * took another master's member list without it.
     */
    private static void suspect(HazelcastInstance member, Member dead) {
        member.getCluster().getMembers().stream().filter(m -> m.getUuid().equals(dead.getUuid())).findFirst()
                .ifPresent(asSeen -> ((HazelcastInstanceProxy) member).getOriginal().node.getClusterService()
                        .suspectMember(asSeen, "test: told", true));
    }

    private static boolean everyOneSees(List<HazelcastInstance> viewers, List<HazelcastInstance> expected) {
        Set<UUID> want = expected.stream().map(m -> m.getCluster().getLocalMember().getUuid()).collect(Collectors.toSet());
        return viewers.stream().allMatch(v -> uuids(v).equals(want));
    }

    private static Set<UUID> uuids(HazelcastInstance member) {
        return member.getCluster().getMembers().stream().map(Member::getUuid).collect(Collectors.toSet());
    }
}
