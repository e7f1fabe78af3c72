package org.dfr.harness;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Class data sharing (AppCDS) for the rank JVMs: the classes a rank loads (Hazelcast's several
 * thousand, the runtime's, the kernel's) are mapped from one archive instead of being read from the
 * jar, verified and parsed again by each of the 8 JVMs that start at the same moment on 2 cores.
 *
 * <p>The archive is made once per class path: the first run without one gives rank 0
 * {@code -XX:ArchiveClassesAtExit}, which the JVM writes when rank 0 exits (about a second, once);
 * {@link #adopt} then moves it into place atomically. Its name is a digest of the class path
 * entries' paths, sizes and modification times and of the JVM, so a rebuilt jar gets a new archive
 * and never meets a stale one (the JVM would ignore a stale one anyway, and only print a warning).
 *
 * <p>Where it cannot work, the ranks start as before, without an archive: a class path with a
 * directory before a jar (AppCDS archives only jars, and a JVM refuses to write an archive when a
 * non-empty directory precedes one; {@link ProcessLauncher#classPath} puts directories last), a JVM that failed to
 * write the archive once (a marker file remembers it), an unwritable directory, or
 * {@code -D}{@value #ENABLED_PROPERTY}{@code =false}.
 */
final class RankJvmArchive {

    private static final Logger LOG = LoggerFactory.getLogger(RankJvmArchive.class);

    /** System property: {@code false} starts the ranks without class data sharing. */
    static final String ENABLED_PROPERTY = "dfr.cds";
    /** System property: the directory of the archives (default {@code ~/.dfr/cds}). */
    static final String DIRECTORY_PROPERTY = "dfr.cdsDir";
    /** Suffix of the marker left when the JVM did not write an archive: no second attempt. */
    static final String UNAVAILABLE_SUFFIX = ".unavailable";
    /** Archives kept in the directory (the newest ones: a few builds in use at once, e.g. worktrees). */
    static final int KEPT_ARCHIVES = 4;
    /** An archive smaller than this is not one (the JVM writes megabytes). */
    private static final long MIN_ARCHIVE_BYTES = 4_096;
    /** The JVM's notes about the archive (a class it skipped, a mismatch) would go to the rank's stdout. */
    private static final String QUIET = "-Xlog:cds=off,cds+dynamic=off";

    private static final AtomicLong PENDING_SEQUENCE = new AtomicLong();

    private final Path archive;
    private final Path pending;
    private final State state;

    private enum State { USE, CREATE, NONE }

    private RankJvmArchive(Path archive, Path pending, State state) {
        this.archive = archive;
        this.pending = pending;
        this.state = state;
    }

    /** No archive: the ranks start as they would without this class. */
    static RankJvmArchive none() {
        return new RankJvmArchive(null, null, State.NONE);
    }

    /** The archive of the rank JVMs for {@code classPath}, to use or to create. */
    static RankJvmArchive forClassPath(String classPath) {
        if ("false".equals(System.getProperty(ENABLED_PROPERTY))) {
            return none();
        }
        Optional<String> key = key(classPath);
        if (key.isEmpty()) {
            return none();
        }
        Path dir = directory();
        Path archive = dir.resolve("rank-" + key.get() + ".jsa");
        if (Files.exists(archive.resolveSibling(archive.getFileName() + UNAVAILABLE_SUFFIX))) {
            return none();
        }
        if (Files.isRegularFile(archive)) {
            return new RankJvmArchive(archive, null, State.USE);
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            LOG.debug("no class data sharing for the ranks: cannot create {}: {}", dir, e.getMessage());
            return none();
        }
        // unique per launch: two runs of one JVM (a test, a campaign) may both be writing one
        Path pending = dir.resolve("rank-" + key.get() + ".jsa.tmp-" + ProcessHandle.current().pid() + "-"
                + PENDING_SEQUENCE.incrementAndGet());
        return new RankJvmArchive(archive, pending, State.CREATE);
    }

    /** The JVM options of rank {@code rank}: map the archive, or (rank 0, once) write it at exit. */
    List<String> optionsFor(int rank) {
        return switch (state) {
            case USE -> List.of("-XX:SharedArchiveFile=" + archive, QUIET);
            case CREATE -> rank == 0 ? List.of("-XX:ArchiveClassesAtExit=" + pending, QUIET) : List.of();
            case NONE -> List.of();
        };
    }

    /** Whether the ranks map an existing archive. */
    boolean inUse() {
        return state == State.USE;
    }

    /**
     * After the run: moves the archive rank 0 wrote into place. When rank 0 exited cleanly and wrote
     * nothing, this JVM cannot make one: a marker stops later runs from trying again.
     */
    void adopt(boolean rankZeroExitedCleanly) {
        if (state != State.CREATE) {
            return;
        }
        try {
            if (Files.isRegularFile(pending) && Files.size(pending) >= MIN_ARCHIVE_BYTES && rankZeroExitedCleanly) {
                Files.move(pending, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                LOG.info("class data archive of the rank JVMs written: {}", archive);
                pruneOldArchives(archive.getParent(), KEPT_ARCHIVES);
            } else if (rankZeroExitedCleanly) {
                Files.writeString(archive.resolveSibling(archive.getFileName() + UNAVAILABLE_SUFFIX),
                        "this JVM wrote no class data archive for the rank processes\n");
            }
        } catch (IOException e) {
            LOG.debug("cannot keep the class data archive {}: {}", pending, e.getMessage());
        } finally {
            try {
                Files.deleteIfExists(pending);
            } catch (IOException e) {
                LOG.debug("cannot delete {}: {}", pending, e.getMessage());
            }
        }
    }

    /**
     * Deletes all but the {@code kept} newest archives of {@code dir}: every build of the jar makes a
     * new one (about 40 MB), and the old ones match no jar any more.
     */
    static void pruneOldArchives(Path dir, int kept) {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> archives = files
                    .filter(p -> p.getFileName().toString().startsWith("rank-")
                            && p.getFileName().toString().endsWith(".jsa"))
                    .sorted(Comparator.comparing(RankJvmArchive::modified).reversed())
                    .toList();
            for (Path old : archives.subList(Math.min(kept, archives.size()), archives.size())) {
                Files.deleteIfExists(old);
                Files.deleteIfExists(old.resolveSibling(old.getFileName() + UNAVAILABLE_SUFFIX));
            }
        } catch (IOException | UncheckedIOException e) {
            LOG.debug("cannot prune the class data archives of {}: {}", dir, e.getMessage());
        }
    }

    private static long modified(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    private static Path directory() {
        String dir = System.getProperty(DIRECTORY_PROPERTY);
        return dir != null ? Path.of(dir) : Path.of(System.getProperty("user.home"), ".dfr", "cds");
    }

    /**
     * A digest of the class path's jars (path, size, modification time) and of this JVM; empty when an
     * entry is neither a jar nor a directory, or a directory comes before a jar (the JVM refuses to write
     * an archive then). Directories after the jars count by their path only: their classes are never
     * archived, so a recompiled class there leaves the archive valid.
     */
    static Optional<String> key(String classPath) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            return Optional.empty();
        }
        update(digest, System.getProperty("java.home"));
        update(digest, System.getProperty("java.vm.version"));
        Path directorySeen = null;
        for (String entry : classPath.split(File.pathSeparator)) {
            if (entry.isEmpty()) {
                continue;
            }
            Path p = Path.of(entry).toAbsolutePath().normalize();
            if (Files.notExists(p)) {
                // the JVM skips it, now and when the archive is mapped (a module without classes of its own)
                update(digest, p.toString());
                continue;
            }
            if (Files.isDirectory(p)) {
                directorySeen = directorySeen == null ? p : directorySeen;
                update(digest, p.toString());
                continue;
            }
            if (!Files.isRegularFile(p) || !p.getFileName().toString().endsWith(".jar")) {
                LOG.debug("no class data sharing for the ranks: class path entry {} is not a jar", p);
                return Optional.empty();
            }
            if (directorySeen != null) {
                LOG.debug("no class data sharing for the ranks: the directory {} comes before the jar {}",
                        directorySeen, p);
                return Optional.empty();
            }
            try {
                update(digest, p + "|" + Files.size(p) + "|" + Files.getLastModifiedTime(p).toMillis());
            } catch (IOException e) {
                return Optional.empty();
            }
        }
        return Optional.of(HexFormat.of().formatHex(digest.digest(), 0, 12));
    }

    private static void update(MessageDigest digest, String text) {
        digest.update(String.valueOf(text).getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
    }
}
