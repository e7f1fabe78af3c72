package org.dfr.power.freq;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import org.dfr.power.AtomicFiles;
import org.dfr.power.sysfs.SysfsRoot;

/**
 * A JSON file holding the original frequency limits while a host is capped. It is written atomically
 * (temporary file, fsync, {@code ATOMIC_MOVE}) before the first sysfs write and removed only after a
 * complete restore, so its presence at start-up means a previous process was killed while capped.
 *
 * <p>The default location is {@code ~/.dfr/freq-journal.json} for the real root {@code /}, and
 * {@code ~/.dfr/freq-journal-<hash of the root>.json} for any other root, so fake trees never share a
 * journal with the machine.
 */
public final class RestoreJournal {

    /** The directory under the user's home that holds default journals. */
    public static final String DEFAULT_DIRECTORY = ".dfr";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path file;

    public RestoreJournal(Path file) {
        this.file = Objects.requireNonNull(file, "file").toAbsolutePath().normalize();
    }

    /** @return the journal for {@code root} in {@code ~/.dfr} */
    public static RestoreJournal defaultFor(SysfsRoot root) {
        return inDirectory(Path.of(System.getProperty("user.home"), DEFAULT_DIRECTORY), root);
    }

    /** @return the journal for {@code root} in {@code directory} */
    public static RestoreJournal inDirectory(Path directory, SysfsRoot root) {
        return new RestoreJournal(directory.resolve(fileName(root)));
    }

    static String fileName(SysfsRoot root) {
        if (root.isSystem()) {
            return "freq-journal.json";
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256")
                    .digest(root.path().toString().getBytes(StandardCharsets.UTF_8));
            return "freq-journal-" + HexFormat.of().formatHex(hash, 0, 6) + ".json";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    public Path file() {
        return file;
    }

    public boolean exists() {
        return Files.exists(file);
    }

    /**
     * @return the journaled limits, or empty when there is no journal
     * @throws IOException when a journal exists but cannot be read or parsed (it is then left in place)
     */
    public Optional<JournalRecord> read() throws IOException {
        try {
            JournalRecord record = JSON.readValue(file.toFile(), JournalRecord.class);
            if (record.version() != JournalRecord.FORMAT_VERSION) {
                throw new IOException(file + " has format version " + record.version()
                        + "; this build reads version " + JournalRecord.FORMAT_VERSION);
            }
            return Optional.of(record);
        } catch (NoSuchFileException | FileNotFoundException e) {
            return Optional.empty();
        } catch (JsonProcessingException e) {
            // one line, not Jackson's two with the source location: the user needs the file and what to do
            throw new IOException(file + " is not a readable restore journal (" + String.valueOf(e.getOriginalMessage()).replace('\n', ' ')
                    + "): the limits it saved are lost; set each policy's scaling_min_freq and scaling_max_freq back"
                    + " by hand (dfr power status shows them), then delete the journal", e);
        }
    }

    /** Atomically replaces the journal with {@code record}. */
    public void write(JournalRecord record) throws IOException {
        AtomicFiles.writeString(file, JSON.writeValueAsString(record) + System.lineSeparator());
    }

    /** Removes the journal; absent is fine. */
    public void delete() throws IOException {
        Files.deleteIfExists(file);
    }

    @Override
    public String toString() {
        return file.toString();
    }
}
