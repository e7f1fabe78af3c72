package org.dfr.runtime;

import com.hazelcast.map.IMap;
import com.hazelcast.spi.exception.TargetNotMemberException;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The replicated key-value board the ranks agree through (statuses, directives, end of run). A
 * version number moves on every change of the board and on every membership change, so a waiter
 * can re-evaluate its condition whenever anything happened, without polling on a timer.
 *
 * <p>Every member keeps its own copy of the entries it wrote or heard of ({@link HeardEntries}), for
 * {@link #entries}, the report's read of the board: a board entry can be lost with its holders, as the failure
 * records were ({@link FailureLog}). The protocol's reads ({@link #get}) go to the map alone, as they always did.
 */
public final class ControlBoard {

    /** How often a waiter re-reads the map in case an entry event was missed or is late. */
    static final long MISSED_EVENT_RECHECK_MILLIS = 100;

    private final IMap<String, String> map;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private long version;

    private final PromotionRetry retry;
    private final HeardEntries<String, String> heard = new HeardEntries<>(HazelcastConfigs.CONTROL_MAP, this::bump);

    public ControlBoard(IMap<String, String> map, PromotionRetry retry) {
        this.map = map;
        this.retry = retry;
        map.addEntryListener(heard, true);
    }

    /** Writes a value with its synchronous backups. */
    public void put(String key, String value) {
        retry.run(() -> map.set(key, value));
        heard.remember(key, value);
        bump();
    }

    /** Writes a value unless one is present; returns the value that is on the board afterwards. */
    public String putIfAbsent(String key, String value) {
        String previous = retry.call(() -> map.putIfAbsent(key, value));
        String onBoard = previous == null ? value : previous;
        heard.remember(key, onBoard);
        bump();
        return onBoard;
    }

    /**
     * Every entry of the board, in key order, for the report: the map's, and those this member wrote or heard of
     * that the map lost with their holders (for a key in both, the map's, the last written).
     */
    public NavigableMap<String, String> entries() {
        return heard.mergedWith(retry.call(() -> new TreeMap<>(map)));
    }

    public String get(String key) {
        return retry.call(() -> map.get(key));
    }

    /**
     * {@link #get}, but null, as for an absent key, while the key's partition awaits its promoted owner: for a
     * waiter that learns the value another way too (a directive also comes over the data plane) and comes back,
     * instead of waiting out the promotion in {@link PromotionRetry} (a member whose partition table missed an
     * update waits for the master's next send of it). Null at once where the partition table has no owner; after
     * at most {@link #REACHABLE_WAIT_MILLIS} where it still names a dead one, whose partitions Hazelcast does not
     * promote while the dead member holds the cluster-state lock ({@link PromotionWatch}): the get, retried by
     * Hazelcast until the promotion, took 4 s in campaign logs and 2 minutes without the watch.
     */
    public String getIfReachable(String key) {
        try {
            // a JDK future: Hazelcast 5.5's own timed get never times out on a ForkJoinPool thread (its ManagedBlocker
            // parks for the whole wait again and again until the answer comes), as on JUnit's parallel test threads
            CompletableFuture<String> answer = new CompletableFuture<>();
            map.getAsync(key).whenComplete((value, failure) -> {
                if (failure == null) {
                    answer.complete(value);
                } else {
                    answer.completeExceptionally(failure instanceof CompletionException c && c.getCause() != null
                            ? c.getCause() : failure);
                }
            });
            return answer.get(REACHABLE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (IllegalStateException e) {
            if (retry.awaitingPromotion(e)) {
                return null;
            }
            throw e;
        } catch (TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IllegalStateException owner && retry.awaitingPromotion(owner)) {
                return null;
            }
            if (e.getCause() instanceof TargetNotMemberException) {
                // this member's partition table still names the dead owner the master has already dropped (seen with
                // the machine loaded: the master's table had no owner, a survivor's the departed member)
                return null;
            }
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * How long {@link #getIfReachable} waits for an answer: far above a read of the board on a loaded machine
     * (milliseconds), far below a promotion that waits for {@link PromotionWatch} (seconds).
     */
    static final long REACHABLE_WAIT_MILLIS = 500;

    /** Current version; pass it to {@link #awaitChange}. */
    public long version() {
        lock.lock();
        try {
            return version;
        } finally {
            lock.unlock();
        }
    }

    /** Signals waiters that something outside the board changed (a member left). */
    public void bump() {
        lock.lock();
        try {
            version++;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until the version differs from {@code seen} or the deadline passes.
     *
     * @return true if something changed
     */
    public boolean awaitChange(long seen, long deadlineNanos) {
        lock.lock();
        try {
            while (version == seen) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                changed.awaitNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(MISSED_EVENT_RECHECK_MILLIS)));
                if (version == seen) {
                    // a missed event must not block us forever: re-read the map now and then
                    return true;
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }
}
