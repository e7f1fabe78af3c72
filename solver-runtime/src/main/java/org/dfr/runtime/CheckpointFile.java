package org.dfr.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * One partition's checkpoint on disk, and the directory that holds them.
 *
 * <p>Layout: {@code DIR/<run key>/<iteration>/<partition>.ckpt}, one file per (problem, iteration,
 * partition). A file is: a 20-byte header (big-endian ints: magic {@code "DFRC"}, format version,
 * partition, iteration, number of doubles {@code n}), the {@code n} state doubles (big-endian), then the
 * CRC32C of everything before it (4 bytes). It is written to a temporary file in the same directory,
 * forced to disk, renamed over the final name and the directory forced: a reader sees a whole file or
 * none, and a torn or corrupted one fails its checksum.
 *
 * <p>No manifest: an iteration is <em>complete</em> when the file of every partition is present and
 * valid, which is checked when a run restarts ({@link #newestComplete}). Ranks write independently, so
 * a partial newest iteration (a rank died or skipped the write) simply is not complete.
 */
public final class CheckpointFile {

    /** {@code "DFRC"}. */
    public static final int MAGIC = 0x44465243;
    public static final int VERSION = 1;
    static final int HEADER_BYTES = 20;
    static final int CHECKSUM_BYTES = 4;
    public static final String SUFFIX = ".ckpt";

    private CheckpointFile() {
    }

    /** A file that is not a valid checkpoint of the expected partition and iteration. */
    public static final class InvalidCheckpointException extends IOException {
        private static final long serialVersionUID = 1L;

        InvalidCheckpointException(Path file, String reason) {
            super(file + ": " + reason);
        }
    }

    /** The directory of one problem's file checkpoints. */
    public static Path runDirectory(Path root, String runKey) {
        return root.resolve(runKey);
    }

    /** The file of one partition's checkpoint. */
    public static Path path(Path root, String runKey, int iteration, int partition) {
        return runDirectory(root, runKey).resolve(Integer.toString(iteration)).resolve(partition + SUFFIX);
    }

    /** The bytes of a file holding {@code state}. */
    static ByteBuffer encode(int partition, int iteration, double[] state) {
        ByteBuffer buf = ByteBuffer.allocate(HEADER_BYTES + state.length * Double.BYTES + CHECKSUM_BYTES)
                .order(ByteOrder.BIG_ENDIAN);
        buf.putInt(MAGIC).putInt(VERSION).putInt(partition).putInt(iteration).putInt(state.length);
        buf.asDoubleBuffer().put(state);
        buf.position(HEADER_BYTES + state.length * Double.BYTES);
        CRC32C crc = new CRC32C();
        crc.update(buf.array(), 0, buf.position());
        buf.putInt((int) crc.getValue());
        buf.flip();
        return buf;
    }

    /** Writes one partition's checkpoint atomically (temporary file, fsync, rename, fsync of the directory). */
    public static void write(Path file, int partition, int iteration, double[] state) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, file.getFileName().toString() + ".", ".tmp");
        try {
            ByteBuffer bytes = encode(partition, iteration, state);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                while (bytes.hasRemaining()) {
                    ch.write(bytes);
                }
                ch.force(true);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
            forceDirectory(dir);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void forceDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            // some platforms cannot open a directory: the rename is then as durable as they make it
        }
    }

    /**
     * Reads one partition's checkpoint.
     *
     * @throws NoSuchFileException when the file is missing
     * @throws InvalidCheckpointException naming the file and what is wrong with it
     */
    public static double[] read(Path file, int partition, int iteration) throws IOException {
        long size = Files.size(file);
        if (size < HEADER_BYTES + CHECKSUM_BYTES) {
            throw new InvalidCheckpointException(file, "truncated: " + size + " bytes, shorter than a header");
        }
        if (size > Integer.MAX_VALUE) {
            throw new InvalidCheckpointException(file, "too large: " + size + " bytes");
        }
        ByteBuffer buf = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.BIG_ENDIAN);
        int magic = buf.getInt();
        if (magic != MAGIC) {
            throw new InvalidCheckpointException(file, String.format("not a dfr checkpoint (magic 0x%08x)", magic));
        }
        int version = buf.getInt();
        if (version != VERSION) {
            throw new InvalidCheckpointException(file, "format version " + version + ", this build reads " + VERSION);
        }
        int p = buf.getInt();
        int it = buf.getInt();
        int n = buf.getInt();
        long expected = HEADER_BYTES + (long) n * Double.BYTES + CHECKSUM_BYTES;
        if (n < 0 || expected != buf.capacity()) {
            throw new InvalidCheckpointException(file, (buf.capacity() < expected ? "truncated: " : "wrong size: ")
                    + buf.capacity() + " bytes, the header announces " + n + " doubles (" + expected + " bytes)");
        }
        CRC32C crc = new CRC32C();
        crc.update(buf.array(), 0, (int) expected - CHECKSUM_BYTES);
        int stored = buf.getInt((int) expected - CHECKSUM_BYTES);
        if (stored != (int) crc.getValue()) {
            throw new InvalidCheckpointException(file, String.format("checksum mismatch (stored %08x, computed %08x)",
                    stored, (int) crc.getValue()));
        }
        if (p != partition || it != iteration) {
            throw new InvalidCheckpointException(file, "holds partition " + p + " of iteration " + it
                    + ", expected partition " + partition + " of iteration " + iteration);
        }
        double[] state = new double[n];
        buf.position(HEADER_BYTES);
        buf.asDoubleBuffer().get(state);
        return state;
    }

    /** The iterations that have a directory under {@code runDirectory}, newest first. */
    public static List<Integer> iterations(Path runDirectory) throws IOException {
        List<Integer> found = new ArrayList<>();
        if (!Files.isDirectory(runDirectory)) {
            return found;
        }
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(runDirectory)) {
            for (Path d : dirs) {
                String name = d.getFileName().toString();
                if (Files.isDirectory(d) && name.matches("\\d{1,9}")) {
                    found.add(Integer.parseInt(name));
                }
            }
        }
        found.sort(Comparator.reverseOrder());
        return found;
    }

    /**
     * The newest iteration before {@code before} whose every partition's file is present and valid, or -1.
     * Every newer iteration that is not complete is reported to {@code skipped} with the first file
     * that is missing or invalid and why.
     */
    public static int newestComplete(Path root, String runKey, int partitionCount, int before,
                                     Consumer<String> skipped) throws IOException {
        for (int c : iterations(runDirectory(root, runKey))) {
            if (c >= before) {
                continue;
            }
            String problem = null;
            for (int p = 0; p < partitionCount && problem == null; p++) {
                Path file = path(root, runKey, c, p);
                try {
                    read(file, p, c);
                } catch (NoSuchFileException e) {
                    problem = "file " + file + " is missing";
                } catch (InvalidCheckpointException e) {
                    problem = "file " + e.getMessage();
                }
            }
            if (problem == null) {
                return c;
            }
            skipped.accept("checkpoint iteration " + c + " is not complete, skipping it: " + problem);
        }
        return -1;
    }

    /** Whether every partition's file of {@code iteration} exists (no content check). */
    static boolean allPresent(Path root, String runKey, int iteration, int partitionCount) {
        for (int p = 0; p < partitionCount; p++) {
            if (!Files.exists(path(root, runKey, iteration, p))) {
                return false;
            }
        }
        return true;
    }
}
