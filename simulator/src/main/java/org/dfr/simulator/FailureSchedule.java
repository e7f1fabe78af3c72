package org.dfr.simulator;

import java.util.Comparator;
import java.util.List;

/**
 * Where failures come from: drawn at random from the {@link FailureModel} and the seed, none, or an explicit
 * list of {@link ScheduledFailure}s (optionally plus partitions killed during the next recoveries) as the
 * runtime's {@code --fail RANK@ITER} and {@code --fail-during-recovery RANK} give them.
 *
 * @param drawn              whether failures are drawn from the failure model (then the lists are empty)
 * @param failures           explicit failures, sorted by iteration
 * @param duringRecovery     partitions killed, in order, during the following recoveries: each dies once the
 *                           first recomputed level of the next recovery with {@code m >= 1} is complete, and
 *                           that recovery restarts with the union of the lost partitions
 */
public record FailureSchedule(boolean drawn, List<ScheduledFailure> failures, List<Integer> duringRecovery) {

    /** Copies and sorts the lists; explicit failures and randomness exclude each other. */
    public FailureSchedule {
        failures = failures.stream().sorted(Comparator.comparingInt(ScheduledFailure::iteration)).toList();
        duringRecovery = List.copyOf(duringRecovery);
        if (drawn && (!failures.isEmpty() || !duringRecovery.isEmpty())) {
            throw new IllegalArgumentException("a random failure schedule cannot also list explicit failures");
        }
    }

    /** Failures drawn from the spec's failure model and seed. */
    public static FailureSchedule random() {
        return new FailureSchedule(true, List.of(), List.of());
    }

    /** No failure at all. */
    public static FailureSchedule none() {
        return new FailureSchedule(false, List.of(), List.of());
    }

    /** Exactly these failures, and nothing else. */
    public static FailureSchedule explicit(List<ScheduledFailure> failures) {
        return new FailureSchedule(false, failures, List.of());
    }

    /** Exactly these failures, plus {@code duringRecovery} partitions killed during the following recoveries. */
    public static FailureSchedule explicit(List<ScheduledFailure> failures, List<Integer> duringRecovery) {
        return new FailureSchedule(false, failures, duringRecovery);
    }
}
