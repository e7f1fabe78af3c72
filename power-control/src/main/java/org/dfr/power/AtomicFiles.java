package org.dfr.power;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Writes whole files so that a reader (or a process started after a crash) sees either the old content
 * or the new one, never half of it: the bytes go to a temporary file in the same directory, are forced
 * to disk, and the temporary file is renamed over the target with {@code ATOMIC_MOVE}.
 *
 * <p>Every file dfr writes for its users (reports, CSV, journals, campaign files) goes through here, so
 * all have one mode: {@code rw-r--r--}, what {@code Files.write} gives under the usual umask. A temporary
 * file alone would be {@code rw-------}, and a run's report was unreadable to a colleague where an
 * experiment's CSV was not. A file with a secret is written {@code rw-------} ({@link #PRIVATE_MODE}).
 */
public final class AtomicFiles {

    /** The mode of every file written here, where the file system has POSIX permissions. */
    public static final Set<PosixFilePermission> MODE = PosixFilePermissions.fromString("rw-r--r--");
    /** The mode of a file that holds a secret (a rank configuration's data-plane token): the owner's alone. */
    public static final Set<PosixFilePermission> PRIVATE_MODE = PosixFilePermissions.fromString("rw-------");

    /** Fills the temporary file that then replaces the target. */
    @FunctionalInterface
    public interface Content {
        void writeTo(Path temporary) throws IOException;
    }

    private AtomicFiles() {
    }

    /**
     * Atomically replaces {@code target} with {@code content} (UTF-8), creating parent directories.
     *
     * @throws IOException when the file cannot be written; the target is then left unchanged
     */
    public static void writeString(Path target, String content) throws IOException {
        write(target, tmp -> {
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer bytes = ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
            }
        });
    }

    /**
     * Atomically replaces {@code target} with what {@code content} writes into a temporary file beside it, forced
     * to disk first (a restore journal must survive a power loss, not only a SIGKILL); creates parent directories.
     *
     * @throws IOException when the file cannot be written; the target is then left unchanged
     */
    public static void write(Path target, Content content) throws IOException {
        write(target, content, MODE);
    }

    /** As {@link #write(Path, Content)}, the file given {@code mode} (where the file system has POSIX permissions). */
    public static void write(Path target, Content content, Set<PosixFilePermission> mode) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path dir = absolute.getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "." + absolute.getFileName(), ".tmp");
        try {
            content.writeTo(tmp);
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            try {
                Files.setPosixFilePermissions(tmp, mode);
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: its default permissions stand
            }
            Files.move(tmp, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
