package org.dfr.runtime;

import java.nio.file.Path;

/**
 * The file level of checkpoints, and a restart from it (see {@link CheckpointFile} for the format
 * and the layout of the directory).
 *
 * @param directory        where every {@code every}-th in-memory checkpoint is also written; null: no file level
 * @param every            a file checkpoint every this many in-memory checkpoints (>= 1): iteration {@code c}
 *                         is written when {@code c > 0} and {@code c} is a multiple of {@code every * K}
 * @param runKey           names the problem (kernel, options, sizes, partitions), not the cluster: a restart
 *                         of the same problem finds the files under it; null only without a file level or restart
 * @param restartFrom      the directory to restart from; null: start from the initial state
 * @param restartIteration the complete checkpoint iteration of {@code restartFrom} every rank loads; -1 before
 *                         the launcher chose it
 */
public record DiskCheckpoints(Path directory, int every, String runKey, Path restartFrom, int restartIteration) {

    /** No file level, no restart. */
    public static final DiskCheckpoints NONE = new DiskCheckpoints(null, 1, null, null, -1);

    public DiskCheckpoints {
        if (every < 1) {
            throw new IllegalArgumentException("the file checkpoint interval must be >= 1 in-memory checkpoints, got "
                    + every);
        }
        if ((directory != null || restartFrom != null) && runKey == null) {
            throw new IllegalArgumentException("file checkpoints need a run key");
        }
    }

    /** Whether checkpoints are also written to {@link #directory}. */
    public boolean writes() {
        return directory != null;
    }

    /** Whether the run starts from checkpoint {@link #restartIteration} of {@link #restartFrom}. */
    public boolean restarts() {
        return restartFrom != null && restartIteration >= 0;
    }

    /** Whether checkpoint {@code iteration} of a run checkpointing every {@code checkpointEvery} goes to disk. */
    public boolean isFileIteration(int iteration, int checkpointEvery) {
        return writes() && iteration > 0 && iteration % ((long) checkpointEvery * every) == 0;
    }

    /** The same settings with the restart iteration chosen. */
    public DiskCheckpoints withRestartIteration(int iteration) {
        return new DiskCheckpoints(directory, every, runKey, restartFrom, iteration);
    }
}
