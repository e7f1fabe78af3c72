package org.dfr.simulator.sweep;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One strategy over the seeds of a simulation of a kernel's own dependencies: one row of
 * {@code kernel-summary.csv}, means with the sample sd and the half-width of the 95 % confidence interval
 * of the mean (Student-t; empty for one seed, where there is no interval).
 *
 * @param strategy                  {@code global}, {@code dfr} or {@code message-log}
 * @param seeds                     runs summarised
 * @param incompleteRuns            runs stopped at {@code --max-failures}
 * @param failuresMean              node failures per run
 * @param recomputedPerNodeMean     recomputed partition-iterations per node
 * @param recomputedPerNodeSd       its sd
 * @param recomputedPerNodeCi95     its 95 % CI half-width, null for one seed
 * @param runtimeHoursMean          simulated makespan, h
 * @param runtimeHoursSd            its sd
 * @param runtimeHoursCi95          its 95 % CI half-width, null for one seed
 * @param energyMegajoulesMean      total energy, MJ
 * @param energyMegajoulesSd        its sd
 * @param energyMegajoulesCi95      its 95 % CI half-width, null for one seed
 */
@JsonPropertyOrder({"strategy", "seeds", "incompleteRuns", "failuresMean", "recomputedPerNodeMean",
        "recomputedPerNodeSd", "recomputedPerNodeCi95", "runtimeHoursMean", "runtimeHoursSd", "runtimeHoursCi95",
        "energyMegajoulesMean", "energyMegajoulesSd", "energyMegajoulesCi95"})
public record KernelStrategySummary(String strategy, int seeds, int incompleteRuns, double failuresMean,
                                    double recomputedPerNodeMean, double recomputedPerNodeSd,
                                    Double recomputedPerNodeCi95, double runtimeHoursMean, double runtimeHoursSd,
                                    Double runtimeHoursCi95, double energyMegajoulesMean, double energyMegajoulesSd,
                                    Double energyMegajoulesCi95) {

    /** The summary of {@code rows}, every one of {@code strategy} (at least one). */
    public static KernelStrategySummary of(String strategy, List<KernelSeedRow> rows) {
        if (rows.isEmpty() || rows.stream().anyMatch(r -> !r.strategy().equals(strategy))) {
            throw new IllegalArgumentException("the rows of " + strategy + " only, at least one: " + rows);
        }
        double[] recomputed = values(rows, KernelSeedRow::recomputedPerNode);
        double[] runtime = values(rows, KernelSeedRow::runtimeHours);
        double[] energy = values(rows, KernelSeedRow::energyMegajoules);
        return new KernelStrategySummary(strategy, rows.size(), (int) rows.stream().filter(r -> !r.completed()).count(),
                Stats.mean(values(rows, KernelSeedRow::failures)), Stats.mean(recomputed), Stats.sd(recomputed),
                ci95(recomputed), Stats.mean(runtime), Stats.sd(runtime), ci95(runtime), Stats.mean(energy),
                Stats.sd(energy), ci95(energy));
    }

    private static double[] values(List<KernelSeedRow> rows, ToDoubleFunction<KernelSeedRow> metric) {
        return rows.stream().mapToDouble(metric).toArray();
    }

    private static Double ci95(double[] values) {
        return values.length < 2 ? null : Stats.confidenceHalfWidth(values, 0.95);
    }
}
