package org.dfr.power.timeline;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import org.dfr.power.AtomicFiles;

/**
 * The power time series of a run as CSV (written by {@code dfr run --samples} and {@code dfr experiment}).
 * Columns: {@code timestamp} ISO-8601 UTC with milliseconds, {@code epoch_millis}, {@code seconds} since the
 * run was launched (monotonic), {@code host}, {@code phase}, {@code watts} (mean W over the interval ending
 * at the timestamp; empty when nothing is measured), {@code source} ({@code rapl}, {@code perf},
 * {@code model}, {@code none}), {@code source_detail} (RAPL domain or model constants).
 */
public final class TimelineCsv {

    /** The header row. */
    public static final String HEADER = "timestamp,epoch_millis,seconds,host,phase,watts,source,source_detail";

    /** ISO-8601 in UTC, always with milliseconds. */
    public static final DateTimeFormatter TIMESTAMP = DateTimeFormatter
            .ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private TimelineCsv() {
    }

    /** @return one CSV row (no newline) with {@code prefix} cells (already formatted) before the columns */
    public static String row(TimelineSample s) {
        return TIMESTAMP.format(Instant.ofEpochMilli(s.epochMillis())) + "," + s.epochMillis() + ","
                + String.format(Locale.ROOT, "%.3f", s.seconds()) + "," + cell(s.host()) + "," + s.phase().label()
                + "," + (s.watts() == null ? "" : String.format(Locale.ROOT, "%.3f", s.watts())) + "," + s.source()
                + "," + cell(s.sourceDetail());
    }

    /** @return the CSV text, header first */
    public static String format(List<TimelineSample> samples) {
        StringBuilder csv = new StringBuilder(HEADER).append('\n');
        for (TimelineSample s : samples) {
            csv.append(row(s)).append('\n');
        }
        return csv.toString();
    }

    /** Writes the samples atomically. */
    public static void write(Path file, List<TimelineSample> samples) throws IOException {
        AtomicFiles.writeString(file, format(samples));
    }

    /** @return {@code text} quoted when it holds a comma, quote or newline */
    public static String cell(String text) {
        if (text == null) {
            return "";
        }
        if (text.contains(",") || text.contains("\"") || text.contains("\n")) {
            return '"' + text.replace("\"", "\"\"") + '"';
        }
        return text;
    }
}
