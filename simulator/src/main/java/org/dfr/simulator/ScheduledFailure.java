package org.dfr.simulator;

import java.util.Arrays;

/**
 * Partitions lost at the start of an iteration, as the runtime's {@code --fail RANK@ITER} does with one
 * partition per rank: they die once iteration {@code iteration - 1} is complete, so
 * {@code m = iteration - 1 - c} iterations are lost. Several partitions in one failure are simultaneous.
 *
 * @param iteration  {@code t}, at least 1
 * @param partitions the partitions lost, at least one; stored sorted and distinct
 */
public record ScheduledFailure(int iteration, int[] partitions) {

    /** @throws IllegalArgumentException if the iteration is below 1 or no partition is given */
    public ScheduledFailure {
        Checks.atLeast("failure iteration", iteration, 1);
        if (partitions == null || partitions.length == 0) {
            throw new IllegalArgumentException("a scheduled failure needs at least one partition but had none");
        }
        partitions = Arrays.stream(partitions).sorted().distinct().toArray();
        if (partitions[0] < 0) {
            throw new IllegalArgumentException("partition " + partitions[0] + " is not a partition id (ids start at 0)");
        }
    }

    /** Partitions {@code ids} lost at the start of {@code iteration}. */
    public static ScheduledFailure at(int iteration, int... ids) {
        return new ScheduledFailure(iteration, ids);
    }

    /** The lost partitions (a copy). */
    @Override
    public int[] partitions() {
        return partitions.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ScheduledFailure other && iteration == other.iteration
                && Arrays.equals(partitions, other.partitions);
    }

    @Override
    public int hashCode() {
        return 31 * iteration + Arrays.hashCode(partitions);
    }

    @Override
    public String toString() {
        return Arrays.toString(partitions) + "@" + iteration;
    }
}
