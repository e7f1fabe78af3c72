package org.dfr.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.dfr.runtime.CheckpointFile;
import org.dfr.runtime.DiskCheckpoints;
import org.dfr.runtime.kernel.KernelProblem;

/**
 * The file level of a {@link RunConfig}: the problem's run key, and the restart iteration chosen from
 * a {@code --restart-from} directory before any rank starts.
 */
public final class FileCheckpoints {

    private FileCheckpoints() {
    }

    /**
     * The key a problem's files live under: kernel, cells and partitions in clear, and a hash of the
     * kernel's resolved options (defaults included) with them, so that another problem never reads them.
     * Independent of the cluster, the iteration count, the checkpoint interval, the strategy and faults.
     */
    public static String runKey(RunConfig config) {
        Map<String, String> options = new TreeMap<>(config.resolvedKernelOptions());
        String problem = config.kernel().name() + "|" + options + "|" + config.cells() + "|" + config.ranksGrid();
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(problem.getBytes(StandardCharsets.UTF_8));
            return config.kernel().name() + "-" + KernelProblem.join(config.cells()) + "-" + KernelProblem.join(config.ranksGrid()) + "-"
                    + HexFormat.of().formatHex(hash, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The file-level settings of a run: writing to {@code directory} (null: none) every {@code every}
     * in-memory checkpoints, restarting from {@code restartFrom} (null: none) at its newest complete
     * checkpoint before the end of the run. Skipped incomplete iterations are reported to {@code log}.
     *
     * @throws IllegalArgumentException in one line: {@code every < 1}, a restart directory that does
     *         not exist, or one without a complete checkpoint of this problem (saying what it holds)
     */
    public static DiskCheckpoints resolve(RunConfig config, Path directory, int every, Path restartFrom,
                                          Consumer<String> log) {
        if (every < 1) {
            throw new IllegalArgumentException("--file-checkpoint-every must be >= 1, got " + every);
        }
        if (directory == null && restartFrom == null) {
            return DiskCheckpoints.NONE;
        }
        String key = runKey(config);
        if (restartFrom == null) {
            return new DiskCheckpoints(directory, every, key, null, -1);
        }
        if (!Files.isDirectory(restartFrom)) {
            throw new IllegalArgumentException("--restart-from " + restartFrom + ": no such directory");
        }
        int c;
        try {
            c = CheckpointFile.newestComplete(restartFrom, key, config.partitionCount(), config.iterations(), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + restartFrom + ": " + e.getMessage(), e);
        }
        if (c < 0) {
            throw new IllegalArgumentException("--restart-from " + restartFrom + ": no complete checkpoint of this"
                    + " problem (" + key + ") before iteration " + config.iterations() + "; found "
                    + describe(restartFrom, key, config.partitionCount()));
        }
        return new DiskCheckpoints(directory, every, key, restartFrom, c);
    }

    /**
     * What a checkpoint directory holds, in a few words; this problem's iterations whose files do not all read
     * back valid say so (a run stopped while it wrote them, a file cut short), lest they read as usable.
     */
    static String describe(Path root, String key, int partitionCount) {
        List<String> found = new ArrayList<>();
        try (DirectoryStream<Path> runs = Files.newDirectoryStream(root)) {
            for (Path run : runs) {
                if (Files.isDirectory(run)) {
                    String name = run.getFileName().toString();
                    boolean mine = name.equals(key);
                    List<String> shown = new ArrayList<>();
                    for (Path level : levels(run)) {
                        int iteration = Integer.parseInt(level.getFileName().toString());
                        int valid = mine ? validFiles(level, iteration, partitionCount) : partitionCount;
                        shown.add(valid < partitionCount ? iteration + " (incomplete: " + valid + " of "
                                + partitionCount + " partitions valid)" : Integer.toString(iteration));
                    }
                    found.add((mine ? "this problem" : name) + " at iterations " + (shown.isEmpty() ? "none" : shown));
                }
            }
        } catch (IOException e) {
            return "an unreadable directory (" + e.getMessage() + ")";
        }
        return found.isEmpty() ? "no checkpoints at all" : "checkpoints of " + String.join("; ", found);
    }

    /** The iteration directories of a run directory, oldest first, as they are named. */
    private static List<Path> levels(Path run) throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(run)) {
            for (Path d : dirs) {
                if (Files.isDirectory(d) && d.getFileName().toString().matches("\\d{1,9}")) {
                    out.add(d);
                }
            }
        }
        out.sort(Comparator.comparingInt(d -> Integer.parseInt(d.getFileName().toString())));
        return out;
    }

    /** How many of the level's partitions have a file that reads back as their checkpoint of that iteration. */
    private static int validFiles(Path level, int iteration, int partitionCount) {
        int valid = 0;
        for (int p = 0; p < partitionCount; p++) {
            try {
                CheckpointFile.read(level.resolve(p + CheckpointFile.SUFFIX), p, iteration);
                valid++;
            } catch (IOException | RuntimeException e) {
                // missing, cut short or not this partition's: not valid
            }
        }
        return valid;
    }
}
