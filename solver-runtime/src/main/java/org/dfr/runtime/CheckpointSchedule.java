package org.dfr.runtime;

import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import org.dfr.runtime.net.EpochChangedException;

/**
 * Which iterations one rank checkpoints: every {@link RunSpec#checkpointEvery} iterations, or, with an
 * {@link RunSpec#autoInterval automatic interval}, every {@code K} iterations where {@code K} is agreed
 * during the run from the checkpoint cost measured in it (Young/Daly, {@link CheckpointIntervalDecision}).
 *
 * <p>Automatic interval: every rank measures the initial checkpoint (its local copy and its replication,
 * which every run takes at its first iteration {@code f}: 0, or a restart's) and the duration of
 * iterations {@code f+1 .. f+}{@link #MEASURED_ITERATIONS}. The decision belongs to the reduction of
 * the {@link #decisionIteration} {@code D = f+}{@link #MEASURED_ITERATIONS}{@code +1} (at most the last
 * iteration): its root, before it sends that sum, proposes its measurements on the control board with
 * {@code putIfAbsent}. No iteration up to {@code D} is a checkpoint iteration; after {@code D} the
 * checkpoint iterations are the multiples of {@code K} below the last iteration. A rank learns
 * {@code K} when it first asks about an iteration after {@code D}: it has the sum of {@code D}, so the
 * board holds the decision, unless the reduction of {@code D} was cut by a failure and the recovery
 * resumed after it; then its own measurements are proposed the same way (a rank without any, a spare,
 * waits for the others'). {@code putIfAbsent} on the replicated board returns the first proposal to
 * every caller, so every rank, survivors and adopters alike, checkpoints at the same iterations. The
 * interval changes nothing that is computed, so the field is the same for any interval.
 */
public final class CheckpointSchedule {

    /** Iterations measured before the interval is chosen. */
    public static final int MEASURED_ITERATIONS = 3;
    /** How long a rank without measurements waits for the board between checks for a recovery. */
    static final long DECISION_POLL_MILLIS = 20;

    private final RunSpec spec;
    private final int decisionIteration;
    private final int firstIteration;
    /** Told the interval once it is known (the checkpointing's commit lag depends on it). */
    private final IntConsumer intervalListener;
    private final long[] iterationNanos = new long[MEASURED_ITERATIONS];
    private double copyMillis = Double.NaN;
    private double replicationMillis = Double.NaN;
    private volatile CheckpointIntervalDecision decision;

    /**
     * @param firstIteration the iteration of the run's initial checkpoint (0, or the restart's)
     * @param intervalListener told the interval once it is agreed (not with a fixed interval)
     */
    public CheckpointSchedule(RunSpec spec, int firstIteration, IntConsumer intervalListener) {
        this.spec = spec;
        this.firstIteration = firstIteration;
        this.decisionIteration = Math.min(firstIteration + MEASURED_ITERATIONS + 1, spec.iterations());
        this.intervalListener = intervalListener;
    }

    /** The iteration with whose reduction the automatic interval is decided. */
    public int decisionIteration() {
        return decisionIteration;
    }

    /** Records this rank's initial checkpoint: its local copy and the rest of its replication. */
    public void recordInitialCheckpoint(long copyNanos, long replicationNanos) {
        copyMillis = copyNanos / 1e6;
        replicationMillis = replicationNanos / 1e6;
    }

    /** Records how long this rank's iteration {@code i} took (only those before the decision count). */
    public void recordIteration(int i, long nanos) {
        int k = i - firstIteration - 1;
        if (spec.autoInterval() && k >= 0 && k < MEASURED_ITERATIONS && i < decisionIteration) {
            iterationNanos[k] = nanos;
        }
    }

    /**
     * At the root, before it sends the sum of {@code iteration}: proposes the interval when the decision
     * belongs to this reduction.
     */
    public void atRootBeforeSum(int iteration, ControlBoard control, int epoch, int rank) {
        if (spec.autoInterval() && iteration == decisionIteration && decision == null) {
            CheckpointIntervalDecision mine = proposal(epoch, rank);
            if (mine != null) {
                learn(control.putIfAbsent(CheckpointIntervalDecision.KEY, mine.toJson()));
            }
        }
    }

    /**
     * Whether this rank writes a checkpoint at {@code iteration}.
     *
     * @param interrupted whether a recovery interrupted this rank (while it waits for a decision)
     * @throws EpochChangedException if a recovery interrupts the wait for the decision
     */
    public boolean isCheckpointIteration(int iteration, ControlBoard control, int epoch, int rank,
                                         BooleanSupplier interrupted) {
        if (!spec.autoInterval()) {
            return spec.isCheckpointIteration(iteration);
        }
        if (iteration <= decisionIteration || iteration >= spec.iterations()) {
            return false;
        }
        int k = interval(control, epoch, rank, interrupted);
        return iteration % k == 0;
    }

    /** The agreed decision, or null (a fixed interval, or not decided yet). */
    public CheckpointIntervalDecision decision() {
        return decision;
    }

    private int interval(ControlBoard control, int epoch, int rank, BooleanSupplier interrupted) {
        CheckpointIntervalDecision d = decision;
        if (d != null) {
            return d.interval();
        }
        String onBoard = control.get(CheckpointIntervalDecision.KEY);
        if (onBoard == null) {
            CheckpointIntervalDecision mine = proposal(epoch, rank);
            if (mine != null) {
                onBoard = control.putIfAbsent(CheckpointIntervalDecision.KEY, mine.toJson());
            } else {
                onBoard = awaitDecision(control, interrupted);
            }
        }
        return learn(onBoard).interval();
    }

    /** A rank without measurements (a spare that adopted) waits until a rank that has them decided. */
    private static String awaitDecision(ControlBoard control, BooleanSupplier interrupted) {
        while (true) {
            long seen = control.version();
            String onBoard = control.get(CheckpointIntervalDecision.KEY);
            if (onBoard != null) {
                return onBoard;
            }
            if (interrupted.getAsBoolean()) {
                throw new EpochChangedException("recovery started while waiting for the checkpoint interval");
            }
            control.awaitChange(seen, System.nanoTime() + DECISION_POLL_MILLIS * 1_000_000L);
        }
    }

    private CheckpointIntervalDecision learn(String json) {
        CheckpointIntervalDecision d = CheckpointIntervalDecision.fromJson(json);
        if (decision == null) {
            decision = d;
            intervalListener.accept(d.interval());
        }
        return d;
    }

    /** This rank's proposal, or null when it measured nothing (a spare). */
    private CheckpointIntervalDecision proposal(int epoch, int rank) {
        long sum = 0;
        int n = 0;
        for (long nanos : iterationNanos) {
            if (nanos > 0) {
                sum += nanos;
                n++;
            }
        }
        if (Double.isNaN(copyMillis) || n == 0) {
            return null;
        }
        return CheckpointIntervalDecision.of(epoch, rank, decisionIteration, copyMillis, replicationMillis,
                sum / 1e6 / n, spec.mtbfSeconds(), spec.iterations());
    }
}
