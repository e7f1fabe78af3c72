package org.dfr.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What data-flow rollback recomputes after a failure, compared with global rollback.
 *
 * <p>With the last checkpoint at iteration {@code c} and the failure at the start of iteration {@code t},
 * {@code m = t-1-c} iterations are lost. Level {@code k} ({@code k = 1..m}) recomputes iteration
 * {@code c+k} on every partition within dependency distance {@code m-k} of a lost partition; so level
 * {@code m} is the lost set and level 1 the widest. A partition at distance {@code d} belongs to levels
 * {@code 1..m-d}. For {@code m = 0} there are no levels: the lost partitions only reload their checkpoint,
 * and they are the only participants.
 *
 * <p>Stored compactly as the sorted cone (level 1, or the lost set when {@code m = 0}) with each
 * partition's distance; level arrays and the idle list are produced on request. Immutable; array results
 * are fresh copies.
 */
public final class RecoveryPlan {

    private final int partitionCount;
    private final int[] lost;
    private final int checkpointIteration;
    private final int failureIteration;
    private final int[] cone;
    private final int[] coneDistance;
    /** {@code ballSizes[d]} = cone partitions within distance d; constant past the last entry. */
    private final int[] ballSizes;
    private final long recomputed;

    RecoveryPlan(int partitionCount, int[] lost, int checkpointIteration, int failureIteration, int[] cone,
                 int[] coneDistance, int[] ballSizes) {
        this.partitionCount = partitionCount;
        this.lost = lost;
        this.checkpointIteration = checkpointIteration;
        this.failureIteration = failureIteration;
        this.cone = cone;
        this.coneDistance = coneDistance;
        this.ballSizes = ballSizes;
        int m = lostIterations();
        long work = 0;
        for (int d : coneDistance) {
            work += m - d;
        }
        this.recomputed = work;
    }

    /** Number of partitions in the analysed declaration. */
    public int partitionCount() {
        return partitionCount;
    }

    /** The lost partitions, sorted ascending, distinct. */
    public int[] lostPartitions() {
        return lost.clone();
    }

    /** {@code c}: the iteration whose state the checkpoint holds. */
    public int checkpointIteration() {
        return checkpointIteration;
    }

    /** {@code t}: the iteration at whose start the failure happened. */
    public int failureIteration() {
        return failureIteration;
    }

    /** {@code m = t-1-c}: iterations lost, and recomputed by the lost partitions. */
    public int lostIterations() {
        return failureIteration - 1 - checkpointIteration;
    }

    /** Number of cone levels, equal to {@link #lostIterations()}. */
    public int levelCount() {
        return lostIterations();
    }

    /**
     * Partitions recomputing iteration {@code c+k}, sorted ascending.
     *
     * @param k 1..{@link #levelCount()}
     */
    public int[] level(int k) {
        int maxDistance = maxDistanceOfLevel(k);
        int[] ids = new int[levelSize(k)];
        int at = 0;
        for (int i = 0; i < cone.length; i++) {
            if (coneDistance[i] <= maxDistance) {
                ids[at++] = cone[i];
            }
        }
        return ids;
    }

    /** Size of {@link #level(int)} without building it. */
    public int levelSize(int k) {
        int maxDistance = maxDistanceOfLevel(k);
        return ballSizes[Math.min(maxDistance, ballSizes.length - 1)];
    }

    private int maxDistanceOfLevel(int k) {
        int m = lostIterations();
        if (k < 1 || k > m) {
            throw new IllegalArgumentException("level " + k + " does not exist; levels are 1.." + m
                    + (m == 0 ? " (none: m = 0)" : ""));
        }
        return m - k;
    }

    /** All levels, level 1 first; empty when {@code m = 0}. */
    public List<int[]> levels() {
        List<int[]> levels = new ArrayList<>(levelCount());
        for (int k = 1; k <= levelCount(); k++) {
            levels.add(level(k));
        }
        return levels;
    }

