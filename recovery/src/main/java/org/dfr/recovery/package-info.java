/**
 * Failure detection, agreement, replacement and the rollback strategies (global and data-flow).
 *
 * <p>What restarts is decided by a {@link org.dfr.recovery.RollbackStrategy} without side effects;
 * {@link org.dfr.recovery.RecoveryProtocol} runs the agreement and executes the decision on each
 * rank through its {@link org.dfr.runtime.RecoveryView}; {@link org.dfr.recovery.FaultInjector}
 * kills ranks at exact points for experiments and tests.
 *
 * <p>The protocol's control-board values are typed records serialised as JSON:
 * {@link org.dfr.recovery.RankStatus}, {@link org.dfr.recovery.RecoveryDirective} (with its
 * {@link org.dfr.recovery.Strategy strategies}, {@link org.dfr.recovery.Adoption adoptions} and the
 * {@link org.dfr.runtime.RunFailedException.Kind kind} of an abort), and the records the run report
 * reads, {@link org.dfr.recovery.RecoveryRecord} and {@link org.dfr.recovery.FailureRecord}.
 */
package org.dfr.recovery;
