package org.dfr.cli.bench;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.dfr.cli.options.Sizes;

/** Prints a {@link RecoveryBenchReport} as the text table of {@code dfr bench-recovery}. */
public final class RecoveryBenchTable {

    private static final String ROW = "%-8s %14s %14s %13s %14s %16s %18s %s%n";

    private RecoveryBenchTable() {
    }

    /** Writes the whole report to {@code out}. */
    public static void print(RecoveryBenchReport r, PrintWriter out) {
        out.printf(Locale.ROOT, "%s kernel, %s ranks, %s cells, %d iterations, checkpoint every %d, commit lag %d (%d backup%s), kill %s,"
                        + " %s mode, %d repetition%s per strategy (medians)%n", r.kernel(), new Sizes(r.ranksGrid()), new Sizes(r.cells()),
                r.iterations(), r.checkpointEvery(), r.commitLagIterations(), r.checkpointBackups(),
                r.checkpointBackups() == 1 ? "" : "s", r.failure(), r.mode(), r.repetitions(),
                r.repetitions() == 1 ? "" : "s");
        if (r.modeNote() != null) {
            out.println("note: " + r.modeNote());
        }
        out.println("detection = kill to detection; agreement = detection to decision; recovery wall = detection to"
                + " resume; time to resume = kill to resume");
        out.println();
        if (r.laterRecoveries() != null) {
            // the kills at the earliest iteration: every later one is a step of its own
            List<String> kills = List.of(r.failure().split(","));
            int first = kills.stream().mapToInt(RecoveryBenchTable::iterationOf).min().orElseThrow();
            out.printf(Locale.ROOT, "recovery 1 of %d: kill %s, from checkpoint %d%n", 1 + r.laterRecoveries().size(),
                    kills.stream().filter(k -> iterationOf(k) == first).collect(Collectors.joining(",")), r.checkpoint());
        }
        rows(r.global(), r.dfr(), out);
        out.println();
        Double detection = r.medianDetectionMillis();
        if ("processes".equals(r.mode())) {
            out.printf(Locale.ROOT, "SIGKILL detection median: %s ms (target <= %d ms: %s)%n", ms(detection),
                    r.detectionTargetMillis(), detection != null && detection <= r.detectionTargetMillis() ? "met" : "NOT met");
        } else {
            out.printf(Locale.ROOT, "detection median: %s ms (the <= %d ms target is for SIGKILL in processes mode)%n",
                    ms(detection), r.detectionTargetMillis());
        }
        String ratio = r.recoveryWallRatio() == null ? "-" : String.format(Locale.ROOT, "%.2f", r.recoveryWallRatio());
        if (r.planIsGlobal()) {
            // both strategies ran the same global rollback: the ratio is noise, and no target applies
            out.printf(Locale.ROOT, "recovery wall time dfr/global: %s (no target: the cone covers every partition, both"
                    + " ran global rollback)%n", ratio);
        } else {
            out.printf(Locale.ROOT, "recovery wall time dfr/global: %s (target <= 1: %s)%n", ratio,
                    r.recoveryWallRatio() != null && r.recoveryWallRatio() <= 1.0 ? "met" : "NOT met");
        }
        out.printf(Locale.ROOT, "dfr work equals plan: %s (plan: %s partition-iterations%s)%n",
                r.dfrWorkEqualsPlan() ? "yes" : "no", r.planWork() == null ? "-" : r.planWork(),
                r.planIsGlobal() ? "; the cone covers every partition, so dfr is global rollback" : "");
        if (r.laterRecoveries() != null) {
            int n = 1 + r.laterRecoveries().size();
            for (int i = 0; i < r.laterRecoveries().size(); i++) {
                RecoveryBenchStep step = r.laterRecoveries().get(i);
                out.println();
                out.printf(Locale.ROOT, "recovery %d of %d: kill %s, from checkpoint %d%n", i + 2, n, step.failure(),
                        step.checkpoint());
                rows(step.global(), step.dfr(), out);
                out.printf(Locale.ROOT, "recovery wall time dfr/global: %s%n", step.recoveryWallRatio() == null ? "-"
                        : String.format(Locale.ROOT, "%.2f", step.recoveryWallRatio()));
                out.printf(Locale.ROOT, "dfr work equals plan: %s (plan: %s partition-iterations, the cone of what the"
                                + " first dfr run lost%s)%n", step.dfrWorkEqualsPlan() ? "yes" : "no",
                        step.planWork() == null ? "-" : step.planWork(),
                        step.planIsGlobal() ? "; it covers every partition, so dfr is global rollback" : "");
            }
            out.println();
        }
        out.printf(Locale.ROOT, "same field digest in every run: %s%s%n", r.sameDigest() ? "yes" : "NO",
                r.sameDigest() ? "" : " (a recovery was not exact)");
        out.printf(Locale.ROOT, "the sequential reference's digest: %s%n", r.matchesReference() ? "yes" : "NO");
    }

    private static void rows(RecoveryStrategySummary global, RecoveryStrategySummary dfr, PrintWriter out) {
        out.printf(Locale.ROOT, ROW, "strategy", "detection ms", "agreement ms", "recompute ms", "recovery wall", "time to resume",
                "recomputed work", "(per repetition)");
        for (RecoveryStrategySummary s : new RecoveryStrategySummary[] {global, dfr}) {
            out.printf(Locale.ROOT, ROW, s.strategy(), ms(s.medianDetectionMillis()), ms(s.medianAgreementMillis()),
                    ms(s.medianRecomputeMillis()),
                    ms(s.medianRecoveryWallMillis()), ms(s.medianTimeToResumeMillis()),
                    s.recomputedWork().isEmpty() ? "-" : s.recomputedWork().get(0).toString(), s.recomputedWork());
        }
    }

    /** The ITER of {@code RANK@ITER}. */
    private static int iterationOf(String kill) {
        return Integer.parseInt(kill.substring(kill.indexOf('@') + 1).trim());
    }

    private static String ms(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }
}
