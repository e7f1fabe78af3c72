package org.dfr.harness.experiment;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.dfr.power.AtomicFiles;

/** A sweep's {@code index.html}: its plots, a table of every point's variants, and links to the points' own pages. */
final class SweepPage {

    /** The metrics of the table, as summary.json names them. */
    private static final List<String> METRICS = List.of("solver_joules", "recovery_joules", "idle_host_watts",
            "recomputed_partition_iterations", "recovery_wall_ms");

    private SweepPage() {
    }

    static void write(Path out, ExperimentSpec spec, List<ExperimentSweep.Point> points, List<String> plots,
                      List<String> notes) throws IOException {
        Sweep sweep = spec.sweep();
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>dfr sweep ").append(esc(sweep.toString()))
                .append("</title>\n<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;"
                        + "margin-bottom:1.5em}td,th{border:1px solid #bbb;padding:2px 8px;text-align:right}"
                        + "th{background:#eee}td:first-child,td:nth-child(2){text-align:left}"
                        + "img{max-width:100%;border:1px solid #ddd;margin:0.5em 0}</style></head><body>\n");
        h.append("<h1>Sweep of ").append(esc(sweep.parameter().label())).append(": ")
                .append(esc(String.join(", ", sweep.values())));
        if (sweep.by() != null) {
            h.append(", by ").append(esc(sweep.by().parameter().label())).append(": ")
                    .append(esc(String.join(", ", sweep.by().values())));
        }
        h.append("</h1>\n");
        h.append("<p>").append(esc(spec.title())).append(": ").append(esc(spec.kernel())).append(", cells ")
                .append(spec.cells()).append(", ranks ").append(spec.ranksGrid()).append(" (").append(spec.ranksPerHost())
                .append(" per host), ").append(spec.iterations()).append(" iterations, checkpoint every ")
                .append(spec.checkpointEvery()).append(", failures ").append(esc(String.valueOf(spec.failures())))
                .append(", mode ").append(spec.mode()).append("; ").append(spec.repetitions())
                .append(" repetitions after ").append(spec.warmups()).append(" warm-up runs per point; ")
                .append(esc(sweep.parameter().label()))
                .append(sweep.by() == null ? "" : " and " + esc(sweep.by().parameter().label()))
                .append(" replaced at each point.</p>\n");
        for (String note : notes) {
            h.append("<p><i>").append(esc(note)).append("</i></p>\n");
        }
        for (String p : plots) {
            h.append("<div><img src=\"").append(p).append("\" alt=\"").append(p).append("\"></div>\n");
        }
        h.append("<h2>Mean per point and variant (the intervals are in sweep.csv)</h2>\n<table><tr><th>")
                .append(esc(sweep.parameter().label())).append("</th>")
                .append(sweep.by() == null ? "" : "<th>" + esc(sweep.by().parameter().label()) + "</th>")
                .append("<th>variant</th>");
        METRICS.forEach(m -> h.append("<th>").append(m).append("</th>"));
        h.append("<th>failed runs</th></tr>\n");
        for (ExperimentSweep.Point p : points) {
            for (Variant v : spec.variants()) {
                h.append("<tr><td><a href=\"").append(p.directory()).append("/index.html\">").append(esc(p.value()))
                        .append("</a></td>").append(p.byValue() == null ? "" : "<td>" + esc(p.byValue()) + "</td>")
                        .append("<td>").append(esc(v.label())).append("</td>");
                for (String m : METRICS) {
                    double mean = p.mean(v, m);
                    h.append("<td>").append(Double.isFinite(mean) ? String.format(Locale.ROOT, "%.3f", mean) : "n/a")
                            .append("</td>");
                }
                h.append("<td>").append(p.result().failures().size()).append("</td></tr>\n");
            }
        }
        h.append("</table>\n<p>Files: <a href=\"sweep.csv\">sweep.csv</a>, <a href=\"sweep-runs.csv\">sweep-runs.csv</a>, <a href=\"sweep.json\">sweep.json</a>, "
                + "<a href=\"experiment.json\">experiment.json</a>; each point's own files in its directory.</p>\n"
                + "</body></html>\n");
        AtomicFiles.writeString(out.resolve("index.html"), h.toString());
    }

    private static String esc(String s) {
        return IndexPage.esc(s);
    }
}
