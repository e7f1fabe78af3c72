package org.dfr.power.energy;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.dfr.power.AtomicFiles;
import org.dfr.power.timeline.TimelineCsv;

/**
 * Writes samples as CSV, one row per reading, atomically. Unknown values are empty cells. The first columns are
 * those {@code dfr run --samples} writes ({@link TimelineCsv}), with its names, order and formats, so that the two
 * can be aligned by wall-clock time: {@code timestamp} (ISO-8601 UTC), {@code epoch_millis}, {@code seconds}
 * (since the sampler's first reading), {@code host}, {@code phase}, {@code watts} (mean over the interval ending at
 * the reading), {@code source}, {@code source_detail}; then the meter's {@code energy_joules} (since the first
 * reading) and {@code interval_joules} (since the reading before).
 */
public final class SampleCsv {

    /** The header row. */
    public static final String HEADER =
            TimelineCsv.HEADER + ",energy_joules,interval_joules";

    private SampleCsv() {
    }

    /** @return the CSV text of {@code samples}, header first */
    public static String format(List<PowerSample> samples) {
        StringBuilder csv = new StringBuilder(HEADER).append('\n');
        for (PowerSample s : samples) {
            csv.append(TimelineCsv.TIMESTAMP.format(Instant.ofEpochMilli(s.epochMillis()))).append(',')
                    .append(s.epochMillis()).append(',')
                    .append(String.format(Locale.ROOT, "%.3f", s.elapsedSeconds())).append(',')
                    .append(cell(s.host())).append(',')
                    .append(s.phase().label()).append(',')
                    .append((s.powerWatts() == null ? "" : String.format(Locale.ROOT, "%.3f", s.powerWatts()))).append(',')
                    .append(s.source().label()).append(',')
                    .append(cell(s.sourceDetail())).append(',')
                    .append(number(s.energyJoules())).append(',')
                    .append(number(s.intervalJoules())).append('\n');
        }
        return csv.toString();
    }

    /** Writes {@code samples} to {@code file} atomically. */
    public static void write(Path file, List<PowerSample> samples) throws IOException {
        AtomicFiles.writeString(file, format(samples));
    }

    private static String number(Double value) {
        return value == null ? "" : String.format(Locale.ROOT, "%.6f", value);
    }

    private static String cell(String text) {
        if (text.contains(",") || text.contains("\"") || text.contains("\n")) {
            return '"' + text.replace("\"", "\"\"") + '"';
        }
        return text;
    }
}
