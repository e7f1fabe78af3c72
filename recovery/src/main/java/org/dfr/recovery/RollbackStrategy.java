package org.dfr.recovery;

/**
 * Decides what recomputes after a failure, with no side effects (as Flink's
 * {@code FailoverStrategy#getTasksNeedingRestart}); agreement and execution live elsewhere.
 */
public interface RollbackStrategy {

    /** The decision for {@code input}; never null. Checkpoint availability is checked by the caller. */
    RecoveryDirective decide(RecoveryInput input);

    /**
     * Runs the decision's code once on made-up input, before any failure, so that the first real
     * decision does not pay for class loading and a cold JIT (tens of milliseconds on a loaded machine).
     */
    default void warmUp() {
    }
}
