package org.dfr.runtime;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deaths of ranks that share one JVM (embedded mode), seen by the others of the JVM at once, as the
 * {@link ExitWatch} sees a rank process exit in processes mode.
 *
 * <p>Why. A killed rank of one JVM closes no data-plane socket (the ranks of one JVM hand each other their
 * messages), so its peers learnt of the death from Hazelcast alone, whose members find a terminated member
 * by their own connection failures, in whatever order they come. When the dead ranks included Hazelcast's
 * master, the member that took over often suspected the master before the other dead rank, asked that rank
 * for its member list, and Hazelcast 5.5 waited 5 s for the answer ({@code MembershipManager}, see
 * {@link DeathWatch}): 5.2 s detections in 6 of 10 runs of {@code --fail-host 0@3} (session 28) and in about
 * 1 of 3 of {@code --fail 0@8 --fail 2@8}. Told here, every survivor counts a dead rank out before its member
 * terminates, and suspects the other dead ranks before the master ({@link DeathWatch}'s sweep asks
 * {@link #isDead}). A dying master is cut off the network before anyone is told ({@link MasterSilence}): alive
 * while they were, it could remove the first rank that suspected it.
 *
 * <p>Deaths planned at the same point ({@code --fail 0@8 --fail 2@8}, a host's ranks) are made simultaneous:
 * each victim is marked dying, then waits ({@link #dyingWith}, bounded) until the others are marked too, so that
 * whichever death the survivors hear of first, the others already read as exited. Ranks of one JVM reach such a
 * point within milliseconds of each other; a bounded wait keeps a victim that never comes (it died earlier, or
 * is an idle spare told late) from holding the others.
 *
 * <p>A JVM of one rank (processes mode) has no peers here: {@link #none()}, an empty registry, tells nobody and
 * waits for nobody.
 */
public final class InJvmDeaths {

    private static final Logger LOG = LoggerFactory.getLogger(InJvmDeaths.class);

    /** How a rank that died here reads to its peers (for messages). */
    public static final String HOW = "its member was terminated in this JVM";

    /** A rank of this JVM that is told of the others' deaths. */
    @FunctionalInterface
    public interface Witness {
        /** {@code rank} died (or is dying) in this JVM: {@code how} says so for messages. */
        void deathSeen(int rank, String how);
    }

    private final Map<Integer, Witness> witnesses = new ConcurrentHashMap<>();
    private final Set<Integer> dying = ConcurrentHashMap.newKeySet();
    private final Object marks = new Object();
    private volatile boolean closed;

    /** A registry for the ranks of one JVM, none registered yet. */
    public InJvmDeaths() {
    }

    /** The registry of a JVM that runs one rank: nobody to tell, nobody to wait for. */
    public static InJvmDeaths none() {
        return new InJvmDeaths();
    }

    /** Registers {@code rank} of this JVM: it is told of the others' deaths, and theirs are waited for. */
    public void register(int rank, Witness witness) {
        witnesses.put(rank, witness);
    }

    /**
     * Stops telling anyone: the run is over (a rank failed and the others are being stopped), and a death now is
     * no news to act on.
     */
    public void close() {
        closed = true;
        synchronized (marks) {
            marks.notifyAll(); // a rank waiting for the others of its point dies now
        }
    }

    /** Whether {@code rank} died or is dying in this JVM (false: alive, or not a rank of it). */
    public boolean isDead(int rank) {
        return dying.contains(rank);
    }

    /**
     * Marks {@code rank} dying, then waits at most {@code maxWaitMillis} until every rank of {@code together} that
     * is registered here is dying too (see the class comment).
     *
     * @return whether all of them were (false: the wait ran out, or it was interrupted)
     */
    public boolean dyingWith(int rank, Collection<Integer> together, long maxWaitMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxWaitMillis);
        synchronized (marks) {
            dying.add(rank);
            marks.notifyAll();
            while (!allDying(together)) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || closed) {
                    LOG.info("rank {}: dies without ranks {} of the same point (not dying after {} ms)", rank,
                            together.stream().filter(r -> witnesses.containsKey(r) && !dying.contains(r)).toList(),
                            maxWaitMillis);
                    return false;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(marks, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    private boolean allDying(Collection<Integer> together) {
        for (int r : together) {
            if (witnesses.containsKey(r) && !dying.contains(r)) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code rank} died: every other rank of this JVM that is not dying itself is told, on the calling thread
     * (the dead rank's own, before its member terminates).
     */
    public void died(int rank) {
        synchronized (marks) {
            dying.add(rank);
            marks.notifyAll();
        }
        for (Map.Entry<Integer, Witness> w : witnesses.entrySet()) {
            if (closed) {
                return;
            }
            if (w.getKey() != rank && !dying.contains(w.getKey())) {
                try {
                    w.getValue().deathSeen(rank, HOW);
                } catch (RuntimeException e) {
                    // a peer closing at this moment: the death must still go ahead
                    LOG.debug("rank {}: could not tell rank {} of its death: {}", rank, w.getKey(), e.toString());
                }
            }
        }
    }
}
