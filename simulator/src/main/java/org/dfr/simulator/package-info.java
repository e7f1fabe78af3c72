/**
 * The large-scale simulator of global, data-flow (DFR) and message-log rollback.
 *
 * <p>A run ({@link org.dfr.simulator.SimulationSpec}) is the DAG of tasks (partition, iteration) unrolled from
 * any {@link org.dfr.analysis.PartitionDependencies}; {@link org.dfr.simulator.Simulation} computes its finish
 * times level by level over arrays of partition count, injects failures
 * ({@link org.dfr.simulator.FailureSchedule}: random from a {@link org.dfr.simulator.FailureModel}, or explicit
 * as the runtime's {@code --fail}), recovers them with a {@link org.dfr.simulator.Strategy} (DFR uses the exact
 * cone of {@link org.dfr.analysis.ConeAnalyzer}) and reports work, time and energy
 * ({@link org.dfr.simulator.SimulationResult}, one {@link org.dfr.simulator.RecoveryRecord} per recovery).
 * Sweeps and figures live in {@code org.dfr.simulator.sweep} and {@code org.dfr.simulator.report};
 * {@link org.dfr.simulator.SimulatorApp} is what a command line calls.
 */
package org.dfr.simulator;
