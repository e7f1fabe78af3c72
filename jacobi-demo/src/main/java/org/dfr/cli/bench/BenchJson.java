package org.dfr.cli.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.dfr.harness.RunReports;
import org.dfr.power.AtomicFiles;

/** Writes benchmark results as JSON, atomically (temp file + move): a reader never sees half a file. */
public final class BenchJson {

    private BenchJson() {
    }

    /** Writes {@code value} (a record) to {@code file}. */
    public static void write(Object value, Path file) {
        try {
            AtomicFiles.write(file, tmp -> RunReports.JSON.writeValue(tmp.toFile(), value));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
