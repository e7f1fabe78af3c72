package org.dfr.simulator.report;

import com.fasterxml.jackson.databind.SequenceWriter;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/** Writes records as CSV with a header row, columns in the records' {@code @JsonPropertyOrder}. */
public final class CsvFiles {

    /** Quotes only what needs it: by default Jackson quotes every string of more than 24 characters, headers too. */
    private static final CsvMapper MAPPER = CsvMapper.builder().enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING)
            .build();

    private CsvFiles() {
    }

    /** Writes {@code rows} of {@code type} to {@code file}, replacing it. */
    public static <T> void write(Path file, Class<T> type, List<T> rows) {
        CsvSchema schema = MAPPER.schemaFor(type).withHeader();
        try (SequenceWriter writer = MAPPER.writer(schema).writeValues(file.toFile())) {
            writer.writeAll(rows);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Reads {@code file} back as rows of {@code type}. */
    public static <T> List<T> read(Path file, Class<T> type) {
        CsvSchema schema = MAPPER.schemaFor(type).withHeader();
        try {
            return MAPPER.readerFor(type).with(schema).<T>readValues(file.toFile()).readAll();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
