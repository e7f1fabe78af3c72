package org.dfr.power.energy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.dfr.power.AtomicFiles;

/**
 * Writes samples as CSV, one row per reading, atomically. Unknown values are empty cells. The columns that
 * {@code dfr run --samples} also writes ({@link org.dfr.power.timeline.TimelineCsv}) have its names and order:
 * {@code seconds} (since the sampler's first reading), {@code host}, {@code phase}, {@code watts} (mean over the
 * interval ending at the reading), {@code source}, {@code source_detail}; then the meter's {@code energy_joules}
 * (since the first reading) and {@code interval_joules} (since the reading before).
 */
public final class SampleCsv {

    /** The header row. */
    public static final String HEADER =
            "seconds,host,phase,watts,source,source_detail,energy_joules,interval_joules";

    private SampleCsv() {
    }

    /** @return the CSV text of {@code samples}, header first */
    public static String format(List<PowerSample> samples) {
        StringBuilder csv = new StringBuilder(HEADER).append('\n');
        for (PowerSample s : samples) {
            csv.append(String.format(Locale.ROOT, "%.6f", s.elapsedSeconds())).append(',')
                    .append(cell(s.host())).append(',')
                    .append(s.phase().label()).append(',')
                    .append(number(s.powerWatts())).append(',')
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
