package org.dfr.runtime;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One rank's file level: writes the committed checkpoints that {@link DiskCheckpoints#isFileIteration}
 * selects, for the partitions the rank owns, on a single daemon thread. The iteration loop only copies
 * the states (the in-memory copies are recycled by the next checkpoint) and hands them over. When the
 * previous write is still going on (a disk slower than the file interval), the loop waits for it rather
 * than skipping a level: every selected iteration reaches the disk, and the wait is logged.
 *
 * <p>After a write, the rank deletes the files (every partition's) older than the second newest
 * iteration whose every file is present, so two file levels stay for a fallback and the only complete
 * one is never deleted.
 */
final class FileCheckpointWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FileCheckpointWriter.class);

    private final DiskCheckpoints disk;
    private final int rankId;
    private final int partitionCount;
    /** The in-memory interval: fixed, or agreed during the run ({@link #useInterval}). */
    private volatile int checkpointEvery;
    private final ExecutorService thread;
    /** One write at a time: held from the hand-over until the write finished. */
    private final Semaphore busy = new Semaphore(1);
    /** Copies handed to the writer thread, reused from write to write (touched only while not busy). */
    private final Map<Integer, double[]> copies = new HashMap<>();
    private volatile int lastWritten = -1;

    FileCheckpointWriter(DiskCheckpoints disk, int rankId, RunSpec spec) {
        this.disk = disk;
        this.rankId = rankId;
        this.partitionCount = spec.partitionCount();
        this.checkpointEvery = spec.checkpointEvery();
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "dfr-rank" + rankId + "-file-checkpoints");
            t.setDaemon(true);
            return t;
        });
    }

    /** The writer of {@code disk}'s file level, or null when there is none. */
    static FileCheckpointWriter of(DiskCheckpoints disk, int rankId, RunSpec spec) {
        return disk != null && disk.writes() ? new FileCheckpointWriter(disk, rankId, spec) : null;
    }

    /**
     * The in-memory interval the run agreed on during the run ({@link CheckpointSchedule}): the file
     * level is every {@code every}-th of those checkpoints from then on.
     */
    void useInterval(int interval) {
        this.checkpointEvery = interval;
    }

    /** The last iteration this rank wrote completely, or -1. */
    int lastWritten() {
        return lastWritten;
    }

    /**
     * Writes committed checkpoint {@code iteration} of {@code partitions} in the background when it is a
     * file iteration; {@code states} gives each partition's checkpointed state (null: not held here).
     */
    void committed(int iteration, int[] partitions, IntFunction<double[]> states) {
        if (!disk.isFileIteration(iteration, checkpointEvery)) {
            return;
        }
        if (!busy.tryAcquire()) {
            long start = System.nanoTime();
            busy.acquireUninterruptibly();
            LOG.info("rank {}: file checkpoint of iteration {} waited {} ms for the previous write (the disk is slower"
                    + " than the file interval)", rankId, iteration,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        }
        int[] written;
        try {
            List<Integer> held = new ArrayList<>();
            for (int p : partitions) {
                double[] state = states.apply(p);
                if (state == null) {
                    LOG.debug("rank {}: no checkpoint copy of partition {} at iteration {}: not written to disk",
                            rankId, p, iteration);
                    continue;
                }
                double[] copy = copies.get(p);
                if (copy == null || copy.length != state.length) {
                    copy = new double[state.length];
                    copies.put(p, copy);
                }
                System.arraycopy(state, 0, copy, 0, state.length);
                held.add(p);
            }
            written = held.stream().mapToInt(Integer::intValue).toArray();
            thread.execute(() -> write(iteration, written));
        } catch (RuntimeException e) {
            busy.release();
            LOG.warn("rank {}: file checkpoint of iteration {} not started: {}", rankId, iteration, e.toString());
        }
    }

    private void write(int iteration, int[] partitions) {
        long start = System.nanoTime();
        try {
            for (int p : partitions) {
                CheckpointFile.write(CheckpointFile.path(disk.directory(), disk.runKey(), iteration, p), p,
                        iteration, copies.get(p));
            }
            lastWritten = iteration;
            LOG.debug("rank {}: file checkpoint of iteration {} written in {} ms", rankId, iteration,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            prune();
        } catch (IOException | RuntimeException e) {
            LOG.warn("rank {}: file checkpoint of iteration {} failed: {}", rankId, iteration, e.toString());
        } finally {
            busy.release();
        }
    }

    /**
     * Deletes the files older than the second newest iteration whose files are all present, every partition's: no
     * restart reads them. Only this rank's, they stayed behind when another rank had pruned before the newest level
     * was complete (3 of 8 files of an old level were left after a run, and listed in a refusal to restart).
     */
    private void prune() throws IOException {
        Path runDir = CheckpointFile.runDirectory(disk.directory(), disk.runKey());
        List<Integer> iterations = CheckpointFile.iterations(runDir);
        int complete = 0;
        int keepFrom = -1;
        for (int c : iterations) {
            if (CheckpointFile.allPresent(disk.directory(), disk.runKey(), c, partitionCount)) {
                keepFrom = c;
                if (++complete == 2) {
                    break;
                }
            }
        }
        if (keepFrom < 0) {
            return;
        }
        for (int c : iterations) {
            if (c >= keepFrom) {
                continue;
            }
            for (int p = 0; p < partitionCount; p++) {
                Files.deleteIfExists(CheckpointFile.path(disk.directory(), disk.runKey(), c, p));
            }
            try {
                Files.deleteIfExists(runDir.resolve(Integer.toString(c)));
            } catch (DirectoryNotEmptyException | NoSuchFileException e) {
                // another rank is deleting the same level (or a temporary file is still there): it goes then
            }
        }
    }

    /** Lets the write in progress finish (bounded), then stops the thread. */
    @Override
    public void close() {
        thread.shutdown();
        try {
            if (!thread.awaitTermination(2, TimeUnit.MINUTES)) {
                LOG.warn("rank {}: file checkpoint still being written after 2 minutes; leaving it", rankId);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
