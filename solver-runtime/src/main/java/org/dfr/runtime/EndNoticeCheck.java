package org.dfr.runtime;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.dfr.runtime.net.DataPlane;
import org.dfr.runtime.net.Mailbox;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a rank found lost had already ended the run, judged only once everything it sent to this rank has been
 * read.
 *
 * <p>A rank sends its end-of-run notice ({@link Mailbox#passedEnd}) once its final states are with the root and its
 * statistics in the cluster: if it dies or leaves after that, nothing is lost, and the ranks still at the end must
 * not start a recovery for it. Its death is often seen first by another path than its own connection: the exit
 * watch, a peer's notice, Hazelcast. Its notice may then sit unread in a socket, or in a connection still waiting
 * in the listening socket's queue (the notice is the first message to a rank it never exchanged data with). Judged
 * at that moment, the loss would interrupt this rank's epoch for nothing; and one rank that starts a recovery
 * interrupts all the others (campaigns on session 24's build: the end-of-run window).
 *
 * <p>So a loss whose notice has not arrived yet is judged only once what the lost rank sent here has been read.
 * Connections waiting in the queue are admitted first, and a pass over the sockets is asked for at once
 * ({@link Mailbox#passNow}: a reader blocked in its wait would otherwise end its pass only when more arrives). A rank
 * with no open connection here is judged at once: nothing of it can still arrive. Otherwise:
 * <ul>
 *   <li>a rank on this machine (its connection came from a loopback address, {@link DataPlane#isInboundFromLoopback}):
 *       after the next complete pass over the sockets ({@link Mailbox#readPassesBegun}) that read nothing more of
 *       it. Over loopback a write is in the receiver's socket when it returns (unless that socket is full: then
 *       bytes of it come in the pass, and the next pass decides), so whatever the rank sent before it died is there
 *       by the time anybody can see it dead. Waiting for the end of its stream instead would wait for its process to
 *       tear down its memory first: the exit watch sees a dying process tens of milliseconds before the kernel
 *       closes its sockets (measured, docs/bench.md "Session 25"). Not covered: a kernel that defers loopback
 *       delivery to its softirq thread past the pass, which then gives a needless recovery, as before;</li>
 *   <li>a rank on another host: when its last inbound connection here has ended (the kernel closes a dead
 *       process's sockets, and everything sent before is read before the end of the stream), so that no frame
 *       still on the wire is missed.</li>
 * </ul>
 * A host that vanished closes nothing: then the verdict comes after {@link #MAX_WAIT_MILLIS}, on top of Hazelcast's
 * heartbeat timeout.
 */
final class EndNoticeCheck implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EndNoticeCheck.class);

    /** The longest a verdict waits by default for the lost rank's inbound connections to end. */
    static final long MAX_WAIT_MILLIS = 200;

    /** What a loss cost. */
    enum Verdict {
        /** Its end-of-run notice of the current epoch arrived: the run's result is complete without it. */
        NOTHING_LOST,
        /** Nothing says it ended the run: a failure to recover from. */
        LOST
    }

    /**
     * Who waits for the verdict on a rank whose connections are still open, and from which read pass on a pass
     * decides (a rank on another host: none does, only the end of its connections or the longest wait).
     */
    private static final class Waiter {
        static final long NO_PASS = Long.MAX_VALUE;
        final Consumer<Verdict> then;
        final long afterPass;
        volatile Future<?> timeout;

        Waiter(Consumer<Verdict> then, long afterPass) {
            this.then = then;
            this.afterPass = afterPass;
        }
    }

    private final DataPlane dataPlane;
    private final Mailbox mailbox;
    private final long maxWaitMillis;
    private final ScheduledExecutorService timer;
    private final Map<Integer, Waiter> waiting = new ConcurrentHashMap<>();

    EndNoticeCheck(int rankId, DataPlane dataPlane, Mailbox mailbox) {
        this(rankId, dataPlane, mailbox, MAX_WAIT_MILLIS);
    }

    /** @param maxWaitMillis the longest a verdict waits for the lost rank's connections to end */
    EndNoticeCheck(int rankId, DataPlane dataPlane, Mailbox mailbox, long maxWaitMillis) {
        this.dataPlane = dataPlane;
        this.mailbox = mailbox;
        this.maxWaitMillis = maxWaitMillis;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "dfr-rank" + rankId + "-end-notice-check");
            t.setDaemon(true);
            return t;
        });
        dataPlane.onInboundEnded(this::inboundEnded);
        mailbox.onReadPassEnded(this::readPassEnded);
    }

    /**
     * Gives the verdict on {@code rank} to {@code then}, exactly once: at once when its notice arrived or no
     * connection of it is open here, otherwise as the class comment says, and at the latest after the longest wait.
     * {@code then} runs on this thread, a reading thread or the timer's, and must take its own locks. A check of a
     * rank that is already waiting for its verdict is dropped (the first one's caller hears it). Call it holding no
     * lock a delivery may need: it admits queued connections and may read the sockets.
     */
    void check(int rank, Consumer<Verdict> then) {
        if (waiting.containsKey(rank)) {
            return;
        }
        if (mailbox.passedEnd(rank)) {
            then.accept(Verdict.NOTHING_LOST);
            return;
        }
        dataPlane.acceptPending();
        // the pass under way may have looked at the sockets before the last frames arrived: the next one counts
        long afterPass = dataPlane.isInboundFromLoopback(rank) ? mailbox.readPassesBegun() : Waiter.NO_PASS;
        Waiter w = new Waiter(then, afterPass);
        if (waiting.putIfAbsent(rank, w) != null) {
            return;
        }
        if (!dataPlane.hasOpenInboundFrom(rank)) {
            decide(rank, w);
            return;
        }
        try {
            w.timeout = timer.schedule(() -> decide(rank, w), maxWaitMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            decide(rank, w); // closing
            return;
        }
        mailbox.passNow();
    }

    /** Whether the verdict on {@code rank} is still awaited. */
    boolean isWaitingFor(int rank) {
        return waiting.containsKey(rank);
    }

    private void inboundEnded(int rank) {
        Waiter w = waiting.get(rank);
        if (w != null && !dataPlane.hasOpenInboundFrom(rank)) {
            decide(rank, w);
        }
    }

    /**
     * A pass begun after the check read everything that had arrived from the rank by then. Unless bytes of it came
     * in that very pass (its socket was full, the rest waited in its send queue; or a frame came in pieces): then
     * the next pass decides, or the end of its connection.
     */
    private void readPassEnded(long pass) {
        if (waiting.isEmpty()) {
            return;
        }
        for (Map.Entry<Integer, Waiter> e : waiting.entrySet()) {
            int rank = e.getKey();
            Waiter w = e.getValue();
            if (pass <= w.afterPass) {
                continue;
            }
            if (mailbox.passedEnd(rank) || dataPlane.lastPassWithDataFrom(rank) != pass) {
                decide(rank, w);
            } else {
                mailbox.passNow();
            }
        }
    }

    private void decide(int rank, Waiter w) {
        if (!waiting.remove(rank, w)) {
            return;
        }
        Future<?> timeout = w.timeout;
        if (timeout != null) {
            timeout.cancel(false);
        }
        try {
            w.then.accept(mailbox.passedEnd(rank) ? Verdict.NOTHING_LOST : Verdict.LOST);
        } catch (RuntimeException e) {
            // on a reading thread: the rank must go on reading
            LOG.warn("the verdict on rank {} failed: {}", rank, e.toString());
        }
    }

    /** Stops the timer; verdicts still awaited come when the lost ranks' connections end, or never. */
    @Override
    public void close() {
        timer.shutdownNow();
    }
}
