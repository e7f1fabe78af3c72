package org.dfr.harness.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code index.html}: the plots and the summary tables on one static page. */
final class IndexPage {

    private IndexPage() {
    }

    @SuppressWarnings("unchecked")
    static void write(Path out, ExperimentSpec spec, String meter, Map<String, Object> summary, List<String> plots,
                      List<String> notes) throws IOException {
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>dfr experiment ")
                .append(esc(spec.title())).append("</title>\n<style>body{font-family:sans-serif;margin:2em}"
                        + "table{border-collapse:collapse;margin-bottom:1.5em}td,th{border:1px solid #bbb;padding:2px 8px;"
                        + "text-align:right}th{background:#eee}td:first-child,td:nth-child(2){text-align:left}"
                        + "img{max-width:100%;border:1px solid #ddd;margin:0.5em 0}</style></head><body>\n");
        h.append("<h1>Experiment ").append(esc(spec.title())).append(" [").append(esc(meter)).append("]</h1>\n");
        h.append("<p>").append(esc(spec.kernel())).append(", cells ").append(spec.cells()).append(", ranks ")
                .append(spec.ranksGrid()).append(" (").append(spec.ranksPerHost()).append(" per host), ")
                .append(spec.iterations()).append(" iterations, checkpoint every ").append(spec.checkpointEvery())
                .append(", failures ").append(esc(String.valueOf(spec.failures()))).append(", mode ")
                .append(spec.mode()).append("; ").append(spec.repetitions()).append(" repetitions after ")
                .append(spec.warmups()).append(" warm-up runs, seed ").append(spec.seed()).append(".</p>\n");
        Map<String, Object> m = (Map<String, Object>) summary.get("meter");
        h.append("<p>Meter: <b>").append(esc(String.valueOf(m.get("source")))).append("</b> — ")
                .append(esc(String.valueOf(m.get("detail")))).append("</p>\n");
        for (String note : notes) {
            h.append("<p><i>").append(esc(note)).append("</i></p>\n");
        }
        for (String p : plots) {
            h.append("<div><img src=\"").append(p).append("\" alt=\"").append(p).append("\"></div>\n");
        }
        h.append("<h2>Per variant: mean, sd, 95 % CI [").append(esc(meter)).append("]</h2>\n<table><tr><th>variant</th>"
                + "<th>metric</th><th>unit</th><th>n</th><th>mean</th><th>sd</th><th>95 % CI</th></tr>\n");
        Map<String, Object> variants = (Map<String, Object>) summary.get("variants");
        for (Map.Entry<String, Object> v : variants.entrySet()) {
            Map<String, Object> metrics = (Map<String, Object>) ((Map<String, Object>) v.getValue()).get("metrics");
            for (Map.Entry<String, Object> e : metrics.entrySet()) {
                Map<String, Object> s = (Map<String, Object>) e.getValue();
                List<Object> ci = (List<Object>) s.get("ci95");
                h.append("<tr><td>").append(esc(v.getKey())).append("</td><td>").append(esc(e.getKey()))
                        .append("</td><td>").append(esc(String.valueOf(s.get("unit")))).append("</td><td>")
                        .append(s.get("n")).append("</td><td>").append(num(s.get("mean"))).append("</td><td>")
                        .append(num(s.get("sd"))).append("</td><td>").append(num(ci.get(0))).append(" .. ")
                        .append(num(ci.get(1))).append("</td></tr>\n");
            }
        }
        h.append("</table>\n<h2>Idle hosts: recovery power against global rollback [").append(esc(meter))
                .append("]</h2>\n<table><tr><th>variant</th><th>host</th><th>global W</th><th>variant W</th>"
                        + "<th>saving J/s</th><th>saving %</th></tr>\n");
        for (Map<String, Object> s : (List<Map<String, Object>>) summary.get("savingsVsGlobal")) {
            h.append("<tr><td>").append(esc(String.valueOf(s.get("variant")))).append("</td><td>")
                    .append(esc(String.valueOf(s.get("host")))).append("</td><td>").append(num(s.get("globalWatts")))
                    .append("</td><td>").append(num(s.get("variantWatts"))).append("</td><td>")
                    .append(num(s.get("savingWatts"))).append("</td><td>").append(num(s.get("savingPercent")))
                    .append("</td></tr>\n");
        }
        Map<String, Object> c = (Map<String, Object>) summary.get("cappingVsDfr");
        h.append("</table>\n<h2>What capping saves: idle hosts while idle, dfr+capping against dfr [")
                .append(esc(meter)).append("]</h2>\n<p>dfr ").append(num(c.get("dfrWatts"))).append(" W, dfr+capping ")
                .append(num(c.get("dfrCappingWatts"))).append(" W: saving ").append(num(c.get("savingWatts")))
                .append(" J/s (").append(num(c.get("savingPercent"))).append(" %).</p>\n");
        h.append("<p>Files: <a href=\"runs.csv\">runs.csv</a>, <a href=\"summary.csv\">summary.csv</a>, "
                + "<a href=\"summary.json\">summary.json</a>, <a href=\"samples.csv\">samples.csv</a>, "
                + "<a href=\"experiment.json\">experiment.json</a>.</p>\n</body></html>\n");
        Files.writeString(out.resolve("index.html"), h.toString());
    }

    private static String num(Object v) {
        return v instanceof Number n ? String.format(Locale.ROOT, "%.3f", n.doubleValue()) : "n/a";
    }

    /** {@code s} as HTML text. */
    static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
