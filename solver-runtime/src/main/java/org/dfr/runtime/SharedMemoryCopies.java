package org.dfr.runtime;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.function.IntFunction;

/**
 * Checkpoint copies handed between rank processes of one machine through files in shared memory (a tmpfs
 * such as {@code /dev/shm}), as MPI's shared-memory transport hands messages between processes of one node:
 * the writer copies the state once into a file it maps, the holder copies it once out of it. Over loopback
 * TCP the same copy is copied four times (into the frame buffer, into the socket by the kernel, out of it,
 * out of the frame buffer) and costs the kernel's TCP work on top; on 2 cores that is what a checkpoint in
 * processes mode cost (docs/bench.md, session 20).
 *
 * <p>Where: {@code DIR/w<writer>/h<holder>-p<partition>}, one file per writer, holder and partition, reused
 * for every checkpoint: only its first use allocates memory. The launcher creates {@code DIR} for the run
 * and deletes it afterwards, so that the files of ranks killed with SIGKILL do not outlive the run; a rank
 * that ends in order deletes its own. A rank on another machine does not see {@code DIR} (or not the file),
 * says so, and gets the copy over the data plane from then on ({@link DataPlaneReplicas}).
 *
 * <p>Header of {@value #HEADER_BYTES} bytes, then the state as doubles in the machine's byte order:
 * {@code int request, int iteration, int partition, int length}. The writer leaves a file alone from the
 * notice it sends until the holder acknowledges; a write it gives up on deletes the file instead, so the
 * holder, which may still be reading, keeps the old contents (the mapping outlives the name) and a new file
 * is made for the next write. A holder takes a file only when its header names the request of the notice
 * it answers: never a copy meant for another request.
 *
 * <p>{@link #NONE}: no shared directory (embedded runs, whose ranks share a JVM anyway, and machines
 * without a tmpfs). Every copy then travels over the data plane.
 */
public interface SharedMemoryCopies extends AutoCloseable {

    /** Bytes before the state in a copy's file. */
    int HEADER_BYTES = 64;

    /** No shared memory: {@link #place} places nothing, {@link #take} finds nothing. */
    SharedMemoryCopies NONE = new SharedMemoryCopies() {
        @Override
        public boolean mayPlaceFor(int holder) {
            return false;
        }

        @Override
        public boolean place(int holder, int partition, int iteration, int request, double[] state) {
            return false;
        }

        @Override
        public void abandon(int holder, int partition) {
        }

        @Override
        public void elsewhere(int holder) {
        }

        @Override
        public void retain(int partition, Collection<Integer> holders) {
        }

        @Override
        public void forgetWriters(Collection<Integer> writers) {
        }

        @Override
        public Taken take(int writer, int partition, int iteration, int request, int length, int sliceDoubles,
                          IntFunction<double[]> sliceArray) {
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

    /** What a holder found for a notice. */
    record Taken(Outcome outcome, double[][] slices) {
        static final Taken ABSENT = new Taken(Outcome.ABSENT, null);
        static final Taken STALE = new Taken(Outcome.STALE, null);
    }

    /** What a holder found for a notice. */
    enum Outcome {
        /** The copy, in {@link Taken#slices}. */
        TAKEN,
        /** No such file here: the writer is on another machine (or gave the copy up). */
        ABSENT,
        /** The file is there but holds another request's copy: the writer gave this one up. */
        STALE
    }

    /** Whether a copy for {@code holder} is tried in shared memory (not known to be on another machine). */
    boolean mayPlaceFor(int holder);

    /**
     * Writes {@code state} into the file for {@code holder} and {@code partition}, headed by the request.
     *
     * @return false when it could not (no space, an I/O error): the copy is to be sent over the data plane
     */
    boolean place(int holder, int partition, int iteration, int request, double[] state);

    /** The write to {@code holder} was given up: deletes its file, so that a late reader keeps what it read. */
    void abandon(int holder, int partition);

    /** {@code holder} did not find the file: it is on another machine; no more copies for it here. */
    void elsewhere(int holder);

    /**
     * Deletes the files of {@code partition} for holders other than {@code holders} (the copies were placed
     * elsewhere this time, after a death or an adoption): a writer keeps no file it no longer writes to.
     */
    void retain(int partition, Collection<Integer> holders);

    /**
     * Deletes the files that dead {@code writers} left (their processes cannot) and forgets this rank's mappings of
     * them. A holder still reading one keeps its contents.
     */
    void forgetWriters(Collection<Integer> writers);

    /**
     * Reads the copy {@code writer} placed for this rank, as slices of at most {@code sliceDoubles} doubles in
     * arrays from {@code sliceArray}.
     */
    Taken take(int writer, int partition, int iteration, int request, int length, int sliceDoubles,
               IntFunction<double[]> sliceArray);

    /** Deletes the files this rank wrote. */
    @Override
    void close();
}
