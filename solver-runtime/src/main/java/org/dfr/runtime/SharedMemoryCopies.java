package org.dfr.runtime;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;

/**
 * Checkpoint copies shared between rank processes of one machine through files in shared memory (a tmpfs such
 * as {@code /dev/shm}): the writer copies the state once into a file, and every holder on its machine keeps a
 * read-only mapping of that file as its copy ({@link SharedMemoryCopy}). One copy per checkpoint, whatever the
 * number of holders; over loopback TCP each holder's copy was copied four times (into the frame buffer, into
 * the socket by the kernel, out of it, out of the frame buffer) plus the kernel's TCP work, and until session 21
 * each holder copied its file out into its heap (docs/bench.md, sessions 20 and 21).
 *
 * <p>Why a file outlives the processes that matter: a tmpfs keeps a file until its name is deleted and the last
 * mapping of it is gone, so the copy survives the writer's SIGKILL as a holder's heap copy does. What it does
 * not survive is the machine, which takes the holders on that machine with it too.
 *
 * <p>Where: {@code DIR/w<writer>/p<partition>-s<slot>}, at most {@value #FILES_PER_PARTITION} files per writer
 * and partition, reused: only their first use allocates memory. A file is rewritten only when none of the
 * holders told of it holds it any more ({@link #release}: the writer dropped that checkpoint, the holder took
 * a newer copy or none, or died); with none free the copy goes over the data plane. The launcher creates
 * {@code DIR} for the run and deletes it afterwards, so that the files of ranks killed with SIGKILL do not
 * outlive the run; a rank that ends in order deletes its own, survivors those of dead ranks. A rank on another
 * machine does not see {@code DIR} (or not the file), says so, and gets its copies over the data plane from then
 * on ({@link DataPlaneReplicas}).
 *
 * <p>Header of {@value #HEADER_BYTES} bytes, then the state as doubles in the machine's byte order:
 * {@code int id, int iteration, int partition, int length}. The writer clears the id before it writes the state
 * and sets it last; a holder takes a file only when its header names the id, checkpoint, partition and length of
 * the notice it answers, and checks it again after each read.
 *
 * <p>{@link #NONE}: no shared directory (embedded runs, whose ranks share a JVM anyway, and machines without a
 * tmpfs). Every copy then travels over the data plane.
 */
public interface SharedMemoryCopies extends AutoCloseable {

    /** Bytes before the state in a copy's file. */
    int HEADER_BYTES = 64;

    /**
     * The most files a writer keeps per partition: a holder keeps the copies of two checkpoints per partition
     * ({@link HeldReplicas#KEPT_PER_PARTITION}), and the next one is written while they are held.
     */
    int FILES_PER_PARTITION = HeldReplicas.KEPT_PER_PARTITION + 1;

    /** No shared memory: {@link #place} places nothing, {@link #take} finds nothing. */
    SharedMemoryCopies NONE = new SharedMemoryCopies() {
        @Override
        public boolean mayPlaceFor(int holder) {
            return false;
        }

        @Override
        public Placed place(int partition, int iteration, int id, double[] state, Collection<Integer> holders) {
            return null;
        }

        @Override
        public void taken(int partition, Placed placed, int holder) {
        }

        @Override
        public void notTaken(int partition, Placed placed, int holder) {
        }

        @Override
        public void release(int partition, int iteration, int holder) {
        }

        @Override
        public void elsewhere(int holder) {
        }

        @Override
        public void forgetRanks(Collection<Integer> dead) {
        }

        @Override
        public Taken take(int writer, int partition, int iteration, Placed placed, int length) {
            return Taken.ABSENT;
        }

        @Override
        public void close() {
        }
    };

    /**
     * The copies of rank {@code rank} in {@code directory}; {@link #NONE} when it is null or not a directory on
     * this machine.
     */
    static SharedMemoryCopies in(Path directory, int rank) {
        return directory != null && Files.isDirectory(directory) ? new SharedMemoryFiles(directory, rank) : NONE;
    }

    /**
     * Where a copy was placed: the writer's file {@code slot} of the partition, holding the copy {@code id}.
     * Sent to the holders in the notice.
     */
    record Placed(int slot, int id) {
    }

    /** What a holder found for a notice: the copy, when {@link Outcome#TAKEN}. */
    record Taken(Outcome outcome, SharedMemoryCopy copy) {
        static final Taken ABSENT = new Taken(Outcome.ABSENT, null);
        static final Taken STALE = new Taken(Outcome.STALE, null);
    }

    /** What a holder found for a notice. */
    enum Outcome {
        /** The copy, in {@link Taken#copy}. */
        TAKEN,
        /** No such file here: the writer is on another machine (or gave the copy up). */
        ABSENT,
        /** The file is there but holds another copy: the writer gave this one up. */
        STALE
    }

    /** Whether a copy for {@code holder} is tried in shared memory (not known to be on another machine). */
    boolean mayPlaceFor(int holder);

    /**
     * Writes {@code state} into a file of {@code partition} that no holder holds, headed by {@code id} (never 0),
     * and counts {@code holders} as holding it until released ({@link #notTaken}, {@link #release}): the file is not
     * written again before.
     *
     * @return where; null when it could not (every file held, no space, an I/O error): the copy is to be sent
     *         over the data plane
     */
    Placed place(int partition, int iteration, int id, double[] state, Collection<Integer> holders);

    /**
     * {@code holder} took the copy {@code placed}: it no longer holds its other copy of the same checkpoint (it keeps
     * one per checkpoint), nor copies of checkpoints older than the two newest it holds (it keeps no more).
     */
    void taken(int partition, Placed placed, int holder);

    /** {@code holder} did not take the copy {@code placed} (no answer, another machine): it does not hold that file. */
    void notTaken(int partition, Placed placed, int holder);

    /**
     * {@code holder} does not hold the copy of checkpoint {@code iteration} of {@code partition} any more: the writer
     * dropped it. Its file may be written again once no holder holds it.
     */
    void release(int partition, int iteration, int holder);

    /**
     * {@code holder} did not find the file: it is on another machine; no more copies for it here. Releases nothing:
     * the caller says which copy was {@link #notTaken}.
     */
    void elsewhere(int holder);

    /**
     * {@code dead} ranks died: deletes the files they wrote (their processes cannot), which their holders' mappings
     * keep readable, and releases every file they held.
     */
    void forgetRanks(Collection<Integer> dead);

    /** The copy {@code writer} placed for this rank, as a mapping of the writer's file. */
    Taken take(int writer, int partition, int iteration, Placed placed, int length);

    /** Deletes the files this rank wrote. */
    @Override
    void close();
}
