package org.dfr.simulator.sweep;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One strategy at one point of a sweep, over its seeds: means and sample standard deviations (one CSV row).
 *
 * @param dimensions                      1, 2 or 3
 * @param nodes                           nodes (= partitions)
 * @param grid                            the decomposition, e.g. {@code 25x40}
 * @param checkpointEvery                 {@code K}
 * @param strategy                        {@code global}, {@code dfr} or {@code message-log}
 * @param seeds                           runs averaged
 * @param incompleteRuns                  runs stopped at the failure limit
 * @param failuresMean                    node failures per run
 * @param failuresSd                      their sd
 * @param recoveriesMean                  recoveries per run
 * @param recomputedPerNodeMean           recomputed partition-iterations per node (the paper's Fig. 6a)
 * @param recomputedPerNodeSd             its sd
 * @param recomputedPerRecoveryMean       recomputed partition-iterations per recovery (pooled over seeds)
 * @param runtimeHoursMean                simulated makespan, h (Fig. 6c)
 * @param runtimeHoursSd                  its sd
 * @param energyMegajoulesMean            total energy, MJ
 * @param energyMegajoulesSd              its sd
 * @param savingVsGlobalMegajoulesMean    global's energy minus this strategy's, same seed, MJ (Fig. 6b for dfr)
 * @param savingVsGlobalMegajoulesSd      its sd
 * @param savingVsGlobalPercent           the mean saving as a percentage of global's mean energy
 * @param tasksSimulated                  tasks evaluated over all seeds
 * @param simulatorSeconds                real seconds the runs took (summed over threads)
 * @param tasksPerSecond                  {@code tasksSimulated / simulatorSeconds}
 */
@JsonPropertyOrder({"dimensions", "nodes", "grid", "checkpointEvery", "strategy", "seeds", "incompleteRuns",
        "failuresMean", "failuresSd", "recoveriesMean", "recomputedPerNodeMean", "recomputedPerNodeSd",
        "recomputedPerRecoveryMean", "runtimeHoursMean", "runtimeHoursSd", "energyMegajoulesMean",
        "energyMegajoulesSd", "savingVsGlobalMegajoulesMean", "savingVsGlobalMegajoulesSd", "savingVsGlobalPercent",
        "tasksSimulated", "simulatorSeconds", "tasksPerSecond"})
public record PointSummary(int dimensions, int nodes, String grid, int checkpointEvery, String strategy, int seeds,
                           int incompleteRuns, double failuresMean, double failuresSd, double recoveriesMean,
                           double recomputedPerNodeMean, double recomputedPerNodeSd, double recomputedPerRecoveryMean,
                           double runtimeHoursMean, double runtimeHoursSd, double energyMegajoulesMean,
                           double energyMegajoulesSd, double savingVsGlobalMegajoulesMean,
                           double savingVsGlobalMegajoulesSd, double savingVsGlobalPercent, long tasksSimulated,
                           double simulatorSeconds, double tasksPerSecond) {
}
