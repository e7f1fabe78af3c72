package org.dfr.runtime;

import com.hazelcast.cluster.ClusterState;
import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.EndpointQualifier;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.internal.server.ServerConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.dfr.runtime.net.DataPlane;
import org.dfr.runtime.net.Mailbox;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One rank's view of the cluster: its Hazelcast member, the members by rank (and their data-plane
 * addresses), the losses it observed, the live ranks, whether it is the coordinator, and the waits
 * for the cluster to form and hold still.
 *
 * <p>A member that leaves interrupts the current epoch of the rank's mailbox (unless the run ended
 * or a recovery already accounted for that rank), so that the rank stops and recovers.
 *
 * <p>A rank can be known dead before Hazelcast removes its member: {@link #rankLost} (a death the
 * {@link DeathWatch} confirmed, or a peer's notice of one) counts it out of {@link #liveRanks} and
 * of the coordinator's choice at once, and tells Hazelcast to suspect the member, so that the
 * master removes it without waiting for its own connection to fail.
 */
public final class Membership {

    private static final Logger LOG = LoggerFactory.getLogger(Membership.class);

    private final int rankId;
    private final HazelcastInstance hazelcast;
    private final ControlBoard control;
    private final DataPlane dataPlane;
    private final Mailbox mailbox;
    private final BooleanSupplier runEnded;
    private final ConcurrentLinkedQueue<MemberLoss> losses = new ConcurrentLinkedQueue<>();
    private final Map<Integer, Member> membersByRank = new ConcurrentHashMap<>();
    private final Set<Integer> knownDead = ConcurrentHashMap.newKeySet();
    /** Ranks whose loss this rank has handled: counted out, and the epoch interrupted unless nothing was lost. */
    private final Set<Integer> lossesHandled = ConcurrentHashMap.newKeySet();
    /** Whether {@link #warmUpMemberRemoval} ran (once per member). */
    private final AtomicBoolean removalWarmedUp = new AtomicBoolean();
    /**
     * Held while a loss is checked against {@link #knownDead} and the epoch interrupted, and while a recovery
     * adds to {@code knownDead}: otherwise a late event about a rank could pass the check just before the
     * directive that accounts for its death was taken, and interrupt the directive's epoch just after it
     * began (campaign seed 96, trial 22: that rank alone started another round, and the others waited for
     * its halos for 60 s).
     */
    private final Object lossCheck = new Object();
    /** Members known dead before Hazelcast removed them ({@link #rankLost}). */
    private final Set<UUID> lostMembers = ConcurrentHashMap.newKeySet();
    /** How each rank {@link #rankLost} counted out was found dead: the reason Hazelcast logs for its suspicion. */
    private final Map<Integer, String> lossReasons = new ConcurrentHashMap<>();
    /** Ranks whose member left or was found dead: a rank missing here that is not in it is still joining. */
    private final Set<Integer> departed = ConcurrentHashMap.newKeySet();
    private final PromotionWatch promotionWatch;
    private final EndNoticeCheck endNotices;
    /**
     * Set while a cluster whose members are started once forms ({@link #formingOnce}): a member that leaves then
     * does not come back, and every wait of the formation would wait out its timeout for it.
     */
    private volatile boolean formingOnce;

    /** A member that left, when this rank learnt of it, and what told it. */
    public record MemberLoss(int rank, long observedAtMillis, Detector detectedBy) {
    }

    /**
     * Starts watching the cluster of {@code hazelcast}.
     *
     * @param runEnded    whether this rank finished (a member leaving then is no failure)
     * @param resultsRead whether the run's results have been read ({@link PromotionWatch})
     */
    public Membership(int rankId, HazelcastInstance hazelcast, ControlBoard control, DataPlane dataPlane,
                      Mailbox mailbox, BooleanSupplier runEnded, BooleanSupplier resultsRead) {
        this.rankId = rankId;
        this.hazelcast = hazelcast;
        this.control = control;
        this.dataPlane = dataPlane;
        this.mailbox = mailbox;
        this.runEnded = runEnded;
        this.promotionWatch = new PromotionWatch(rankId, hazelcast, resultsRead);
        this.endNotices = new EndNoticeCheck(rankId, dataPlane, mailbox);
        for (Member m : hazelcast.getCluster().getMembers()) {
            rememberMember(m);
        }
        hazelcast.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                rememberMember(event.getMember());
                control.bump();
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                onMemberRemoved(event.getMember());
            }
        });
    }

    /**
     * Whether Hazelcast assigned its partitions yet (it does at the cluster's first partition operation, with the
     * members there are then); true where its internals cannot be read.
     */
    public boolean partitionsAssigned() {
        if (hazelcast instanceof HazelcastInstanceProxy proxy) {
            try {
                return proxy.getOriginal().node.getPartitionService().getPartitionStateManager().isInitialized();
            } catch (RuntimeException | LinkageError e) {
                return true;
            }
        }
        return true;
    }

    /** The Hazelcast member of this rank. */
    public HazelcastInstance hazelcast() {
        return hazelcast;
    }

    /**
     * Whether the formation's waits ({@link #awaitClusterSize}, {@link #holdMigrations}, {@link #awaitMigrationsHeld})
     * fail at once when a member leaves: for members started once, in one JVM (embedded mode), whose launcher forms
     * the whole cluster again. Campaign seed 136, trial 319: Hazelcast removed a member its peers suspected while the
     * cluster formed, and two formations each waited out the 60 s join limit. A rank process is not started once: a
     * member its JVM gave up on leaves while the rank's next attempt joins.
     */
    public void formingOnce(boolean on) {
        formingOnce = on;
        control.bump();
    }

    /**
     * Waits until this member sees {@code size} members.
     *
     * @throws RunFailedException if that does not happen within the timeout
     */
    public void awaitClusterSize(int size, long timeoutMillis) {
        awaitClusterSize(size, timeoutMillis, () -> false);
    }

    /**
     * Waits until this member sees {@code size} members, or until {@code formedElsewhere} says the
     * other members saw them already: a member that came up late (a slow JVM start) may find the run
     * under way and a member already dead, and then never sees {@code size}.
     *
     * @throws RunFailedException if neither happens within the timeout
     */
    public void awaitClusterSize(int size, long timeoutMillis, BooleanSupplier formedElsewhere) {
        // distinct rank ids, not members: a member whose join its JVM gave up on may stay listed until its heartbeat
        // times out, beside the same rank's next attempt, and must not stand in for a rank that has not joined
        awaitCondition(() -> {
            refuseDuplicateRank(size);
            return ranksSeen().size() >= size || formedElsewhere.getAsBoolean();
        },
                timeoutMillis, 50,
                () -> "rank " + rankId + " sees " + ranksSeen().size() + " of " + size + " ranks after " + timeoutMillis
                        + " ms (ranks " + ranksSeen() + "; missing " + missingOf(size) + ")");
        for (Member m : hazelcast.getCluster().getMembers()) {
            rememberMember(m);
        }
        warmUpMemberRemoval();
    }

    /**
     * Runs, once and on a thread of its own, the first string building of Hazelcast's member removal: closing the
     * connection to a dead member logs it ({@code TcpServerConnection#toString}, a string concatenation of 14 parts),
     * and removing it logs the member. The JVM links each such call site the first time it runs, spinning classes for
     * its shape, and on 2 cores shared by 8 rank JVMs that all start recovering at that moment the master's first
     * removal took 80-170 ms to reach the close, against 1 ms for a second removal in the same run (session 47,
     * JFR: {@code StringConcatFactory} and {@code ClassSpecializer} under {@code logClose}). Every board operation on
     * the dead member's partitions waits for that removal, the recovery's commit among them.
     */
    private void warmUpMemberRemoval() {
        if (!removalWarmedUp.compareAndSet(false, true) || !(hazelcast instanceof HazelcastInstanceProxy proxy)) {
            return;
        }
        Thread warmUp = new Thread(() -> {
            try {
                int chars = 0;
                for (ServerConnection c : proxy.getOriginal().node.getServer()
                        .getConnectionManager(EndpointQualifier.MEMBER).getConnections()) {
                    chars += c.toString().length();
                }
                for (Member m : hazelcast.getCluster().getMembers()) {
                    chars += m.toString().length();
                }
                LOG.debug("rank {}: member removal's logging warmed up ({} chars)", rankId, chars);
            } catch (RuntimeException | LinkageError e) {
                LOG.debug("rank {}: member removal's logging not warmed up: {}", rankId, e.toString());
            }
        }, "dfr-rank" + rankId + "-removal-warm-up");
        warmUp.setDaemon(true);
        warmUp.start();
    }

    /**
     * Fails when an older member carries this member's rank id: a rank started twice by hand made a cluster of the
     * right size without the missing rank, which ran and failed 100 s later on a checkpoint "lost" with a rank that
     * never existed. The younger copy stops here, in one line; the older one (the first to join: Hazelcast lists
     * members oldest first) goes on, and waits for the other to leave before migrations are held. Both stopped when
     * they started together, and the run failed for a checkpoint of that rank "lost".
     */
    private void refuseDuplicateRank(int size) {
        List<String> same = new ArrayList<>();
        boolean oldest = false;
        boolean olderOnesAreOurs = true;
        boolean seenLocal = false;
        for (Member m : hazelcast.getCluster().getMembers()) {
            if (Integer.toString(rankId).equals(m.getAttribute(HazelcastConfigs.RANK_ATTRIBUTE))) {
                oldest |= same.isEmpty() && m.localMember();
                seenLocal |= m.localMember();
                if (!seenLocal) {
                    // an attempt of this JVM that gave up joining (RankNode#startJoining) may stay listed until its
                    // heartbeat times out: it leaves, this one waits
                    olderOnesAreOurs &= HazelcastConfigs.JVM_TOKEN.equals(m.getAttribute(HazelcastConfigs.JVM_ATTRIBUTE));
                }
                same.add(m.getAddress().toString());
            }
        }
        if (same.size() > 1 && !oldest && !olderOnesAreOurs) {
            throw new RunFailedException(RunFailedException.Kind.OTHER, "rank " + rankId + " was started twice (members "
                    + String.join(" and ", same) + "): start each rank id once (--rank), and every one of 0.."
                    + (size - 1) + " (a copy that died stays listed until its heartbeat times out)");
        }
    }

    /** The rank ids of 0..{@code size}-1 that no member this member sees carries (for messages). */
    private TreeSet<Integer> missingOf(int size) {
        TreeSet<Integer> missing = new TreeSet<>();
        for (int r = 0; r < size; r++) {
            missing.add(r);
        }
        missing.removeAll(ranksSeen());
        return missing;
    }

    /** The rank ids of the members this member sees, in ascending order (for messages). */
    TreeSet<Integer> ranksSeen() {
        TreeSet<Integer> ranks = new TreeSet<>();
        for (Member m : hazelcast.getCluster().getMembers()) {
            String rank = m.getAttribute(HazelcastConfigs.RANK_ATTRIBUTE);
            if (rank != null) {
                ranks.add(Integer.parseInt(rank));
            }
        }
        return ranks;
    }

    /**
     * Waits until every Hazelcast partition has its owner and backup in place: a member loss right
     * after start-up must not lose checkpoint data (migrations after the joins are asynchronous).
     */
    public void awaitClusterSafe(long timeoutMillis) {
        // partitions are assigned on first use; until then the cluster counts as safe
        hazelcast.getPartitionService().getPartitions().forEach(p -> p.getOwner());
        awaitCondition(() -> hazelcast.getPartitionService().isClusterSafe(), timeoutMillis, 20,
                () -> "rank " + rankId + ": the cluster did not reach a safe state (all backups in place) within "
                        + timeoutMillis + " ms");
    }

    /**
     * Stops Hazelcast from rebalancing partitions for the rest of the run, once every partition has
     * its owner and backups in place (see {@link RankNode#holdMigrations}).
     *
     * @throws RunFailedException if the cluster does not reach a safe state or refuses the change
     */
    public void holdMigrations(long timeoutMillis) {
        awaitClusterSafe(timeoutMillis);
        // held with a member that then leaves, the partitions it held would stay without their backups for the run
        awaitCondition(() -> hazelcast.getCluster().getMembers().size() == ranksSeen().size()
                        && hazelcast.getPartitionService().isClusterSafe(), timeoutMillis, 20,
                () -> "rank " + rankId + ": " + hazelcast.getCluster().getMembers().size() + " members carry only "
                        + ranksSeen().size() + " rank ids (ranks " + ranksSeen() + ") after " + timeoutMillis
                        + " ms: a member that failed to join is still listed");
        try {
            hazelcast.getCluster().changeClusterState(ClusterState.NO_MIGRATION);
        } catch (RuntimeException e) {
            throw new RunFailedException(RunFailedException.Kind.CLUSTER_NOT_FORMED,
                    "rank " + rankId + ": could not stop partition migrations for the run: " + e);
        }
    }

    /**
     * Waits until {@link #holdMigrations} took effect on this member.
     *
     * @throws RunFailedException if it does not within the timeout
     */
    public void awaitMigrationsHeld(long timeoutMillis) {
        awaitCondition(() -> hazelcast.getCluster().getClusterState() == ClusterState.NO_MIGRATION, timeoutMillis, 10,
                () -> "rank " + rankId + ": partition migrations were not stopped within " + timeoutMillis
                        + " ms (cluster state " + hazelcast.getCluster().getClusterState() + ")");
    }

    /**
     * {@link #pollUntil}, failing the run with {@code failure}'s message when the time is up.
     *
     * @throws RunFailedException of kind {@link RunFailedException.Kind#CLUSTER_NOT_FORMED} once
     *     {@code timeoutMillis} passed without the condition
     */
    private void awaitCondition(BooleanSupplier condition, long timeoutMillis, long pollMillis,
                                Supplier<String> failure) {
        BooleanSupplier unlessOneLeft = () -> {
            if (formingOnce && !departed.isEmpty()) {
                // a rank that left and is listed again (a duplicate's departure, a member let back in) is no loss
                TreeSet<Integer> gone = new TreeSet<>(departed);
                gone.removeAll(ranksSeen());
                if (!gone.isEmpty()) {
                    throw new RunFailedException(RunFailedException.Kind.CLUSTER_NOT_FORMED, "rank " + rankId
                            + ": ranks " + gone + " left the cluster while it formed (Hazelcast removes a member its"
                            + " peers suspect, e.g. on a loaded machine); nothing ran yet");
                }
            }
            return condition.getAsBoolean();
        };
        if (!pollUntil(unlessOneLeft, timeoutMillis, pollMillis)) {
            // every wait of this kind is part of start-up: nothing ran yet, a fresh start may succeed
            throw new RunFailedException(RunFailedException.Kind.CLUSTER_NOT_FORMED, failure.get());
        }
    }

    /**
     * Re-checks {@code condition} whenever the control board changes (a member event bumps it too),
     * and at least every {@code pollMillis}: cluster state, membership and partition safety change
     * without a board entry.
     *
     * @return whether the condition held before {@code timeoutMillis} passed
     */
    public boolean pollUntil(BooleanSupplier condition, long timeoutMillis, long pollMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        long pollNanos = TimeUnit.MILLISECONDS.toNanos(pollMillis);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            control.awaitChange(control.version(), Math.min(deadline, System.nanoTime() + pollNanos));
        }
        return true;
    }

    /**
     * Whether every Hazelcast partition has an owner that is a current member: right after a loss,
     * until the backups of the dead member's partitions are promoted, a read may not see a copy
     * that is there.
     */
    public boolean partitionsOwnedByLiveMembers() {
        return PromotionWatch.everyPartitionOwnedByAMember(hazelcast);
    }

    /**
     * Ranks currently in the cluster, from Hazelcast's member list itself (it changes before the
     * membership events are dispatched, so it is the freshest view).
     */
    public TreeSet<Integer> liveRanks() {
        return new TreeSet<>(liveRanksOldestFirst());
    }

    /**
     * {@link #liveRanks} in Hazelcast's member order, oldest first: the coordinator first, then whoever
     * would take over from it.
     */
    public List<Integer> liveRanksOldestFirst() {
        List<Integer> ranks = new ArrayList<>();
        try {
            for (Member m : hazelcast.getCluster().getMembers()) {
                String rank = m.getAttribute(HazelcastConfigs.RANK_ATTRIBUTE);
                if (rank != null && !lostMembers.contains(m.getUuid())) {
                    ranks.add(Integer.parseInt(rank));
                }
            }
        } catch (RuntimeException e) {
            // Hazelcast is shutting down: the members known so far
            ranks.clear();
            ranks.addAll(new TreeSet<>(membersByRank.keySet()));
        }
        return ranks;
    }

    /** Whether this member is the coordinator ({@link Leadership#isCoordinator}). */
    public boolean isCoordinator() {
        try {
            List<Member> alive = new ArrayList<>();
            for (Member m : hazelcast.getCluster().getMembers()) {
                if (!lostMembers.contains(m.getUuid())) {
                    alive.add(m);
                }
            }
            return Leadership.isCoordinator(alive);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Member losses observed so far, oldest first (drained by the recovery). */
    public List<MemberLoss> drainLosses() {
        List<MemberLoss> out = new ArrayList<>();
        MemberLoss l;
        while ((l = losses.poll()) != null) {
            out.add(l);
        }
        return out;
    }

    /**
     * Records ranks whose death a recovery already accounted for: a late membership event about them
     * must not interrupt the new epoch.
     */
    public void acknowledgeDead(Collection<Integer> ranks) {
        synchronized (lossCheck) {
            knownDead.addAll(ranks);
        }
    }

    /**
     * The data-plane address a rank's member advertises (its host's address and its port), or null when
     * it is not (or no longer) known.
     */
    public InetSocketAddress dataAddressOf(int rank) {
        Member m = membersByRank.get(rank);
        if (m == null) {
            // the member list changes before the membership events are dispatched: a rank that just joined
            // (a respawned one, named in a directive) is in the list before its event (campaign seed 86, trial 11)
            m = currentMemberOf(rank);
            if (m == null) {
                return null;
            }
        }
        String host = m.getAttribute(HazelcastConfigs.DATA_HOST_ATTRIBUTE);
        int port = Integer.parseInt(m.getAttribute(HazelcastConfigs.DATA_PORT_ATTRIBUTE));
        return host == null ? new InetSocketAddress(InetAddress.getLoopbackAddress(), port)
                : new InetSocketAddress(host, port);
    }

    /** {@code rank}'s member in Hazelcast's member list, unless it was found dead; null if there is none. */
    private Member currentMemberOf(int rank) {
        try {
            for (Member m : hazelcast.getCluster().getMembers()) {
                if (Integer.toString(rank).equals(m.getAttribute(HazelcastConfigs.RANK_ATTRIBUTE))
                        && !lostMembers.contains(m.getUuid())) {
                    return m;
                }
            }
        } catch (RuntimeException e) {
            // Hazelcast is shutting down: no address
        }
        return null;
    }

    private void rememberMember(Member m) {
        String rank = m.getAttribute(HazelcastConfigs.RANK_ATTRIBUTE);
        if (rank != null) {
            // a second member with a rank id still held by a live one is a duplicate (a rank started twice by hand),
            // which leaves again (refuseDuplicateRank): it must not take the live one's place here
            membersByRank.compute(Integer.parseInt(rank), (r, known) -> known == null || known.getUuid().equals(m.getUuid())
                    || !hazelcast.getCluster().getMembers().contains(known) ? m : known);
        }
    }

    /**
     * Counts {@code rank}'s current member as dead before Hazelcast removes it: a death the data plane
     * confirmed (see {@link DeathWatch} for the rule) or a peer's notice of one. Records the loss
     * and interrupts the epoch; {@link #suspectInHazelcast} tells Hazelcast (it may block a moment,
     * so the caller does it on its own thread).
     *
     * @return whether this was news (false: unknown rank, already known dead, or the run ended)
     */
    public boolean rankLost(int rank, String how, Detector detectedBy, long observedAtMillis) {
        Member m = membersByRank.get(rank);
        synchronized (lossCheck) {
            if (m == null || m.localMember() || runEnded.getAsBoolean() || knownDead.contains(rank)
                    || !lostMembers.add(m.getUuid())) {
                return false;
            }
            departed.add(rank);
            dataPlane.forget(rank);
        }
        lossReasons.put(rank, how);
        countLoss(rank, "is dead (" + how + ")", detectedBy, observedAtMillis);
        control.bump();
        return true;
    }

    /** The ranks of the members in Hazelcast's member list as this member sees it (the dead not yet removed too). */
    public List<Integer> hazelcastMemberRanks() {
        List<Integer> ranks = new ArrayList<>();
        try {
            Set<UUID> listed = new HashSet<>();
            hazelcast.getCluster().getMembers().forEach(m -> listed.add(m.getUuid()));
            membersByRank.forEach((rank, m) -> {
                if (listed.contains(m.getUuid())) {
                    ranks.add(rank);
                }
            });
        } catch (RuntimeException e) {
            // this member is shutting down: nobody to suspect
        }
        ranks.sort(null);
        return ranks;
    }

    /** Whether {@code rank}'s member is Hazelcast's master (the oldest member) in this member's view. */
    public boolean isMaster(int rank) {
        Member m = membersByRank.get(rank);
        if (m == null) {
            return false;
        }
        try {
            var members = hazelcast.getCluster().getMembers();
            return !members.isEmpty() && members.iterator().next().getUuid().equals(m.getUuid());
        } catch (RuntimeException e) {
            return false; // this member is shutting down
        }
    }

    /** {@link #suspectInHazelcast(Member, String)} for the member {@link #rankLost} counted out for {@code rank}. */
    public void suspectInHazelcast(int rank) {
        Member m = membersByRank.get(rank);
        if (m != null && lostMembers.contains(m.getUuid())) {
            suspectInHazelcast(m, lossReasons.getOrDefault(rank, "found dead"));
        }
    }

    /**
     * Tells this member's Hazelcast cluster service to suspect {@code m}: on the master that removes
     * the member at once (and promotes the backups of its partitions), on the next oldest member it
     * starts the mastership claim when the master is the dead one. Internal API: without it, the
     * master waits for its own connection to the dead member to fail (130-200 ms measured), and
     * every board operation on the dead member's partitions waits with it. On failure the heartbeat
     * still removes the member.
     */
    private void suspectInHazelcast(Member m, String reason) {
        try {
            if (hazelcast instanceof HazelcastInstanceProxy proxy) {
                proxy.getOriginal().node.getClusterService().suspectMember(m, "dfr: " + reason, true);
            }
        } catch (RuntimeException | LinkageError e) {
            LOG.debug("rank {}: Hazelcast would not suspect {}: {}", rankId, m, e.toString());
        }
    }

    /** The process {@code rank}'s member advertised ({@link ProcessIdentity}), if any. */
    public Optional<ProcessIdentity> processOf(int rank) {
        Member m = membersByRank.get(rank);
        if (m == null) {
            return Optional.empty();
        }
        String boot = m.getAttribute(ProcessIdentity.BOOT_ATTRIBUTE);
        String pid = m.getAttribute(ProcessIdentity.PID_ATTRIBUTE);
        String start = m.getAttribute(ProcessIdentity.START_ATTRIBUTE);
        if (boot == null || pid == null || start == null) {
            return Optional.empty();
        }
        return Optional.of(new ProcessIdentity(boot, Long.parseLong(pid), Long.parseLong(start)));
    }

    /**
     * Waits until every rank of {@code ranks} is a live member in this member's view, unless one of
     * those missing has left. Hazelcast's member list reaches the members one after the other: a rank
     * that just joined (a respawned process) can be in the coordinator's list and not yet in this one;
     * it is not a member that left.
     *
     * @return the ranks still missing (empty when all are members here)
     */
    public Set<Integer> awaitMembers(Collection<Integer> ranks, long timeoutMillis) {
        pollUntil(() -> {
            Set<Integer> missing = missingOf(ranks);
            return missing.isEmpty() || missing.stream().anyMatch(departed::contains);
        }, timeoutMillis, 5);
        return missingOf(ranks);
    }

    private Set<Integer> missingOf(Collection<Integer> ranks) {
        Set<Integer> missing = new TreeSet<>(ranks);
        missing.removeAll(liveRanks());
        return missing;
    }

    /**
     * {@link #isLive}, or a member in Hazelcast's list whose joining this member has not handled yet: at the
     * start of a run the membership events can lag behind the member list ({@link #liveRanks}), and a rank
     * that just joined is not a dead one. A rank known to have left or been found dead is not live.
     */
    public boolean isLiveOrJoining(int rank) {
        if (isLive(rank)) {
            return true;
        }
        if (departed.contains(rank) || membersByRank.containsKey(rank)) {
            return false;
        }
        return liveRanks().contains(rank);
    }

    /**
     * Whether this rank has handled the loss of {@code rank} (found it dead or saw it leave): counted it out, and
     * interrupted its epoch unless nothing was lost ({@link #countLoss}). Not after the run ended here.
     */
    public boolean hasHandledLossOf(int rank) {
        return lossesHandled.contains(rank);
    }

    /** Whether a member of the run left or was found dead since this rank joined. */
    public boolean sawDepartures() {
        return !departed.isEmpty();
    }

    /** Whether {@code rank}'s member is a current member that nobody found dead yet. */
    public boolean isLive(int rank) {
        Member m = membersByRank.get(rank);
        return m != null && !lostMembers.contains(m.getUuid());
    }

    private void onMemberRemoved(Member m) {
        String attr = m.getAttribute(HazelcastConfigs.RANK_ATTRIBUTE);
        if (attr == null) {
            return;
        }
        int rank = Integer.parseInt(attr);
        Member known = membersByRank.get(rank);
        if (known != null && !known.getUuid().equals(m.getUuid())) {
            // a duplicate of a live rank leaving (it refused itself): the rank is not lost
            LOG.warn("rank {}: a second member with rank id {} ({}) left; the rank's own member stays", rankId, rank,
                    m.getAddress());
            control.bump();
            return;
        }
        promotionWatch.memberLeft();
        departed.add(rank);
        membersByRank.remove(rank, m);
        dataPlane.forget(rank);
        if (lostMembers.contains(m.getUuid())) {
            // already counted when the data plane found it dead: only wake the waiters
            control.bump();
            return;
        }
        synchronized (lossCheck) {
            if (runEnded.getAsBoolean() || knownDead.contains(rank)) {
                return;
            }
        }
        countLoss(rank, "left the cluster", Detector.HAZELCAST, System.currentTimeMillis());
        control.bump();
    }

    /**
     * Records the loss of {@code rank} (for the detection time of the recovery) and interrupts the epoch for it,
     * unless its end-of-run notice of this epoch arrived ({@link Mailbox#passedEnd}): then this rank's result is
     * complete without it, and it is only counted out (not live, so a recovery that another loss needs treats it as
     * dead). The verdict waits until everything {@code rank} sent here has been read ({@link EndNoticeCheck}).
     * Called once {@code rank} reads as gone ({@link #isLive}, {@link #liveRanks}), so that a rank the interruption
     * wakes does not count it among the survivors; and outside {@link #lossCheck}, which the verdict takes. A loss
     * that a recovery accounted for while its verdict was awaited interrupts nothing; one it did not account for
     * interrupts the epoch that recovery began, as a late Hazelcast event always did.
     */
    private void countLoss(int rank, String what, Detector detectedBy, long observedAtMillis) {
        endNotices.check(rank, verdict -> {
            synchronized (lossCheck) {
                if (verdict == EndNoticeCheck.Verdict.NOTHING_LOST) {
                    LOG.info("rank {}: rank {} {} after it ended the run: nothing lost", rankId, rank, what);
                } else if (runEnded.getAsBoolean() || knownDead.contains(rank)) {
                    LOG.info("rank {}: rank {} {}, already accounted for", rankId, rank, what);
                } else {
                    losses.add(new MemberLoss(rank, observedAtMillis, detectedBy));
                    LOG.info("rank {}: rank {} {}", rankId, rank, what);
                    mailbox.interruptEpoch("rank " + rank + " " + what);
                }
                lossesHandled.add(rank);
            }
            control.bump();
        });
    }

    /** Stops what waits for verdicts on losses ({@link EndNoticeCheck}). */
    public void close() {
        endNotices.close();
    }
}
