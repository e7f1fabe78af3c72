package org.dfr.runtime.net;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;

/**
 * Messages that arrived and are not consumed yet, keyed by {@link MessageKey}. Messages of an
 * epoch older than the current one are dropped on arrival and purged when the epoch advances;
 * messages of a newer epoch are kept, because a faster peer may already be in it.
 *
 * <p>With an {@link Inbound} attached (the sockets of a {@link DataPlane}), the thread that waits
 * for a message reads the sockets itself, so a message that arrives while its rank waits reaches
 * it with one wake-up instead of two (reader thread, then waiter). Measured on 8 rank processes
 * sharing 2 cores, where every wake-up waits for a busy CPU: see docs/bench.md. One thread reads
 * at a time; the others wait on the mailbox as before.
 */
public final class Mailbox {

    /**
     * The longest a waiter reads before it checks the mailbox again, for deliveries that do not
     * come through the sockets it reads (the same JVM) and whose wake-up it might miss.
     */
    static final long MAX_READ_SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** Inbound connections that a waiting thread can read itself. */
    public interface Inbound {
        /**
         * Reads what has arrived, waiting at most {@code timeoutNanos} for something to arrive
         * ({@code 0}: no wait), and delivers every complete message to the mailbox.
         *
         * @return false once the connections are closed for good
         */
        boolean readFor(long timeoutNanos);

        /** Makes a {@link #readFor} in progress return soon. */
        void wakeUp();

        /**
         * Whether there is a connection to read. Without one (ranks in one JVM hand messages over
         * directly), a waiter just waits on the mailbox.
         */
        boolean hasConnections();
    }

    /**
     * Takes the messages that nobody waits for with {@link #take}: death notices and the recovery's
     * statuses and directives, which must arrive while the epoch is interrupted.
     */
    public interface SideChannel {
        /** Called on the delivering thread, outside the mailbox's lock; must not block. */
        void accept(MessageKey key, double[] payload);
    }

    /**
     * Takes the {@link MessageKind#isReplica() replica} messages (checkpoint copies between ranks), and may
     * lend the arrays their payloads arrive in.
     */
    public interface ReplicaChannel extends SideChannel {
        /**
         * An array of {@code length} doubles for the payload of an arriving replica message of {@code kind},
         * which then belongs to the message. Called on the delivering thread; must not block.
         */
        default double[] payloadArray(MessageKind kind, int length) {
            return new double[length];
        }
    }

    private volatile SideChannel sideChannel = (k, p) -> { };
    private volatile ReplicaChannel replicaChannel = (k, p) -> { };
    private final ReentrantLock lock = new ReentrantLock();
    /** Held by the one thread that reads the inbound connections. */
    private final ReentrantLock readerRole = new ReentrantLock();
    /** Passes over the inbound connections begun, written under {@link #readerRole}. */
    private volatile long readPasses;
    /** A pass was asked for ({@link #passNow}): the next one does not wait for frames. */
    private volatile boolean passAskedFor;
    private volatile LongConsumer readPassListener = n -> { };
    private volatile Inbound inbound;
    private volatile Thread reader;
    private final Condition changed = lock.newCondition();
    private final Map<MessageKey, double[]> messages = new HashMap<>();
    private int epoch;
    private boolean interrupted;
    private String interruptReason = "";
    /**
     * Recoveries announced in an epoch this mailbox has not entered yet, by epoch: the announcing rank
     * entered it first (it took the directive sooner) and failed in it, so the epoch is over for
     * everybody, and entering it interrupts at once (campaign seed 96, trial 22: dropped, the others ran
     * on in that epoch and waited 60 s for the announcing rank's halos).
     */
    private final TreeMap<Integer, String> announcedAhead = new TreeMap<>();
    /**
     * The newest epoch in which each rank sent its {@link MessageKind#END_BARRIER end-of-run notice}, by rank: it
     * handed over its final states and statistics then, so its departure no longer loses anything ({@link #passedEnd}).
     */
    private final Map<Integer, Integer> endNoticeEpochs = new HashMap<>();
    private long dropped;

    /**
     * Routes {@link MessageKind#RANK_LOST}, {@link MessageKind#STATUS} and {@link MessageKind#DIRECTIVE}
     * messages of the current epoch or a newer one to {@code channel} instead of storing them.
     */
    public void attachSideChannel(SideChannel channel) {
        this.sideChannel = channel == null ? (k, p) -> { } : channel;
    }

