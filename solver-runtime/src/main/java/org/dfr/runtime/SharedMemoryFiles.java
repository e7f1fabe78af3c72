package org.dfr.runtime;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The copies of one rank as files in a directory that the rank processes of its machine share ({@link SharedMemoryCopies}). */
final class SharedMemoryFiles implements SharedMemoryCopies {

    private static final Logger LOG = LoggerFactory.getLogger(SharedMemoryFiles.class);
    /** Zeros written to allocate a new file's memory, so that a full tmpfs fails here, not in a mapped write. */
    private static final int ALLOCATE_CHUNK = 1 << 20;

    /** One of a partition's files on the writer's side: the checkpoint in it and who holds it. */
    private static final class Slot {
        final int index;
        MappedByteBuffer map;
        int iteration = -1;
        final Set<Integer> holders = new HashSet<>();

        Slot(int index) {
            this.index = index;
        }
    }

    private final Path directory;
    private final int rank;
    private final Path own;
    /** Writer side, by partition: its files. Guarded by itself. */
    private final Map<Integer, List<Slot>> written = new HashMap<>();
    /** Holder side: the mapping of each writer's file, by writer, partition and slot, as last opened. */
    private final Map<List<Integer>, MappedByteBuffer> read = new HashMap<>();
    private final Set<Integer> elsewhere = ConcurrentHashMap.newKeySet();
    /** No more files: closed, or a file could not be made (a full tmpfs), which would fail again at each copy. */
    private boolean off;

    SharedMemoryFiles(Path directory, int rank) {
        this.directory = directory;
        this.rank = rank;
        this.own = directory.resolve("w" + rank);
        deleteAll(own); // nothing of an earlier process of this rank is reused
    }

    private static Path file(Path writerDir, int partition, int slot) {
        return writerDir.resolve("p" + partition + "-s" + slot);
    }

    @Override
    public boolean mayPlaceFor(int holder) {
        synchronized (written) {
            return !off && !elsewhere.contains(holder);
        }
    }

    @Override
    public Placed place(int partition, int iteration, int id, double[] state, Collection<Integer> holders) {
        if (id == 0) {
            throw new IllegalArgumentException("id 0 marks a file being written");
        }
        synchronized (written) {
            if (off) {
                return null;
            }
            List<Slot> slots = written.computeIfAbsent(partition, p -> new ArrayList<>());
            // a file of the same checkpoint stays held until its holders took this copy instead (taken): a repair
            // that fails must leave the copies that survived as they are
            Slot slot = free(slots);
            if (slot == null) {
                LOG.debug("rank {}: every file of partition {} is held: checkpoint {} goes over the data plane", rank,
                        partition, iteration);
                return null;
            }
            long bytes = HEADER_BYTES + (long) state.length * Double.BYTES;
            try {
                if (slot.map == null || slot.map.capacity() != bytes) {
                    slot.map = null;
                    try {
                        slot.map = create(file(own, partition, slot.index), bytes);
                    } catch (IOException e) {
                        off = true;
                        LOG.warn("rank {}: checkpoint copies go over the data plane from now on: cannot make a file of {}"
                                + " bytes in {}: {}", rank, bytes, directory, e.toString());
                        slots.remove(slot);
                        return null;
                    }
                    slot.map.order(ByteOrder.nativeOrder());
                }
                MappedByteBuffer map = slot.map;
                map.putInt(0, 0); // being written: a late reader of the copy before finds its id gone
                VarHandle.storeStoreFence();
                doubles(map).put(state);
                map.putInt(4, iteration).putInt(8, partition).putInt(12, state.length);
                VarHandle.storeStoreFence();
                map.putInt(0, id);
            } catch (IllegalArgumentException | InternalError e) {
                // IllegalArgumentException: a state over 2 GiB; InternalError: a fault in the mapped memory
                LOG.debug("rank {}: copy of partition {} not placed in shared memory: {}", rank, partition, e.toString());
                delete(file(own, partition, slot.index));
                slots.remove(slot);
                return null;
            }
            slot.iteration = iteration;
            slot.holders.addAll(holders);
            return new Placed(slot.index, id);
        }
    }

    @Override
    public void taken(int partition, Placed placed, int holder) {
        synchronized (written) {
            List<Slot> slots = written.getOrDefault(partition, List.of());
            Slot slot = slotOf(slots, placed);
            if (slot == null) {
                return;
            }
            for (Slot s : slots) {
                if (s != slot && s.iteration == slot.iteration) {
                    s.holders.remove(holder); // it keeps one copy per checkpoint: this one replaced it
                }
            }
            releaseBeyondNewest(slots, holder);
        }
    }

