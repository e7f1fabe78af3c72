package org.dfr.runtime;

import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.function.IntPredicate;

/**
 * The double buffers of the partitions one rank owns, and which iterations they hold: the live
 * buffers hold state {@link #liveIteration}, the second buffers hold {@link #computedIteration}
 * once the update of the next iteration wrote them ({@code liveIteration} or one more). Partitions
 * are visited in ascending order.
 *
 * <p>Not thread-safe: only the rank's own thread uses it.
 */
public final class PartitionStates {

    private final int rankId;
    private final TreeMap<Integer, DoubleBuffer> buffers = new TreeMap<>();
    private int liveIteration;
    private int computedIteration;

    /** Empty states of rank {@code rankId} (the id only names the rank in error messages). */
    public PartitionStates(int rankId) {
        this.rankId = rankId;
    }

    /** The partitions held, ascending (a live view). */
    public NavigableSet<Integer> partitions() {
        return buffers.navigableKeySet();
    }

    /** The partitions held with their buffers, ascending (a live view). */
    public Map<Integer, DoubleBuffer> buffers() {
        return buffers;
    }

    /** Whether no partition is held. */
    public boolean isEmpty() {
        return buffers.isEmpty();
    }

    /** The double buffer of a held partition. */
    public DoubleBuffer buffer(int partition) {
        DoubleBuffer b = buffers.get(partition);
        if (b == null) {
            throw new IllegalStateException("rank " + rankId + " does not own partition " + partition);
        }
        return b;
    }

    /** The live state buffer of a held partition (state at {@link #liveIteration()}). */
    public double[] live(int partition) {
        return buffer(partition).live();
    }

    /** Replaces the live state of a partition (reload from a checkpoint, or a recomputed result). */
    public void install(int partition, double[] state) {
        buffers.put(partition, DoubleBuffer.of(state));
    }

    /** Drops the buffers of every partition {@code keep} rejects (no longer owned). */
    public void retainOnly(IntPredicate keep) {
        buffers.keySet().removeIf(p -> !keep.test(p));
    }

    /** Iteration the live buffers hold. */
    public int liveIteration() {
        return liveIteration;
    }

    /** Highest iteration computed into the second buffers ({@code liveIteration} or one more). */
    public int computedIteration() {
        return computedIteration;
    }

    /** Records that every second buffer now holds state {@code iteration}. */
    public void markComputed(int iteration) {
        computedIteration = iteration;
    }

    /** Swaps every buffer: the computed state {@code iteration} becomes the live one. */
    public void advanceTo(int iteration) {
        for (DoubleBuffer b : buffers.values()) {
            b.swap();
        }
        liveIteration = iteration;
        computedIteration = iteration;
    }

    /**
     * Makes the live buffers hold state {@code iteration}: a no-op when they already do; a swap when
     * the second buffers hold it (computed but not yet committed).
     *
     * @throws IllegalStateException when neither buffer holds that state
     */
    public void fallBackTo(int iteration) {
        if (!canFallBackTo(iteration)) {
            throw new IllegalStateException("rank " + rankId + " holds states " + liveIteration + " and "
                    + computedIteration + ", cannot fall back to " + iteration);
        }
        if (iteration == liveIteration) {
            computedIteration = liveIteration;
        } else {
            advanceTo(iteration);
        }
    }

    /** Whether {@link #fallBackTo} can reach state {@code iteration} from the buffers alone. */
    public boolean canFallBackTo(int iteration) {
        return iteration == liveIteration || (iteration == liveIteration + 1 && computedIteration == iteration);
    }

    /** Sets the iteration of the live buffers after they were replaced wholesale. */
    public void setLiveIteration(int iteration) {
        this.liveIteration = iteration;
        this.computedIteration = iteration;
    }
}
