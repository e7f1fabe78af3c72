package org.dfr.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The copies of one rank as files in a directory that the rank processes of its machine share ({@link SharedMemoryCopies}). */
final class SharedMemoryFiles implements SharedMemoryCopies {

    private static final Logger LOG = LoggerFactory.getLogger(SharedMemoryFiles.class);
    /** Zeros written to allocate a new file's memory, so that a full tmpfs fails here, not in a mapped write. */
    private static final int ALLOCATE_CHUNK = 1 << 20;

    private final Path directory;
    private final int rank;
    private final Path own;
    /** Writer side: the mapped file per holder and partition. */
    private final Map<Long, MappedByteBuffer> written = new HashMap<>();
    /** Holder side: the mapped file per writer and partition, as last opened. */
    private final Map<Long, MappedByteBuffer> read = new HashMap<>();
    private final Set<Integer> elsewhere = ConcurrentHashMap.newKeySet();
    /** No more files: closed, or a file could not be made (a full tmpfs), which would fail again at each copy. */
    private boolean off;

    SharedMemoryFiles(Path directory, int rank) {
        this.directory = directory;
        this.rank = rank;
        this.own = directory.resolve("w" + rank);
        deleteAll(own); // nothing of an earlier process of this rank is reused
    }

    private static long key(int rank, int partition) {
        return ((long) rank << 32) | (partition & 0xffffffffL);
    }

    private static Path file(Path writerDir, int holder, int partition) {
        return writerDir.resolve("h" + holder + "-p" + partition);
    }

    @Override
    public boolean mayPlaceFor(int holder) {
        synchronized (written) {
            return !off && !elsewhere.contains(holder);
        }
    }

    @Override
    public boolean place(int holder, int partition, int iteration, int request, double[] state) {
        synchronized (written) {
            if (off) {
                return false;
            }
            long bytes = HEADER_BYTES + (long) state.length * Double.BYTES;
            try {
                MappedByteBuffer map = written.get(key(holder, partition));
                if (map == null || map.capacity() != bytes) {
                    try {
                        map = create(file(own, holder, partition), bytes);
                    } catch (IOException e) {
                        off = true;
                        LOG.warn("rank {}: checkpoint copies go over the data plane from now on: cannot make a file of {}"
                                + " bytes in {}: {}", rank, bytes, directory, e.toString());
                        return false;
                    }
                    written.put(key(holder, partition), map);
                }
                map.order(ByteOrder.nativeOrder());
                map.putInt(0, request).putInt(4, iteration).putInt(8, partition).putInt(12, state.length);
                doubles(map).put(state);
                return true;
            } catch (IllegalArgumentException | InternalError e) {
                // IllegalArgumentException: a state over 2 GiB; InternalError: a fault in the mapped memory
                LOG.debug("rank {}: copy of partition {} for rank {} not placed in shared memory: {}", rank, partition,
                        holder, e.toString());
                abandonLocked(holder, partition);
                return false;
            }
        }
    }