    /**
     * Routes every {@link MessageKind#isReplica() replica} message to {@code channel}, whatever its epoch:
     * a holder keeps and serves checkpoint copies whatever its own rank is doing, recovery included.
     */
    public void attachReplicaChannel(ReplicaChannel channel) {
        this.replicaChannel = channel == null ? (k, p) -> { } : channel;
    }

    /**
     * An array for the payload of an arriving message of {@code kind}: the replica channel's for replica
     * messages (a holder recycles the arrays of the copies it dropped), else a new one.
     */
    public double[] payloadArray(MessageKind kind, int length) {
        return kind.isReplica() ? replicaChannel.payloadArray(kind, length) : new double[length];
    }

    private static boolean isSideKind(MessageKind kind) {
        return kind == MessageKind.RANK_LOST || kind == MessageKind.STATUS || kind == MessageKind.DIRECTIVE;
    }

    /** Stores a message unless it belongs to an epoch that is already over. */
    public void deliver(MessageKey key, double[] payload) {
        if (key.kind().isReplica()) {
            replicaChannel.accept(key, payload);
            return;
        }
        boolean side = false;
        lock.lock();
        try {
            if (key.epoch() < epoch) {
                dropped++;
                return;
            }
            if (isSideKind(key.kind())) {
                side = true;
                return;
            }
            if (key.kind() == MessageKind.END_BARRIER) {
                endNoticeEpochs.merge(key.a(), key.epoch(), Math::max);
            }
            if (key.kind() == MessageKind.RECOVERY_START) {
                String reason = "rank " + key.a() + " started a recovery in epoch " + key.epoch();
                if (key.epoch() == epoch && !interrupted) {
                    interrupted = true;
                    interruptReason = reason;
                    changed.signalAll();
                } else if (key.epoch() > epoch) {
                    announcedAhead.putIfAbsent(key.epoch(), reason);
                }
                return;
            }
            messages.put(key, payload);
            changed.signalAll();
        } finally {
            lock.unlock();
            if (side) {
                sideChannel.accept(key, payload);
            }
        }
        wakeReaderUnlessCurrent();
    }

    /**
     * Attaches the connections that waiters read themselves. Until then (and after they close),
     * messages only arrive through {@link #deliver}.
     */
    public void attach(Inbound connections) {
        this.inbound = connections;
    }

    /**
     * Reads the inbound connections without waiting, unless a waiter is reading them: so that
     * messages are taken off the sockets (and their senders never block) while nobody waits.
     */
    public void readIfNobodyReads() {
        Inbound in = inbound;
        // the reading thread itself may get here (a delivery's consequence): a read nested in its read would
        // take the ready connections from under it
        if (in == null || !in.hasConnections() || readerRole.isHeldByCurrentThread() || !readerRole.tryLock()) {
            return;
        }
        try {
            readAs(in, 0);
        } finally {
            readerRole.unlock();
        }
        signalWaiters();
    }

