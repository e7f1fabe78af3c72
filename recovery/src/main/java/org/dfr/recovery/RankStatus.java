package org.dfr.recovery;

import java.util.List;
import org.dfr.runtime.Detector;

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
 */
public record RankStatus(int rank, int epoch, int liveIteration, int computedIteration, int committedCheckpoint,
                         List<Integer> invalidPartitions, List<Integer> heldPartitions, int pendingTarget,
                         long stoppedAtMillis, Detector detectedBy) {
}
