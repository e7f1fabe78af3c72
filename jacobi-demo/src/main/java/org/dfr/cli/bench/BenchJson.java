package org.dfr.cli.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.dfr.harness.RunReports;

/** Writes benchmark results as JSON, atomically (temp file + move): a reader never sees half a file. */
public final class BenchJson {

    private BenchJson() {
    }

    /** Writes {@code value} (a record) to {@code file}. */
    public static void write(Object value, Path file) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
            try {
                RunReports.JSON.writeValue(tmp.toFile(), value);
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
