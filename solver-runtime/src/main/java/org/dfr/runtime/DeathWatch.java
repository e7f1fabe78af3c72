package org.dfr.runtime;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import java.util.function.IntSupplier;
import org.dfr.runtime.net.CommunicationException;
import org.dfr.runtime.net.DataPlane;
import org.dfr.runtime.net.MessageKey;
import org.dfr.runtime.net.MessageKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds dead ranks through the data plane, in milliseconds, instead of waiting for Hazelcast.
 *
 * <p>The rule. A peer's data-plane connection that ends without the goodbye of an orderly close
 * (EOF or reset: the kernel closes the sockets of a SIGKILLed process at once) is only a
 * <em>suspicion</em>. It is <em>confirmed</em> when a new connection to the peer's listening socket is
 * refused ({@link DataPlane#probe}), or, when it is accepted, reset or closed within
 * {@link #LINGER_MILLIS} (the kernel closes a dying process's sockets one after the other, so its
 * listening socket may outlive the connection that ended by a moment, and then resets what waits in it). Why that is safe: the listening socket of a rank is closed only
 * when its process is gone or the rank closed its data plane, which it does only when it leaves the
 * run; in both cases the rank will never again take part, so counting it out loses nothing. A rank
 * that is merely slow or paused (SIGSTOP, a long GC) keeps its sockets: no connection of its ends,
 * and a probe would be accepted by its kernel. A probe that neither connects nor is refused within
 * {@link #PROBE_TIMEOUT_MILLIS} (a host that vanished without closing anything) decides nothing: Hazelcast's
 * heartbeat ({@link ClusterSettings#maxNoHeartbeatMillis()}) does, as before.
 *
 * <p>The survivor that confirms a death tells every other live rank with an epoch-tagged
 * {@link MessageKind#RANK_LOST} notice, so that all stop within their current iteration, and every
 * survivor that learns of it asks Hazelcast to suspect the member ({@link Membership#rankLost}).
 * A peer on a loopback address (every rank of a run on one machine) is probed at once on the thread
 * that saw its connection end: the kernel refuses or accepts such a connection without waiting, and
 * a hand-over to another thread costs a wake-up (tens of milliseconds on a loaded machine). A peer on
 * another host is probed on the watch's own thread, so that no reading thread waits for an answer;
 * the notices and Hazelcast's suspicion are always sent from there.
 *
 * <p>Before Hazelcast is told to suspect the master, every other rank whose process on this machine has exited
 * ({@code exitedNow}, a read of {@code /proc}) or whose member died in this JVM ({@link InJvmDeaths}) is suspected
 * first. The member that takes over from a dead master asks
 * every member it does not suspect for its member list, and Hazelcast 5.5 waits up to 5 s for an answer that a dead
 * member never gives: with the master and another rank killed a few milliseconds apart, the takeover, and every board
 * operation of the recovery behind it, stalled 5 s whenever the other death was still unknown to the new master
 * (agreement 5.7-6.1 s in 5 of 9 recoveries of {@code --mode processes --fail 0@8 --fail 2@8}).
 */
public final class DeathWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DeathWatch.class);

    /**
     * How long a probe may take to connect. A refusal on loopback or a live host takes well under a
     * millisecond; a host that does not answer at all is left to Hazelcast's heartbeat.
     */
    public static final int PROBE_TIMEOUT_MILLIS = 500;
    /**
     * How long an accepted probe connection is watched for a reset when the first probe found the
     * peer's socket open. A live peer keeps it open (the probe costs it nothing more); a dying one
     * closes its listening socket within microseconds to milliseconds.
     */
    public static final int LINGER_MILLIS = 200;

    private final int rankId;
    private final DataPlane dataPlane;
    private final Membership membership;
    private final IntSupplier epoch;
    private final IntFunction<String> exitedNow;
    private final IntPredicate diedInThisJvm;
    private final ExecutorService prober;
    /** Suspicions being probed, so that a burst of lost connections to one rank probes it once. */
    private final Set<Integer> probing = ConcurrentHashMap.newKeySet();

    /**
     * @param epoch     the rank's current epoch, which the notices carry
     * @param exitedNow how rank {@code r}'s process exited, read now, or null while it lives or cannot be read from
     *                  here (another machine): only a process that exited counts, never a slow one
     * @param diedInThisJvm whether rank {@code r} shares this JVM and died or is dying ({@link InJvmDeaths})
     */
    public DeathWatch(int rankId, DataPlane dataPlane, Membership membership, IntSupplier epoch,
                      IntFunction<String> exitedNow, IntPredicate diedInThisJvm) {
        this.rankId = rankId;
        this.dataPlane = dataPlane;
        this.membership = membership;
        this.epoch = epoch;
        this.exitedNow = exitedNow;
        this.diedInThisJvm = diedInThisJvm;
        this.prober = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "dfr-rank" + rankId + "-death-watch");
            t.setDaemon(true);
            return t;
        });
        dataPlane.onPeerConnectionLost(this::suspect);
    }

    /** A connection to {@code rank} ended without a goodbye: probe it on the watch's thread. */
    void suspect(int rank) {
        if (rank == rankId || !membership.isLive(rank) || !probing.add(rank)) {
            return;
        }
        long suspectedAt = System.nanoTime();
        if (dataPlane.isOnLoopback(rank)
                && dataPlane.probe(rank, PROBE_TIMEOUT_MILLIS) == DataPlane.PeerState.DEAD) {
            try {
                confirmed(rank, suspectedAt);
            } finally {
                probing.remove(rank);
            }
            return;
        }
        // not refused at once: watch a probe connection for a while, on the watch's thread
        onWatchThread(() -> {
            try {
                confirm(rank, suspectedAt);
            } finally {
                probing.remove(rank);
            }
        });
    }

    private void onWatchThread(Runnable task) {
        try {
            prober.execute(task);
        } catch (RejectedExecutionException e) {
            // closing: nothing to do any more
        }
    }

    private void confirm(int rank, long suspectedAtNanos) {
        DataPlane.PeerState state = dataPlane.probe(rank, PROBE_TIMEOUT_MILLIS, LINGER_MILLIS);
        if (state != DataPlane.PeerState.DEAD) {
            LOG.info("rank {}: the connection of rank {} ended, but the rank is {} (probe {} us): no recovery from that",
                    rankId, rank, state == DataPlane.PeerState.ALIVE ? "alive" : "not known dead",
                    (System.nanoTime() - suspectedAtNanos) / 1_000);
            return;
        }
        confirmed(rank, suspectedAtNanos);
    }

    private void confirmed(int rank, long suspectedAtNanos) {
        long probeMicros = (System.nanoTime() - suspectedAtNanos) / 1_000;
        if (!membership.rankLost(rank, "its connection ended and its socket refuses connections, confirmed by rank "
                + rankId + " in " + probeMicros + " us", Detector.DATA_PLANE, System.currentTimeMillis())) {
            return;
        }
        onWatchThread(() -> tellOthers(rank));
    }

    /** Sends the {@link MessageKind#RANK_LOST} notice to every other live rank, and tells Hazelcast. */
    private void tellOthers(int rank) {
        suspectInHazelcast(rank);
        sendNotices(rank);
    }

    private void sendNotices(int rank) {
        int e = epoch.getAsInt();
        double[] empty = new double[0];
        for (int r : membership.liveRanks()) {
            if (r != rankId) {
                try {
                    dataPlane.send(r, new MessageKey(e, MessageKind.RANK_LOST, 0, rank, rankId), empty);
                } catch (CommunicationException ex) {
                    LOG.debug("rank {}: cannot tell rank {} that rank {} is dead: {}", rankId, r, rank, ex.getMessage());
                }
            }
        }
    }

    /**
     * {@link ExitWatch} saw {@code rank}'s process exit: the death is certain, so count it out and tell
     * the others at once, on the calling thread (the exit watch's own; a hand-over to another thread
     * costs a wake-up), before asking Hazelcast to suspect the member.
     */
    public void exitSeen(int rank, String how) {
        if (rank == rankId || !membership.isLive(rank)) {
            return;
        }
        if (!membership.rankLost(rank, how + ", seen by rank " + rankId + " in /proc", Detector.EXIT_WATCH,
                System.currentTimeMillis())) {
            return;
        }
        sendNotices(rank);
        suspectInHazelcast(rank);
    }

    /**
     * A rank of this JVM died ({@link InJvmDeaths}): every rank of the JVM is told directly, so no notices; count it
     * out and suspect it in Hazelcast at once, on the calling thread (the dead rank's, before its member terminates).
     */
    public void jvmPeerDied(int rank, String how) {
        if (rank == rankId || !membership.isLive(rank)) {
            return;
        }
        if (membership.rankLost(rank, how + ", seen by rank " + rankId, Detector.SAME_JVM, System.currentTimeMillis())) {
            suspectInHazelcast(rank);
        }
    }

    /** A peer's {@link MessageKind#RANK_LOST} notice: it confirmed the death, so it counts here too. */
    void noticeReceived(MessageKey key) {
        int rank = key.a();
        if (membership.rankLost(rank, "notice from rank " + key.b(), Detector.NOTICE, System.currentTimeMillis())) {
            onWatchThread(() -> suspectInHazelcast(rank));
        }
    }

    /**
     * Asks Hazelcast to suspect {@code rank}'s member; when it is the master, every other rank whose process has exited
     * is counted out and suspected before it (see the class comment).
     */
    private void suspectInHazelcast(int rank) {
        if (membership.isMaster(rank)) {
            for (int other : membership.hazelcastMemberRanks()) {
                if (other == rankId || other == rank) {
                    continue;
                }
                if (!membership.isLive(other)) {
                    // counted out here already, its suspicion still queued behind this one
                    membership.suspectInHazelcast(other);
                    continue;
                }
                String before = " (read before suspecting the master, rank " + rank + ")";
                if (diedInThisJvm.test(other)) {
                    jvmPeerDied(other, InJvmDeaths.HOW + before);
                    continue;
                }
                String how = exitedNow.apply(other);
                if (how != null) {
                    exitSeen(other, how + before);
                }
            }
        }
        membership.suspectInHazelcast(rank);
    }

    @Override
    public void close() {
        prober.shutdownNow();
    }
}
