/**
 * Failure detection, agreement, replacement and the rollback strategies (global and data-flow).
 *
 * <p>What restarts is decided by a {@link org.dfr.recovery.RollbackStrategy} without side effects;
 * {@link org.dfr.recovery.RecoveryProtocol} runs the agreement and executes the decision on each
 * rank; {@link org.dfr.recovery.FaultInjector} kills ranks at exact points for experiments and tests.
 */
package org.dfr.recovery;
