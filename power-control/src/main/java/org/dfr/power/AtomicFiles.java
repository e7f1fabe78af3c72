package org.dfr.power;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes whole files so that a reader (or a process started after a crash) sees either the old content
 * or the new one, never half of it: the bytes go to a temporary file in the same directory, are forced
 * to disk, and the temporary file is renamed over the target with {@code ATOMIC_MOVE}.
 */
public final class AtomicFiles {

    private AtomicFiles() {
    }

    /**
     * Atomically replaces {@code target} with {@code content} (UTF-8), creating parent directories.
     *
     * @throws IOException when the file cannot be written; the target is then left unchanged
     */
    public static void writeString(Path target, String content) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path dir = absolute.getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "." + absolute.getFileName(), ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer bytes = ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                // the journal must survive a power loss, not only a SIGKILL
                channel.force(true);
            }
            Files.move(tmp, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
