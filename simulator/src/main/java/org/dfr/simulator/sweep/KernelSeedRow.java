package org.dfr.simulator.sweep;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One strategy on one seed of a simulation of a kernel's own dependencies ({@code dfr simulate --cells}):
 * one row of {@code kernel-seeds.csv}. The strategies of one seed met the same failures.
 *
 * @param kernel                 the kernel, as chosen ({@code heat1d3}, {@code smooth1d5(centre=0.5)})
 * @param cells                  its cells, e.g. {@code 400} or {@code 256x256}
 * @param ranksGrid              its partitions per axis, one node each, e.g. {@code 100}
 * @param partitions             the partition (node) count
 * @param seed                   the failure history
 * @param strategy               {@code global}, {@code dfr} or {@code message-log}
 * @param completed              false when the run stopped at {@code --max-failures}: its figures are partial
 * @param failures               node failures
 * @param recomputedPerNode      recomputed partition-iterations per node
 * @param runtimeHours           simulated makespan, h
 * @param energyMegajoules       total energy, MJ
 */
@JsonPropertyOrder({"kernel", "cells", "ranksGrid", "partitions", "seed", "strategy", "completed", "failures",
        "recomputedPerNode", "runtimeHours", "energyMegajoules"})
public record KernelSeedRow(String kernel, String cells, String ranksGrid, int partitions, long seed, String strategy,
                            boolean completed, long failures, double recomputedPerNode, double runtimeHours,
                            double energyMegajoules) {
}
