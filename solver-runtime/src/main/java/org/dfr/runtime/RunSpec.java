package org.dfr.runtime;

/**
 * What a run computes, independent of the kernel's numbers: how many iterations, how often to
 * checkpoint, how ranks group into hosts and how many hot spares wait.
 *
 * <p>Rank {@code r < partitionCount} owns partition {@code r} at start; ranks
 * {@code partitionCount .. partitionCount+spares-1} are spares. The host of rank {@code r} is
 * {@code r / ranksPerHost}.
 */
public record RunSpec(int partitionCount, int iterations, int checkpointEvery, int ranksPerHost, int spares) {

    public static final int DEFAULT_RANKS_PER_HOST = 2;

    public RunSpec {
        if (partitionCount < 1) {
            throw new IllegalArgumentException("partitionCount must be >= 1, got " + partitionCount);
        }
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be >= 1, got " + iterations);
        }
        if (checkpointEvery < 1) {
            throw new IllegalArgumentException("checkpointEvery must be >= 1, got " + checkpointEvery);
        }
        if (ranksPerHost < 1) {
            throw new IllegalArgumentException("ranksPerHost must be >= 1, got " + ranksPerHost);
        }
        if (spares < 0) {
            throw new IllegalArgumentException("spares must be >= 0, got " + spares);
        }
    }

    /** Ranks including spares. */
    public int memberCount() {
        return partitionCount + spares;
    }

    public int hostOf(int rank) {
        return rank / ranksPerHost;
    }

    public int hostCount() {
        return (memberCount() + ranksPerHost - 1) / ranksPerHost;
    }

    public boolean isCheckpointIteration(int iteration) {
        return iteration % checkpointEvery == 0 && iteration < iterations;
    }
}