    private MappedByteBuffer create(Path file, long bytes) throws IOException {
        Files.createDirectories(own);
        Files.deleteIfExists(file);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            ByteBuffer zeros = ByteBuffer.allocateDirect(ALLOCATE_CHUNK);
            for (long at = 0; at < bytes; ) {
                zeros.clear().limit((int) Math.min(ALLOCATE_CHUNK, bytes - at));
                at += channel.write(zeros, at);
            }
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, bytes);
        } catch (IOException e) {
            Files.deleteIfExists(file);
            throw e;
        }
    }

    private static DoubleBuffer doubles(ByteBuffer map) {
        return map.duplicate().position(HEADER_BYTES).slice().order(ByteOrder.nativeOrder()).asDoubleBuffer();
    }

    @Override
    public void abandon(int holder, int partition) {
        synchronized (written) {
            abandonLocked(holder, partition);
        }
    }

    private void abandonLocked(int holder, int partition) {
        written.remove(key(holder, partition));
        try {
            Files.deleteIfExists(file(own, holder, partition));
        } catch (IOException e) {
            LOG.debug("rank {}: cannot delete {}: {}", rank, file(own, holder, partition), e.toString());
        }
    }

    @Override
    public void elsewhere(int holder) {
        elsewhere.add(holder);
        synchronized (written) {
            for (Long k : Set.copyOf(written.keySet())) {
                if ((int) (k >> 32) == holder) {
                    abandonLocked(holder, (int) (long) k);
                }
            }
        }
    }

    @Override
    public void retain(int partition, Collection<Integer> holders) {
        synchronized (written) {
            for (Long k : Set.copyOf(written.keySet())) {
                int holder = (int) (k >> 32);
                if ((int) (long) k == partition && !holders.contains(holder)) {
                    abandonLocked(holder, partition);
                }
            }
        }
    }

    @Override
    public void forgetWriters(Collection<Integer> writers) {
        for (int writer : writers) {
            if (writer != rank) {
                deleteAll(directory.resolve("w" + writer));
            }
        }
        synchronized (read) {
            read.keySet().removeIf(k -> writers.contains((int) (k >> 32)));
        }
    }

    /** Deletes {@code writerDir} and its files, if it is there. */
    private void deleteAll(Path writerDir) {
        try (Stream<Path> files = Files.list(writerDir)) {
            files.forEach(f -> {
                try {
                    Files.deleteIfExists(f);
                } catch (IOException e) {
                    // the launcher deletes the run's directory
                }
            });
            Files.deleteIfExists(writerDir);
        } catch (NoSuchFileException e) {
            // nothing written
        } catch (IOException e) {
            LOG.debug("rank {}: cannot delete the copies in {}: {}", rank, writerDir, e.toString());
        }
    }

    @Override
    public Taken take(int writer, int partition, int iteration, int request, int length, int sliceDoubles,
                      IntFunction<double[]> sliceArray) {
        synchronized (read) {
            long k = key(writer, partition);
            MappedByteBuffer map = read.get(k);
            if (map == null || !heads(map, request, iteration, partition, length)) {
                // a new request in a file reused, or a new file made after a write given up: open it again
                try {
                    map = open(file(directory.resolve("w" + writer), rank, partition));
                } catch (NoSuchFileException e) {
                    read.remove(k);
                    return Taken.ABSENT;
                } catch (IOException e) {
                    LOG.debug("rank {}: cannot open the copy of rank {}'s partition {}: {}", rank, writer, partition,
                            e.toString());
                    read.remove(k);
                    return Taken.ABSENT;
                }
                read.put(k, map);
                if (!heads(map, request, iteration, partition, length)) {
                    return Taken.STALE;
                }
            }
            DoubleBuffer in = doubles(map);
            double[][] slices = new double[(length + sliceDoubles - 1) / sliceDoubles][];
            try {
                for (int i = 0; i < slices.length; i++) {
                    slices[i] = sliceArray.apply(Math.min(sliceDoubles, length - i * sliceDoubles));
                    in.get(slices[i]);
                }
            } catch (InternalError e) {
                read.remove(k); // the file was truncated under the mapping: not a copy to keep
                return Taken.STALE;
            }
            // read once more: a writer that gave the request up deletes, never rewrites, so this only guards
            return heads(map, request, iteration, partition, length) ? new Taken(Outcome.TAKEN, slices) : Taken.STALE;
        }
    }

    private static MappedByteBuffer open(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size < HEADER_BYTES) {
                throw new NoSuchFileException(file + " is being created");
            }
            MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
            map.order(ByteOrder.nativeOrder());
            return map;
        }
    }

    private static boolean heads(ByteBuffer map, int request, int iteration, int partition, int length) {
        return map.capacity() == HEADER_BYTES + (long) length * Double.BYTES && map.getInt(0) == request
                && map.getInt(4) == iteration && map.getInt(8) == partition && map.getInt(12) == length;
    }

    @Override
    public void close() {
        synchronized (written) {
            off = true; // a write in flight when the rank closes makes no file after this
            written.clear();
            deleteAll(own);
        }
        synchronized (read) {
            read.clear();
        }
    }
}