    /**
     * Waits for a message of the current epoch.
     *
     * @throws EpochChangedException if {@link #interruptEpoch} is called meanwhile
     * @throws CommunicationException if nothing arrives within the timeout
     */
    public double[] take(MessageKey key, long timeoutMillis) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        lock.lock();
        try {
            while (true) {
                if (interrupted) {
                    throw new EpochChangedException(interruptReason);
                }
                if (key.epoch() < epoch) {
                    throw new EpochChangedException("epoch " + key.epoch() + " is over (now " + epoch + ")");
                }
                double[] payload = messages.remove(key);
                if (payload != null) {
                    return payload;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw CommunicationException.timedOut("no message " + key + " within " + timeoutMillis + " ms");
                }
                Inbound in = inbound;
                if (in != null && in.hasConnections() && readerRole.tryLock()) {
                    // set before the mailbox lock is released: a delivery from now on wakes this reader
                    reader = Thread.currentThread();
                    lock.unlock();
                    try {
                        readAs(in, Math.min(left, MAX_READ_SLICE_NANOS));
                        if (Thread.currentThread().isInterrupted()) {
                            // a selector returns at once to an interrupted thread: do not spin
                            throw new InterruptedException();
                        }
                    } finally {
                        reader = null;
                        readerRole.unlock();
                        lock.lock();
                        // another waiter may have given up reading to this one: its turn now
                        changed.signalAll();
                    }
                } else {
                    changed.awaitNanos(left);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EpochChangedException("interrupted while waiting for " + key);
        } finally {
            lock.unlock();
        }
    }

    /** Makes every current and future wait throw until {@link #enterEpoch} is called. */
    public void interruptEpoch(String reason) {
        lock.lock();
        try {
            interrupted = true;
            interruptReason = reason;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        wakeReaderUnlessCurrent();
    }

    /**
     * Reads the inbound connections for up to {@code timeoutNanos} (returning once something arrived), unless
     * another thread reads them: for a thread that waits for something other than a stored message (a
     * checkpoint copy fetched from a holder), which otherwise reaches it only as fast as the idle reader
     * drains the sockets, a few slices every {@link DataPlane#IDLE_READ_INTERVAL_MILLIS} ms.
     *
     * @return whether this thread read (false: nothing to read here, or another thread reads)
     */
    public boolean readWhileWaiting(long timeoutNanos) {
        Inbound in = inbound;
        if (in == null || !in.hasConnections() || readerRole.isHeldByCurrentThread() || !readerRole.tryLock()) {
            return false;
        }
        try {
            reader = Thread.currentThread();
            readAs(in, timeoutNanos);
        } finally {
            reader = null;
            readerRole.unlock();
        }
        signalWaiters();
        return true;
    }

    private void readAs(Inbound in, long timeoutNanos) {
        long pass = ++readPasses; // under the reader role
        // a pass asked for begins now: it takes what is there and does not wait for more
        long wait = passAskedFor ? 0 : timeoutNanos;
        passAskedFor = false;
        try {
            if (!in.readFor(wait)) {
                inbound = null;
            }
        } finally {
            readPassListener.accept(pass);
        }
    }

    /**
     * How many passes over the inbound connections have begun. Passes follow one another (one reader at a time),
     * and a pass delivers every frame that was complete in a socket when it began: once a pass numbered above
     * this figure has ended, everything that had arrived here by now is delivered.
     */
    public long readPassesBegun() {
        return readPasses;
    }

    /**
     * Makes a pass over the inbound connections begin at once and end without waiting for more: on this thread if
     * nobody reads, else on the reading thread, woken from its wait ({@link #readPassesBegun}).
     */
    public void passNow() {
        passAskedFor = true;
        wakeReaderUnlessCurrent();
        readIfNobodyReads();
    }

    /**
     * Sets who is told the number of each pass over the inbound connections once it ended ({@link #readPassesBegun}).
     * Called on the reading thread, which still holds the reading role; must not block.
     */
    public void onReadPassEnded(LongConsumer listener) {
        this.readPassListener = listener == null ? n -> { } : listener;
    }

    private void wakeReaderUnlessCurrent() {
        Thread r = reader;
        Inbound in = inbound;
        if (r != null && r != Thread.currentThread() && in != null) {
            in.wakeUp();
        }
    }

    private void signalWaiters() {
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether {@code rank}'s {@link MessageKind#END_BARRIER end-of-run notice} of the current epoch arrived here:
     * the rank has handed its final states to the root and its statistics to the cluster, and sends its notice
     * only then, so if it departs from now on the run's result is complete without it (unless it is the root, which
     * still has to hand the results over: its launcher reports that). Such a departure must not interrupt a rank
     * that still waits at the end (the leaver can be the collector, which leaves once it read the results): this
     * rank would otherwise start a recovery alone after the others ended. The notice may still be in the mailbox,
     * not taken yet: what counts is that it arrived. Over TCP it may also still be unread when the departure is seen by
     * another path than its connection (a process exit, a peer's notice): a loss is therefore judged only once the
     * departed rank's connections here have been read to their end ({@code EndNoticeCheck}).
     */
    public boolean passedEnd(int rank) {
        lock.lock();
        try {
            Integer e = endNoticeEpochs.get(rank);
            return e != null && e == epoch;
        } finally {
            lock.unlock();
        }
    }

    /** Whether waits are currently interrupted. */
    public boolean isInterrupted() {
        lock.lock();
        try {
            return interrupted;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Starts epoch {@code newEpoch}: older messages are purged, waits work again, unless a rank already
     * announced a recovery in that epoch (then they throw at once, as if it had arrived now).
     */
    public void enterEpoch(int newEpoch) {
        lock.lock();
        try {
            epoch = Math.max(epoch, newEpoch);
            String announced = announcedAhead.get(epoch);
            announcedAhead.headMap(epoch, true).clear();
            interrupted = announced != null;
            interruptReason = announced == null ? "" : announced;
            for (Iterator<MessageKey> it = messages.keySet().iterator(); it.hasNext(); ) {
                if (it.next().epoch() < epoch) {
                    it.remove();
                    dropped++;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    public int epoch() {
        lock.lock();
        try {
            return epoch;
        } finally {
            lock.unlock();
        }
    }

    /** Number of stale messages dropped so far. */
    public long droppedCount() {
        lock.lock();
        try {
            return dropped;
        } finally {
            lock.unlock();
        }
    }
}
