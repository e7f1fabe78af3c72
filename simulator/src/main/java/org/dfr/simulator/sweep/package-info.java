/**
 * Sweeps of the simulator over node counts, decompositions and checkpoint intervals, run in parallel, with
 * their per-point summaries ({@link org.dfr.simulator.sweep.PointSummary}: mean and sd over seeds), the
 * quadratic fit of DFR's energy savings and the checkpoint-interval optimum against Young/Daly.
 */
package org.dfr.simulator.sweep;