    /** Whether {@code partition} recomputes iteration {@code c+k}. */
    public boolean isInLevel(int partition, int k) {
        int maxDistance = maxDistanceOfLevel(k);
        int i = Arrays.binarySearch(cone, partition);
        return i >= 0 && coneDistance[i] <= maxDistance;
    }

    /**
     * How many iterations {@code partition} recomputes: {@code m - d} at dependency distance {@code d} from
     * the lost set ({@code m} for a lost partition), 0 for an idle partition.
     */
    public int recomputedIterationsOf(int partition) {
        Partitions.requireInRange(partition, partitionCount);
        int i = Arrays.binarySearch(cone, partition);
        return i < 0 ? 0 : lostIterations() - coneDistance[i];
    }

    /** Whether {@code partition} is one of the lost partitions. */
    public boolean isLost(int partition) {
        return Arrays.binarySearch(lost, partition) >= 0;
    }

    /** DFR's work: sum of the level sizes, in partition-iterations. */
    public long recomputedPartitionIterations() {
        return recomputed;
    }

    /** Global rollback's work: {@code m x partitionCount} partition-iterations. */
    public long globalRollbackPartitionIterations() {
        return (long) lostIterations() * partitionCount;
    }

    /** Partitions taking part in recovery: level 1, or the lost partitions (reload only) when {@code m = 0}. */
    public int[] participatingPartitions() {
        return cone.clone();
    }

    /** Size of {@link #participatingPartitions()}. */
    public int participatingPartitionCount() {
        return cone.length;
    }

    /** Every partition not participating, sorted ascending. */
    public int[] idlePartitions() {
        int[] idle = new int[idlePartitionCount()];
        int at = 0;
        int next = 0;
        for (int p : cone) {
            while (next < p) {
                idle[at++] = next++;
            }
            next = p + 1;
        }
        while (next < partitionCount) {
            idle[at++] = next++;
        }
        return idle;
    }

    /** Size of {@link #idlePartitions()}. */
    public int idlePartitionCount() {
        return partitionCount - cone.length;
    }

    /** Whether the participants are every partition: DFR is then global rollback and says so. */
    public boolean coversEverything() {
        return cone.length == partitionCount;
    }

    /**
     * Whether a DFR run does global rollback here: the cone {@link #coversEverything covers everything} and
     * {@code m > 0} (DESIGN.md, "Iterations and the cone"). With {@code m = 0} nothing is recomputed, so even a
     * loss of every partition only reloads.
     */
    public boolean isGlobalRollback() {
        return lostIterations() > 0 && coversEverything();
    }

    /**
     * What a DFR run recomputes: this plan, or, when it {@link #isGlobalRollback is global rollback}, global
     * rollback's plan (the strategy {@code org.dfr.recovery.DataFlowRollback} decides so): every partition in every level, {@code m x n} partition-iterations instead of this cone's smaller
     * sum of levels, which no run recomputes. Reports of what DFR costs ({@code dfr plan}, the simulator) use this;
     * this plan itself stays the cone, the analysis's result.
     */
    public RecoveryPlan asRun() {
        if (!isGlobalRollback()) {
            return this;
        }
        // distance 0 for all: every partition recomputes every level
        return new RecoveryPlan(partitionCount, lost, checkpointIteration, failureIteration, cone,
                new int[cone.length], new int[] {partitionCount});
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RecoveryPlan other
                && partitionCount == other.partitionCount
                && checkpointIteration == other.checkpointIteration
                && failureIteration == other.failureIteration
                && Arrays.equals(lost, other.lost)
                && Arrays.equals(cone, other.cone)
                && Arrays.equals(coneDistance, other.coneDistance);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(lost) + Arrays.hashCode(cone)) + failureIteration - checkpointIteration;
    }

    @Override
    public String toString() {
        return "RecoveryPlan[lost=" + Arrays.toString(lost) + ", c=" + checkpointIteration + ", t=" + failureIteration
                + ", m=" + lostIterations() + ", participating=" + cone.length + "/" + partitionCount
                + ", recomputed=" + recomputed + ", global=" + globalRollbackPartitionIterations() + "]";
    }
}
