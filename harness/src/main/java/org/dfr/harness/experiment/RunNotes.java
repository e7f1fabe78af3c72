package org.dfr.harness.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.apache.commons.math3.stat.descriptive.rank.Median;
import org.dfr.harness.RunReport;

/**
 * What a variant's runs did that its name does not say: dfr whose cone covered every partition ran global rollback
 * (its idle-host figures are then "n/a" for want of an idle host), and a capping variant that could cap no host ran
 * uncapped. An energy researcher varying the kill iteration saw "n/a" with no reason, and a capping variant on a tree
 * it could not write finished as if it had capped, the only trace a logger line per run.
 */
final class RunNotes {

    /** One run's note: the variant, the kind of note and its detail. */
    record Note(String variant, Kind kind, int run, String detail) {
    }

    /** The kinds of note, each with the sentence that sums it up. */
    enum Kind {
        GLOBAL_CONE("the cone covered every partition: dfr ran global rollback, and no host was idle"),
        CAPPING_IMPOSSIBLE("no host could be capped: the runs went on uncapped");

        private final String summary;

        Kind(String summary) {
            this.summary = summary;
        }
    }

    private RunNotes() {
    }

    /** The notes of one measured run. */
    static List<Note> of(Schedule.Entry entry, RunReport report) {
        List<Note> notes = new ArrayList<>();
        String variant = entry.variant().label();
        List<RunReport.Recovery> recoveries = report.recoveries() == null ? List.of() : report.recoveries();
        if (!"global".equals(report.strategy())) {
            for (RunReport.Recovery r : recoveries) {
                if (r.coversEverything()) {
                    notes.add(new Note(variant, Kind.GLOBAL_CONE, entry.index(), "m = " + r.lostIterations()));
                    break;
                }
            }
        }
        if (report.energy() != null && report.energy().get("frequencyCapping") instanceof Map<?, ?> capping) {
            TreeSet<String> reasons = new TreeSet<>();
            boolean any = false;
            boolean anyCan = false;
            for (Map.Entry<?, ?> e : capping.entrySet()) {
                if (e.getValue() instanceof Map<?, ?> host && host.containsKey("canCap")) {
                    any = true;
                    anyCan |= Boolean.TRUE.equals(host.get("canCap"));
                    if (host.get("reason") != null) {
                        reasons.add(String.valueOf(host.get("reason")));
                    }
                }
            }
            if (any && !anyCan) {
                notes.add(new Note(variant, Kind.CAPPING_IMPOSSIBLE, entry.index(), String.join("; ", reasons)));
            }
        }
        return notes;
    }

    /** How many times its variant's median iteration time a run must take to be named as an outlier. */
    static final double SLOW_FACTOR = 5;

    /**
     * Runs whose iterations took more than {@link #SLOW_FACTOR} times their variant's median (three runs or more): one
     * stalled run made a sweep point's mean 545 J with an interval of 0..2591 J, and nothing said why (an energy
     * researcher's walk-through).
     */
    static List<String> slowRuns(List<RunRow> rows) {
        Map<Variant, List<RunRow>> byVariant = new LinkedHashMap<>();
        rows.stream().filter(r -> r.iterationSeconds() > 0)
                .forEach(r -> byVariant.computeIfAbsent(r.variant(), v -> new ArrayList<>()).add(r));
        List<String> out = new ArrayList<>();
        byVariant.forEach((variant, mine) -> {
            if (mine.size() < 3) {
                return;
            }
            double median = new Median().evaluate(mine.stream().mapToDouble(RunRow::iterationSeconds).toArray());
            for (RunRow r : mine) {
                if (r.iterationSeconds() > SLOW_FACTOR * median) {
                    out.add(String.format(Locale.ROOT, "%s: run %d iterated %.0f times slower than the variant's median"
                                    + " (%.4g s against %.4g s an iteration): something else ran on the machine? It weighs"
                                    + " on the variant's means and intervals (runs.csv has every run)", variant.label(),
                            r.run(), r.iterationSeconds() / median, r.iterationSeconds(), median));
                }
            }
        });
        return out;
    }

    /** One line per variant and kind: {@code dfr: in runs [2, 5] the cone covered every partition ... (m = 6)}. */
    static List<String> summarize(List<Note> notes) {
        Map<String, List<Note>> grouped = new LinkedHashMap<>();
        for (Note n : notes) {
            grouped.computeIfAbsent(n.variant() + "\u0000" + n.kind(), k -> new ArrayList<>()).add(n);
        }
        List<String> out = new ArrayList<>();
        for (List<Note> group : grouped.values()) {
            Note first = group.get(0);
            TreeSet<String> details = new TreeSet<>();
            group.forEach(n -> details.add(n.detail()));
            details.remove("");
            out.add(first.variant() + ": in runs " + group.stream().map(Note::run).toList() + " " + first.kind().summary
                    + (details.isEmpty() ? "" : " (" + String.join("; ", details) + ")"));
        }
        return out;
    }
}
