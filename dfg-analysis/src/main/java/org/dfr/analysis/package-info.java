/**
 * Dependency declarations and the recovery-cone analyzer.
 *
 * <p>A kernel declares {@link org.dfr.analysis.PartitionDependencies} {@code R(p)} (ready-made ones in
 * {@link org.dfr.analysis.DependencyDeclarations}). {@link org.dfr.analysis.ConeAnalyzer} turns a
 * declaration into {@link org.dfr.analysis.RecoveryPlan}s: which partitions recompute which iterations
 * after a failure, against the cost of global rollback. {@link org.dfr.analysis.ExpectedCostAnalyzer}
 * averages that cost over a checkpoint interval and {@link org.dfr.analysis.EnergyModel} turns it into
 * an energy-savings rate.
 *
 * <p>No cluster code lives here; everything is pure and deterministic.
 */
package org.dfr.analysis;
