package org.dfr.recovery;

import java.util.List;
import org.dfr.runtime.Detector;
import org.dfr.runtime.HeldCopy;

/**
 * What a surviving rank reports when it enters a recovery round.
 *
 * @param epoch the epoch the rank was in when it stopped
 * @param liveIteration iteration its live buffers hold
 * @param computedIteration highest iteration it computed ({@code liveIteration} or one more)
 * @param committedCheckpoint last checkpoint it knows every rank wrote
 * @param invalidPartitions owned partitions whose live state is not usable (adopted, loaded and not yet
 *     recomputed, or reloaded by an unfinished global rollback): this rank holds a copy of their checkpoint
 * @param heldPartitions owned partitions whose live state this rank holds (not invalid): a partition
 *     that the ownership in force gives this rank but that is missing here (a directive that gave it
 *     to this rank was cut short before the rank loaded it) counts as lost
 * @param pendingTarget the state iteration an unfinished recovery was restoring, or -1
 * @param stoppedAtMillis wall-clock time at which this rank stopped for this recovery (its own
 *     detection, or the announcement of a peer that detected first)
 * @param detectedBy what told this rank of the death it stopped for, when it found one itself ({@code stoppedAtMillis}
 *     is then when); null when it stopped for a peer's announcement or a failed message
 * @param heldCopies the complete checkpoint copies this rank holds for other ranks (copies over the data plane): the
 *     coordinator learns from them who holds what a recovery needs without reading the locators, which can wait for
 *     Hazelcast to promote a dead member's partitions; empty from a rank that holds none (or sent none: a status
 *     from before this field reads as empty, and the locators are read instead)
 */
public record RankStatus(int rank, int epoch, int liveIteration, int computedIteration, int committedCheckpoint,
                         List<Integer> invalidPartitions, List<Integer> heldPartitions, int pendingTarget,
                         long stoppedAtMillis, Detector detectedBy, List<HeldCopy> heldCopies) {

    public RankStatus {
        heldCopies = heldCopies == null ? List.of() : heldCopies;
    }

    /** A status that names no held copy. */
    public RankStatus(int rank, int epoch, int liveIteration, int computedIteration, int committedCheckpoint,
                      List<Integer> invalidPartitions, List<Integer> heldPartitions, int pendingTarget,
                      long stoppedAtMillis, Detector detectedBy) {
        this(rank, epoch, liveIteration, computedIteration, committedCheckpoint, invalidPartitions, heldPartitions,
                pendingTarget, stoppedAtMillis, detectedBy, List.of());
    }

    /** The ranks of {@code statuses} that hold a complete copy of checkpoint {@code iteration} of {@code partition}. */
    static List<Integer> holdersOf(List<RankStatus> statuses, int iteration, int partition) {
        HeldCopy wanted = new HeldCopy(iteration, partition);
        return statuses.stream().filter(s -> s.heldCopies().contains(wanted)).map(RankStatus::rank).sorted().toList();
    }
}