    @Override
    public void notTaken(int partition, Placed placed, int holder) {
        synchronized (written) {
            Slot slot = slotOf(written.getOrDefault(partition, List.of()), placed);
            if (slot != null) {
                slot.holders.remove(holder);
            }
        }
    }

    /** The slot {@code placed} names, while it still holds that copy. */
    private static Slot slotOf(List<Slot> slots, Placed placed) {
        for (Slot s : slots) {
            if (s.index == placed.slot() && s.map != null && s.map.getInt(0) == placed.id()) {
                return s;
            }
        }
        return null;
    }

    /** A file no holder holds (the lowest-numbered), a new one while there may be more, else null. */
    private static Slot free(List<Slot> slots) {
        Slot free = null;
        for (Slot s : slots) {
            if (s.holders.isEmpty() && (free == null || s.index < free.index)) {
                free = s;
            }
        }
        if (free != null || slots.size() >= FILES_PER_PARTITION) {
            return free;
        }
        int index = 0;
        while (true) {
            int i = index;
            if (slots.stream().noneMatch(s -> s.index == i)) {
                break;
            }
            index++;
        }
        Slot made = new Slot(index);
        slots.add(made);
        return made;
    }

    /** {@code holder} keeps the two newest checkpoints of a partition ({@link HeldReplicas}): the files of older ones are free for it. */
    private static void releaseBeyondNewest(List<Slot> slots, int holder) {
        List<Slot> its = new ArrayList<>();
        for (Slot s : slots) {
            if (s.holders.contains(holder)) {
                its.add(s);
            }
        }
        its.sort(Comparator.comparingInt((Slot s) -> s.iteration).reversed());
        for (int i = HeldReplicas.KEPT_PER_PARTITION; i < its.size(); i++) {
            its.get(i).holders.remove(holder);
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

    static DoubleBuffer doubles(ByteBuffer map) {
        return map.duplicate().position(HEADER_BYTES).slice().order(ByteOrder.nativeOrder()).asDoubleBuffer();
    }

    @Override
    public void release(int partition, int iteration, int holder) {
        synchronized (written) {
            for (Slot s : written.getOrDefault(partition, List.of())) {
                if (s.iteration == iteration) {
                    s.holders.remove(holder);
                }
            }
        }
    }

    @Override
    public void elsewhere(int holder) {
        // no file is released here: a holder of this machine that could not open one file (a transient error)
        // still maps the others it took
        elsewhere.add(holder);
    }

    private void releaseEverywhere(Collection<Integer> holders) {
        synchronized (written) {
            for (List<Slot> slots : written.values()) {
                slots.forEach(s -> s.holders.removeAll(holders));
            }
        }
    }

    @Override
    public void forgetRanks(Collection<Integer> dead) {
        for (int writer : dead) {
            if (writer != rank) {
                deleteAll(directory.resolve("w" + writer));
            }
        }
        releaseEverywhere(dead);
        synchronized (read) {
            read.keySet().removeIf(k -> dead.contains(k.get(0)));
        }
    }

    private void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            LOG.debug("rank {}: cannot delete {}: {}", rank, file, e.toString());
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
    public Taken take(int writer, int partition, int iteration, Placed placed, int length) {
        synchronized (read) {
            List<Integer> k = List.of(writer, partition, placed.slot());
            MappedByteBuffer map = read.get(k);
            if (map == null || !heads(map, placed.id(), iteration, partition, length)) {
                // a file written again for this notice, or made anew after it was deleted: open it again
                try {
                    map = open(file(directory.resolve("w" + writer), partition, placed.slot()));
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
                if (!heads(map, placed.id(), iteration, partition, length)) {
                    return Taken.STALE;
                }
            }
            return new Taken(Outcome.TAKEN, new SharedMemoryCopy(map, placed.id(), iteration, partition, length));
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

    /** Whether the file holds copy {@code id} of checkpoint {@code iteration} of {@code partition}, {@code length} doubles. */
    static boolean heads(ByteBuffer map, int id, int iteration, int partition, int length) {
        return map.capacity() == HEADER_BYTES + (long) length * Double.BYTES && map.getInt(0) == id
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
