package org.dfr.power;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Set;

/**
 * Writes whole files so that a reader (or a process started after a crash) sees either the old content
 * or the new one, never half of it: the bytes go to a temporary file in the same directory, are forced
 * to disk, and the temporary file is renamed over the target with {@code ATOMIC_MOVE}.
 *
 * <p>Every file dfr writes for its users (reports, CSV, journals, campaign files) goes through here, so
 * all get the mode any file the user writes gets: the temporary file is created as {@code Files.write} creates
 * one, under the user's umask ({@code rw-r--r--} under the usual 022, {@code rw-------} under 077). One from
 * {@code Files.createTempFile} would always be {@code rw-------}, and a run's report was unreadable to a
 * colleague where an experiment's CSV was not. A file with a secret is written {@code rw-------}
 * ({@link #PRIVATE_MODE}) whatever the umask.
 */
public final class AtomicFiles {

    /** The mode of a file that holds a secret (a rank configuration's data-plane token): the owner's alone. */
    public static final Set<PosixFilePermission> PRIVATE_MODE = PosixFilePermissions.fromString("rw-------");

    /** Fills the temporary file that then replaces the target. */
    @FunctionalInterface
    public interface Content {
        void writeTo(Path temporary) throws IOException;
    }

    private static final SecureRandom RANDOM = new SecureRandom();

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
        write(target, content, null);
    }

    /**
     * As {@link #write(Path, Content)}, the file given {@code mode} where the file system has POSIX permissions
     * ({@code null}: the umask's).
     */
    public static void write(Path target, Content content, Set<PosixFilePermission> mode) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path dir = absolute.getParent();
        Files.createDirectories(dir);
        Path tmp = createTemporary(dir, absolute.getFileName().toString());
        try {
            content.writeTo(tmp);
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            if (mode != null) {
                try {
                    Files.setPosixFilePermissions(tmp, mode);
                } catch (UnsupportedOperationException e) {
                    // not a POSIX file system: its default permissions stand
                }
            }
            Files.move(tmp, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** A new empty file beside the target, with a name nobody else uses, created under the umask. */
    private static Path createTemporary(Path dir, String name) throws IOException {
        for (int attempt = 0; ; attempt++) {
            Path tmp = dir.resolve("." + name + "." + Long.toUnsignedString(RANDOM.nextLong(), 36) + ".tmp");
            try {
                return Files.createFile(tmp);
            } catch (FileAlreadyExistsException e) {
                if (attempt >= 100) {
                    throw e;
                }
            }
        }
    }
}
