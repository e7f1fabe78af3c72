package org.dfr.cli.bench;

import java.util.List;

/**
 * What {@code dfr bench-recovery --replacement ...} measured: the same kill under dfr with each replacement, the
 * medians per replacement ({@link RecoveryStrategySummary}, its {@code strategy} field naming the replacement),
 * and the checks every run passed or not.
 *
 * @param kernel            the kernel every run ran, {@code name} or {@code name(key=value,...)}
 * @param planWork          the cone's recomputed work for the kill, from the configuration alone
 * @param workEqualsPlan    whether every run recomputed exactly {@code planWork} (a replacement changes who
 *                          recomputes, not what)
 * @param sameDigest        whether every run ended with the same field
 * @param referenceDigest   the sequential reference's digest at the run's last iteration
 * @param matchesReference  whether every run ended with it
 */
public record RecoveryReplacementReport(String kernel, List<Integer> ranksGrid, List<Integer> cells, int iterations,
                                        int checkpointEvery, int checkpointBackups, String failure, String mode,
                                        int repetitions, List<RecoveryStrategySummary> replacements,
                                        List<String> adopters, long planWork, boolean workEqualsPlan,
                                        boolean sameDigest, String referenceDigest, boolean matchesReference) {
}
