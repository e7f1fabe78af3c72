package org.dfr.runtime.net;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Messages that arrived and are not consumed yet, keyed by {@link MessageKey}. Messages of an
 * epoch older than the current one are dropped on arrival and purged when the epoch advances;
 * messages of a newer epoch are kept, because a faster peer may already be in it.
 */
public final class Mailbox {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<MessageKey, double[]> messages = new HashMap<>();
    private int epoch;
    private boolean interrupted;
    private String interruptReason = "";
    private long dropped;

    /** Stores a message unless it belongs to an epoch that is already over. */
    public void deliver(MessageKey key, double[] payload) {
        lock.lock();
        try {
            if (key.epoch() < epoch) {
                dropped++;
                return;
            }
            if (key.kind() == MessageKind.RECOVERY_START) {
                if (key.epoch() == epoch && !interrupted) {
                    interrupted = true;
                    interruptReason = "rank " + key.a() + " started a recovery in epoch " + key.epoch();
                    changed.signalAll();
                }
                return;
            }
            messages.put(key, payload);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
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
                    throw new CommunicationException("no message " + key + " within " + timeoutMillis + " ms", null);
                }
                changed.awaitNanos(left);
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

    /** Starts epoch {@code newEpoch}: older messages are purged, waits work again. */
    public void enterEpoch(int newEpoch) {
        lock.lock();
        try {
            epoch = Math.max(epoch, newEpoch);
            interrupted = false;
            interruptReason = "";
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
