package org.dfr.recovery;

/**
 * Decides what recomputes after a failure, with no side effects (as Flink's
 * {@code FailoverStrategy#getTasksNeedingRestart}); agreement and execution live elsewhere.
 */
public interface RollbackStrategy {

    /** The decision for {@code input}; never null. Checkpoint availability is checked by the caller. */
    RecoveryDirective decide(RecoveryInput input);
}
