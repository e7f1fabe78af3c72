package org.dfr.runtime;

import com.hazelcast.cluster.Member;
import java.util.Iterator;

/**
 * Who leads, for every role that needs one rank to act for all: the one place each role asks.
 *
 * <ul>
 *   <li><b>Founder</b> ({@link #FOUNDER_RANK}, rank 0): starts first on the base port; every other
 *       rank joins through it, and once the cluster formed it stops partition migrations for the run
 *       ({@link RankNode#holdMigrations}). It only acts before the first iteration, so it needs no
 *       successor.</li>
 *   <li><b>Root</b> ({@link #root}: the lowest active rank of the agreed {@link Ownership}): sums the
 *       residual reduction and broadcasts the sum, writes the converged iteration, records the end of
 *       a recovery and starts the backup repair, and collects the run's results. Every rank derives
 *       it from the ownership all of them agreed on, so no race with members leaving decides it,
 *       and it moves only when a recovery installs a new ownership.</li>
 *   <li><b>Coordinator</b> ({@link #isCoordinator}: the oldest member of the cluster): decides a
 *       recovery. It must be known while ranks are dying and before any agreement, so it is taken
 *       from Hazelcast's member list (oldest first, the same order on every member); when it dies
 *       the next oldest takes over without a vote. (The root could not serve: when it dies, only
 *       the coordinator's decision names the next one.)</li>
 * </ul>
 */
public final class Leadership {

    /** The rank that founds the cluster (see the class comment). */
    public static final int FOUNDER_RANK = 0;

    private Leadership() {
    }

    /** Whether {@code rank} founds the cluster. */
    public static boolean isFounder(int rank) {
        return rank == FOUNDER_RANK;
    }

    /** The root of the ownership: its lowest active rank. */
    public static int root(Ownership ownership) {
        return ownership.activeRanksView()[0];
    }

    /** Whether {@code rank} is the {@link #root} of {@code ownership}. */
    public static boolean isRoot(int rank, Ownership ownership) {
        return rank == root(ownership);
    }

    /**
     * Whether the local member is the coordinator: the first (oldest) of {@code membersOldestFirst},
     * Hazelcast's member list.
     */
    public static boolean isCoordinator(Iterable<Member> membersOldestFirst) {
        Iterator<Member> it = membersOldestFirst.iterator();
        return it.hasNext() && it.next().localMember();
    }
}
