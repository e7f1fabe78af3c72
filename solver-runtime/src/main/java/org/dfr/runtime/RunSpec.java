package org.dfr.runtime;

/**
 * What a run computes, independent of the kernel's numbers: how many iterations, how often to
 * checkpoint, how ranks group into hosts and how many hot spares wait.
 *
 * <p>Rank {@code r < partitionCount} owns partition {@code r} at start; ranks
 * {@code partitionCount .. partitionCount+spares-1} are spares. The host of rank {@code r} is
 * {@code r / ranksPerHost}.
 *
 * @param tolerance when above 0, the run stops after the first iteration whose global residual is below
 *        it; {@code iterations} stays the cap
 * @param mtbfSeconds above 0: the checkpoint interval is chosen during the run ({@link CheckpointSchedule}) from
 *        this mean time between failures of the whole run and the checkpoint cost measured in it, and
 *        {@code checkpointEvery} is not used; {@link #FIXED_INTERVAL}: every {@code checkpointEvery} iterations
 * @param commitLagIterations iterations between a checkpoint and its commit, as asked for: the replication
 *        overlaps that many iterations before a rank waits for it; the lag used is at most the interval
 *        minus one ({@link Checkpointing#lagFor}). A failure before the commit recovers from the
 *        checkpoint before, so a longer lag trades recomputation after a failure for less waiting
 */
public record RunSpec(int partitionCount, int iterations, int checkpointEvery, int ranksPerHost, int spares,
                      double tolerance, double mtbfSeconds, int commitLagIterations) {

    public static final int DEFAULT_RANKS_PER_HOST = 2;
    /** The tolerance of a run that stops only after {@code iterations}: no residual is below it. */
    public static final double NO_TOLERANCE = 0.0;
    /** The {@link #mtbfSeconds} of a run that checkpoints every {@code checkpointEvery} iterations. */
    public static final double FIXED_INTERVAL = 0.0;

    /** A run with the default commit lag ({@link Checkpointing#DEFAULT_COMMIT_LAG_ITERATIONS}). */
    public RunSpec(int partitionCount, int iterations, int checkpointEvery, int ranksPerHost, int spares,
                   double tolerance, double mtbfSeconds) {
        this(partitionCount, iterations, checkpointEvery, ranksPerHost, spares, tolerance, mtbfSeconds,
                Checkpointing.DEFAULT_COMMIT_LAG_ITERATIONS);
    }

    /** A run with a fixed checkpoint interval. */
    public RunSpec(int partitionCount, int iterations, int checkpointEvery, int ranksPerHost, int spares,
                   double tolerance) {
        this(partitionCount, iterations, checkpointEvery, ranksPerHost, spares, tolerance, FIXED_INTERVAL);
    }

    /** A run without a convergence test: it stops after {@code iterations}. */
    public RunSpec(int partitionCount, int iterations, int checkpointEvery, int ranksPerHost, int spares) {
        this(partitionCount, iterations, checkpointEvery, ranksPerHost, spares, NO_TOLERANCE);
    }

    public RunSpec {
        if (!(mtbfSeconds >= 0) || Double.isInfinite(mtbfSeconds)) {
            throw new IllegalArgumentException("mtbfSeconds must be a finite number >= 0 (0: fixed interval), got "
                    + mtbfSeconds);
        }
        if (!(tolerance >= 0) || Double.isInfinite(tolerance)) {
            throw new IllegalArgumentException("tolerance must be a finite number >= 0 (0: none), got " + tolerance);
        }
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
        if (commitLagIterations < 0) {
            throw new IllegalArgumentException("commitLagIterations must be >= 0, got " + commitLagIterations);
        }
    }

    /**
     * Whether the run stops at the first iteration whose global residual is below {@link #tolerance}
     * ({@code iterations} stays the cap).
     */
    public boolean hasTolerance() {
        return tolerance > 0;
    }

    /** Whether iteration {@code iteration}'s global residual ends the run. */
    public boolean converged(double residual) {
        return hasTolerance() && residual < tolerance;
    }

    /** The same run with a convergence test ({@code 0}: none). */
    public RunSpec withTolerance(double value) {
        return new RunSpec(partitionCount, iterations, checkpointEvery, ranksPerHost, spares, value, mtbfSeconds,
                commitLagIterations);
    }

    /** The same run with another commit lag ({@link #commitLagIterations}). */
    public RunSpec withCommitLagIterations(int lag) {
        return new RunSpec(partitionCount, iterations, checkpointEvery, ranksPerHost, spares, tolerance, mtbfSeconds, lag);
    }

    /** The commit lag used with checkpoints every {@code interval} iterations ({@link Checkpointing#lagFor}). */
    public int commitLagFor(int interval) {
        return Checkpointing.lagFor(interval, commitLagIterations);
    }

    /** Whether the checkpoint interval is chosen during the run (see {@link #mtbfSeconds}). */
    public boolean autoInterval() {
        return mtbfSeconds > 0;
    }

    /** Ranks including spares. */
    public int memberCount() {
        return partitionCount + spares;
    }

    /**
     * The host of {@code rank}. A rank respawned in place of rank {@code r} has the id
     * {@code r + k * memberCount()} (k = 1, 2, ...; see {@link #respawnedRank}) and lives on r's host.
     */
    public int hostOf(int rank) {
        return (rank % memberCount()) / ranksPerHost;
    }

    /** The id of the rank started in place of {@code deadRank}: the next free id on its host's slot. */
    public int respawnedRank(int deadRank) {
        return deadRank + memberCount();
    }

    /** Whether {@code rank} was respawned in place of a dead rank (its id is beyond the run's members). */
    public boolean isRespawned(int rank) {
        return rank >= memberCount();
    }

    public int hostCount() {
        return (memberCount() + ranksPerHost - 1) / ranksPerHost;
    }

    /**
     * Whether {@code iteration} is a checkpoint iteration of a fixed interval; a run with an
     * {@link #autoInterval} asks its {@link CheckpointSchedule}.
     */
    public boolean isCheckpointIteration(int iteration) {
        return iteration % checkpointEvery == 0 && iteration < iterations;
    }
}
