package org.dfr.runtime;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;
import org.dfr.runtime.net.CommunicationException;
import org.dfr.runtime.net.DataPlane;
import org.dfr.runtime.net.Mailbox;
import org.dfr.runtime.net.MessageKey;
import org.dfr.runtime.net.MessageKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checkpoint copies held by other ranks, sent over the data plane: the {@link CheckpointReplication#DATA_PLANE}
 * replication. Each rank is a writer of its own partitions' copies and a holder of others'.
 *
 * <p>Writing: the state goes to {@code copies} holder ranks ({@link #holderOrder}: live ranks on other
 * hosts than the writer's, one per host while there are hosts), in slices of at most
 * {@value #SLICE_DOUBLES} doubles ({@link MessageKind#REPLICA_COPY}), straight from the local copy; the
 * write returns once every holder acknowledged the whole copy ({@link MessageKind#REPLICA_ACK}). A holder
 * that dies or cannot be reached meanwhile is replaced by the next live rank in that order.
 *
 * <p>Holders in other processes of the writer's machine share one file in shared memory instead
 * ({@link SharedMemoryCopies}, {@link MessageKind#REPLICA_SHARED}): the writer copies the state into it once, and
 * each holder keeps a mapping of it as its copy, where loopback TCP copied each byte four times per holder and
 * added the kernel's TCP work. A holder that finds no such file is on another machine: it says so
 * ({@link MessageKind#REPLICA_NOT_SHARED}), and gets this copy and all later ones as slices.
 *
 * <p>Holders in the writer's own JVM (embedded mode) keep the writer's array itself, no copy at all
 * ({@link MessageKind#REPLICA_LENT}, {@link LentArrays}): the writer's local copy is a state buffer nothing writes
 * while a checkpoint keeps it, and it goes back to its double buffer only once every holder dropped it.
 *
 * <p>Why not the checkpoint map: measured by {@code ReplicationPathBenchmark} (docs/bench.md, session 15),
 * the data plane moves a state to two holders in 0.15 (1 MiB) to 0.56 (16 MiB) of the map's time, and
 * without the serialised values and backup entries the collector then copies into the old generation.
 *
 * <p>Reading: {@link MessageKind#REPLICA_FETCH} to the first live holder, which answers on this class's
 * server thread with {@link MessageKind#REPLICA_REPLY} slices. Holders store copies and serve them whatever
 * their own rank is doing (the mailbox routes these kinds past its epochs).
 *
 * <p>What Hazelcast does by itself, restoring a lost copy, the recovery does here: a holder's death is a
 * rank's death, and as the survivors resume each starts placing new copies of its committed checkpoint's
 * states whose holders are not all live, on its replication thread ({@link #intact},
 * {@link CheckpointStore#repair}).
 */
public final class DataPlaneReplicas implements ReplicaStore {

    private static final Logger LOG = LoggerFactory.getLogger(DataPlaneReplicas.class);
    /** The largest slice of a copy in one message: 1 MiB, so that no connection keeps a larger frame buffer. */
    static final int SLICE_DOUBLES = Communicator.FINAL_STATE_SLICE_DOUBLES;
    /** How often a wait for a holder checks whether the holder is still live. */
    static final long LIVENESS_POLL_MILLIS = 20;
    /** How long a holder keeps trying to send an answer to a rank it cannot reach yet. */
    static final long ANSWER_RETRY_MILLIS = 5_000;

    /** An awaited acknowledgement: of the copy sent as request {@code request}. */
    private record AckKey(int iteration, int partition, int holder, int request) {
    }

    private record FetchKey(int iteration, int partition) {
    }

    private record ProbeKey(int iteration, int partition, int rank, int request) {
    }

    /** A copy being fetched from one holder, as request {@code request}: only its answers count. */
    private static final class Fetch {
        final int holder;
        final int request;
        final CompletableFuture<double[]> done = new CompletableFuture<>();
        double[] state;
        int slices;
        final BitSet received = new BitSet();

        Fetch(int holder, int request) {
            this.holder = holder;
            this.request = request;
        }
    }

    private final int rankId;
    private final DataPlane dataPlane;
    private final Supplier<? extends Collection<Integer>> liveRanks;
    private final IntPredicate isLive;
    private final IntPredicate settled;
    private final IntUnaryOperator hostOf;
    private final int copies;
    private final long timeoutMillis;
    private final HeldReplicas held = new HeldReplicas(SLICE_DOUBLES);
    /** Completed with true when the holder has the copy, false when it found no file in shared memory. */
    private final Map<AckKey, CompletableFuture<Boolean>> acks = new ConcurrentHashMap<>();
    private final SharedMemoryCopies shared;
    /** Copies holders took from shared memory. */
    private final AtomicLong sharedCopies = new AtomicLong();
    /** Copies holders in this JVM keep as this rank's own arrays. */
    private final AtomicLong lentCopies = new AtomicLong();
    private final Map<FetchKey, Fetch> fetches = new ConcurrentHashMap<>();
    /**
     * Request ids, carried in the epoch field of every replica message (holders have no use for epochs): an
     * answer counts only for the request it answers, so a late answer to a write or fetch given up on, or a
     * copy of the same checkpoint from another writer, is never mistaken for the current one. Random start:
     * two ranks' ids for the same checkpoint and partition do not meet.
     */
    private final AtomicInteger requests = new AtomicInteger(ThreadLocalRandom.current().nextInt());
    private volatile boolean closed;
    private final Map<ProbeKey, CompletableFuture<Boolean>> probes = new ConcurrentHashMap<>();
    /** Sends acknowledgements and serves fetches: never on the thread that delivers (it may be a computing rank's). */
    private final ExecutorService server;
    private final ExecutorService answers;
    /** Copies copies out of shared memory: not on the delivering thread, which may be a computing rank's. */
    private final ExecutorService intake;

    /**
     * @param liveRanks     the ranks in the cluster now
     * @param isLive        whether a rank is in the cluster and nobody found it dead
     * @param hostOf        the host of a rank
     * @param copies        holders per state ({@link ClusterSettings#checkpointBackups})
     * @param timeoutMillis the longest a live holder may take to acknowledge a copy or answer a fetch
     */
    public DataPlaneReplicas(int rankId, DataPlane dataPlane, Supplier<? extends Collection<Integer>> liveRanks,
                             IntPredicate isLive, IntUnaryOperator hostOf, int copies, long timeoutMillis) {
        this(rankId, dataPlane, liveRanks, isLive, isLive, hostOf, copies, timeoutMillis);
    }

    /**
     * @param settled whether a live rank has finished joining (its membership is known here): such ranks are
     *                asked before the others
     */
    public DataPlaneReplicas(int rankId, DataPlane dataPlane, Supplier<? extends Collection<Integer>> liveRanks,
                             IntPredicate isLive, IntPredicate settled, IntUnaryOperator hostOf, int copies,
                             long timeoutMillis) {
        this(rankId, dataPlane, liveRanks, isLive, settled, hostOf, copies, timeoutMillis, SharedMemoryCopies.NONE);
    }

    /**
     * @param shared where copies for holders in other processes of this machine go ({@link SharedMemoryCopies#NONE}:
     *               all over the data plane); closed with this store
     */
    public DataPlaneReplicas(int rankId, DataPlane dataPlane, Supplier<? extends Collection<Integer>> liveRanks,
                             IntPredicate isLive, IntPredicate settled, IntUnaryOperator hostOf, int copies,
                             long timeoutMillis, SharedMemoryCopies shared) {
        this.rankId = rankId;
        this.shared = shared;
        this.dataPlane = dataPlane;
        this.liveRanks = liveRanks;
        this.isLive = isLive;
        this.settled = settled;
        this.hostOf = hostOf;
        this.copies = copies;
        this.timeoutMillis = timeoutMillis;
        this.server = daemonExecutor("dfr-rank" + rankId + "-replica-server");
        this.answers = daemonExecutor("dfr-rank" + rankId + "-replica-answers");
        this.intake = daemonExecutor("dfr-rank" + rankId + "-replica-intake");
        dataPlane.mailbox().attachReplicaChannel(new Mailbox.ReplicaChannel() {
            @Override
            public void accept(MessageKey key, double[] payload) {
                DataPlaneReplicas.this.accept(key, payload);
            }

            @Override
            public double[] payloadArray(MessageKind kind, int length) {
                // copies arrive in the arrays of dropped copies; the rest is small or rare
                return kind == MessageKind.REPLICA_COPY ? held.slice(length) : new double[length];
            }
        });
    }

    private static ExecutorService daemonExecutor(String name) {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * The ranks a writer should place copies on, best first: one rank per other host, hosts in order after the
     * writer's (wrapping around), on each the rank at the writer's own position among its host's live ranks (so
     * that every rank holds about as many copies as it writes); then the other ranks on other hosts; then ranks
     * on the writer's host. Never the writer.
     */
    static List<Integer> holderOrder(int writer, Collection<Integer> live, IntUnaryOperator hostOf) {
        TreeMap<Integer, List<Integer>> byHost = new TreeMap<>();
        for (int r : new TreeSet<>(live)) {
            byHost.computeIfAbsent(hostOf.applyAsInt(r), h -> new ArrayList<>()).add(r);
        }
        int writerHost = hostOf.applyAsInt(writer);
        List<Integer> ownHost = byHost.getOrDefault(writerHost, List.of());
        int position = Math.max(0, ownHost.indexOf(writer));
        List<Integer> hosts = new ArrayList<>(byHost.tailMap(writerHost, false).keySet());
        hosts.addAll(byHost.headMap(writerHost, false).keySet());
        List<Integer> first = new ArrayList<>();
        List<Integer> second = new ArrayList<>();
        for (int host : hosts) {
            List<Integer> ranks = byHost.get(host);
            int chosen = ranks.get(position % ranks.size());
            first.add(chosen);
            for (int r : ranks) {
                if (r != chosen) {
                    second.add(r);
                }
            }
        }
        first.addAll(second);
        for (int r : ownHost) {
            if (r != writer) {
                first.add(r);
            }
        }
        return first;
    }

    @Override
    public ReplicaRef write(int iteration, int partition, double[] state) {
        Deque<Integer> candidates = new ArrayDeque<>();
        List<Integer> joining = new ArrayList<>();
        for (int r : holderOrder(rankId, liveRanks.get(), hostOf)) {
            // a rank still joining (a respawned one) may not be able to answer yet: the others first
            (settled.test(r) ? candidates : joining).add(r);
        }
        candidates.addAll(joining);
        if (candidates.isEmpty()) {
            return ReplicaRef.heldBy(iteration, partition, List.of()); // alone in the cluster: nowhere to copy to
        }
        List<Integer> placed = new ArrayList<>();
        List<Integer> trying = new ArrayList<>();
        while (placed.size() < copies && (!trying.isEmpty() || !candidates.isEmpty())) {
            while (placed.size() + trying.size() < copies && !candidates.isEmpty()) {
                trying.add(candidates.poll());
            }
            Map<AckKey, SharedMemoryCopies.Placed> waits = new LinkedHashMap<>(); // the file, if through shared memory
            Set<AckKey> loans = new HashSet<>();
            SharedMemoryCopies.Placed file = placeShared(iteration, partition, state, trying);
            for (int holder : trying) {
                requireOpen();
                boolean viaShared = file != null && sharesFile(holder);
                boolean viaLoan = !viaShared && dataPlane.isInJvm(holder);
                AckKey key = new AckKey(iteration, partition, holder, requests.incrementAndGet());
                acks.put(key, new CompletableFuture<>());
                try {
                    if (viaShared) {
                        sendNotice(holder, key.request(), iteration, partition, state.length, file);
                    } else if (viaLoan) {
                        // the holder keeps this very array: the writer's local copy, written again only once every
                        // holder dropped it (LentArrays)
                        dataPlane.lend(holder, new MessageKey(key.request(), MessageKind.REPLICA_LENT, iteration,
                                partition, rankId), state);
                        loans.add(key);
                    } else {
                        sendSlices(holder, key.request(), iteration, partition, state);
                    }
                    waits.put(key, viaShared ? file : null);
                } catch (CommunicationException e) {
                    acks.remove(key);
                    if (viaShared) {
                        shared.notTaken(partition, file, holder);
                    }
                    LOG.debug("rank {}: copy of checkpoint {} of partition {} not sent to rank {}: {}", rankId, iteration,
                            partition, holder, e.getMessage());
                }
            }
            trying.clear();
            for (Map.Entry<AckKey, SharedMemoryCopies.Placed> w : waits.entrySet()) {
                if (awaitCopy(w.getKey(), w.getValue(), state)) {
                    placed.add(w.getKey().holder());
                    if (loans.contains(w.getKey())) {
                        lentCopies.incrementAndGet();
                    }
                } else if (loans.contains(w.getKey())) {
                    // it may keep the array all the same: no ref names it, so nobody else would tell it to drop it
                    dropQuietly(w.getKey().holder(), iteration, partition);
                }
            }
            requireOpen();
        }
        if (placed.isEmpty()) {
            throw new CommunicationException("no rank took a copy of checkpoint " + iteration + " of partition " + partition,
                    null);
        }
        return ReplicaRef.heldBy(iteration, partition, placed);
    }

    /** Whether a copy for {@code holder} goes through a file in shared memory: a process of this machine, maybe. */
    private boolean sharesFile(int holder) {
        return shared.mayPlaceFor(holder) && !dataPlane.isInJvm(holder);
    }

    /**
     * Writes the state once into a file in shared memory for those of {@code holders} that may share it.
     *
     * @return where, or null when no holder may or the file could not be written (then all get slices)
     */
    private SharedMemoryCopies.Placed placeShared(int iteration, int partition, double[] state, List<Integer> holders) {
        List<Integer> sharing = new ArrayList<>();
        for (int h : holders) {
            if (sharesFile(h)) {
                sharing.add(h);
            }
        }
        if (sharing.isEmpty()) {
            return null;
        }
        int id = requests.incrementAndGet();
        return shared.place(partition, iteration, id == 0 ? requests.incrementAndGet() : id, state, sharing);
    }

    /** Tells {@code holder} that its copy is in a file in shared memory ({@link MessageKind#REPLICA_SHARED}). */
    private void sendNotice(int holder, int request, int iteration, int partition, int length,
                            SharedMemoryCopies.Placed file) {
        dataPlane.send(holder, new MessageKey(request, MessageKind.REPLICA_SHARED, iteration, partition, rankId),
                new double[] {length, file.slot(), file.id()});
    }

    /**
     * Waits for the holder of {@code key} to take its copy; one that found no file in shared memory gets the copy
     * again as slices, under a new request.
     *
     * @param file where the copy is in shared memory, or null when it was sent as slices
     * @return whether the holder has the copy
     */
    private boolean awaitCopy(AckKey key, SharedMemoryCopies.Placed file, double[] state) {
        int holder = key.holder();
        try {
            if (Boolean.TRUE.equals(await(acks.get(key), holder))) {
                if (file != null) {
                    shared.taken(key.partition(), file, holder);
                    sharedCopies.incrementAndGet();
                }
                return true;
            }
            // REPLICA_NOT_SHARED: the holder is on another machine
            shared.notTaken(key.partition(), file, holder);
            shared.elsewhere(holder);
            acks.remove(key);
            AckKey again = new AckKey(key.iteration(), key.partition(), holder, requests.incrementAndGet());
            acks.put(again, new CompletableFuture<>());
            try {
                sendSlices(holder, again.request(), key.iteration(), key.partition(), state);
                return Boolean.TRUE.equals(await(acks.get(again), holder));
            } finally {
                acks.remove(again);
            }
        } catch (CommunicationException e) {
            if (file != null) {
                // a late taker finds the file written again, if it is, when it reads: its copy then reads as gone
                shared.notTaken(key.partition(), file, holder);
            }
            LOG.debug("rank {}: rank {} did not take the copy of checkpoint {} of partition {}: {}", rankId, holder,
                    key.iteration(), key.partition(), e.getMessage());
            return false;
        } finally {
            acks.remove(key);
        }
    }

    private void sendSlices(int to, int request, int iteration, int partition, double[] state) {
        dataPlane.send(to, new MessageKey(request, MessageKind.REPLICA_COPY, iteration, partition, 0),
                new double[] {state.length, rankId});
        for (int from = 0, slice = 1; from < state.length; from += SLICE_DOUBLES, slice++) {
            dataPlane.send(to, new MessageKey(request, MessageKind.REPLICA_COPY, iteration, partition, slice), state, from,
                    Math.min(state.length, from + SLICE_DOUBLES));
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new CommunicationException("rank " + rankId + " is closed or killed: no more copies", null);
        }
    }

    /**
     * Waits for {@code reply} from {@code peer} while the peer is live, at most {@link #timeoutMillis}.
     *
     * @throws CommunicationException if the peer died or the time ran out
     */
    private <T> T await(CompletableFuture<T> reply, int peer) {
        return await(reply, peer, false);
    }

    /**
     * @param readSockets whether this thread reads the sockets while it waits (a reader in a recovery, which
     *                    waits for megabytes; a writer's acknowledgements are small and the idle reader's pace
     *                    suits them)
     */
    private <T> T await(CompletableFuture<T> reply, int peer, boolean readSockets) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (true) {
            try {
                if (readSockets && !reply.isDone() && dataPlane.mailbox().readWhileWaiting(TimeUnit.MILLISECONDS.toNanos(LIVENESS_POLL_MILLIS))) {
                    // read the answer's slices as they arrive, instead of at the idle reader's pace
                    if (!reply.isDone()) {
                        throw new TimeoutException();
                    }
                }
                return reply.get(LIVENESS_POLL_MILLIS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                requireOpen();
                if (!isLive.test(peer)) {
                    throw new CommunicationException("rank " + peer + " left the cluster", null);
                }
                if (System.nanoTime() > deadline) {
                    throw new CommunicationException("rank " + peer + " did not answer within " + timeoutMillis + " ms", null);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CommunicationException("interrupted while waiting for rank " + peer, e);
            } catch (ExecutionException e) {
                throw new CommunicationException("waiting for rank " + peer + ": " + e.getCause(), e.getCause());
            }
        }
    }

    @Override
    public double[] readHeld(int iteration, int partition) {
        return held.joined(iteration, partition);
    }

    @Override
    public double[] read(ReplicaRef ref) {
        if (ref.holders().contains(rankId)) {
            // an adopter that held a copy of the partition (the recovery prefers such adopters) reads its own
            double[] state = readHeld(ref.iteration(), ref.partition());
            if (state != null) {
                return state;
            }
        }
        for (int holder : ref.holders()) {
            if (holder == rankId || !isLive.test(holder)) {
                continue;
            }
            FetchKey key = new FetchKey(ref.iteration(), ref.partition());
            Fetch fetch = new Fetch(holder, requests.incrementAndGet());
            fetches.put(key, fetch);
            try {
                dataPlane.send(holder, new MessageKey(fetch.request, MessageKind.REPLICA_FETCH, ref.iteration(),
                        ref.partition(), rankId), new double[0]);
                double[] state = await(fetch.done, holder, true);
                if (state != null) {
                    return state;
                }
                LOG.warn("rank {}: rank {} holds no copy of checkpoint {} of partition {}", rankId, holder, ref.iteration(),
                        ref.partition());
            } catch (CommunicationException e) {
                LOG.info("rank {}: copy of checkpoint {} of partition {} not fetched from rank {}: {}", rankId,
                        ref.iteration(), ref.partition(), holder, e.getMessage());
            } finally {
                fetches.remove(key, fetch);
            }
        }
        return null;
    }

    /**
     * Asks every live rank whether it holds the copy: each answers on its server thread, so this takes one
     * round trip, bounded by the liveness of each rank and the timeout.
     */
    @Override
    public ReplicaRef locate(int iteration, int partition) {
        List<Integer> found = new ArrayList<>();
        if (held.has(iteration, partition)) {
            found.add(rankId);
        }
        Map<ProbeKey, CompletableFuture<Boolean>> asked = new LinkedHashMap<>();
        for (int r : new TreeSet<>(liveRanks.get())) {
            if (r == rankId) {
                continue;
            }
            ProbeKey probe = new ProbeKey(iteration, partition, r, requests.incrementAndGet());
            CompletableFuture<Boolean> answer = new CompletableFuture<>();
            probes.put(probe, answer);
            try {
                dataPlane.send(r, new MessageKey(probe.request(), MessageKind.REPLICA_PROBE, iteration, partition, rankId),
                        new double[0]);
                asked.put(probe, answer);
            } catch (CommunicationException e) {
                probes.remove(probe);
            }
        }
        for (Map.Entry<ProbeKey, CompletableFuture<Boolean>> a : asked.entrySet()) {
            try {
                if (Boolean.TRUE.equals(await(a.getValue(), a.getKey().rank(), true))) {
                    found.add(a.getKey().rank());
                }
            } catch (CommunicationException e) {
                // dead or silent: it holds nothing this recovery can use
            } finally {
                probes.remove(a.getKey());
            }
        }
        if (found.isEmpty()) {
            return null;
        }
        LOG.info("rank {}: the locator of checkpoint {} of partition {} was lost; ranks {} hold copies", rankId, iteration,
                partition, found);
        return ReplicaRef.heldBy(iteration, partition, found);
    }

    /** Whether a holder of the copy is live (this rank included). */
    @Override
    public boolean holds(ReplicaRef ref) {
        for (int holder : ref.holders()) {
            if (holder == rankId ? held.has(ref.iteration(), ref.partition()) : isLive.test(holder)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether every holder is live and another rank than this one, and the copies are as many as asked for:
     * a rank that adopted a partition it held a copy of is the owner now, and its copy no longer counts; nor
     * does a copy on this rank's own host while a rank of another host is free to hold it.
     */
    @Override
    public boolean intact(ReplicaRef ref) {
        if (ref.holders().size() < copies) {
            return false;
        }
        int ownHost = hostOf.applyAsInt(rankId);
        boolean sameHostHolder = false;
        for (int holder : ref.holders()) {
            if (holder == rankId || !isLive.test(holder)) {
                return false;
            }
            sameHostHolder |= hostOf.applyAsInt(holder) == ownHost;
        }
        if (sameHostHolder) {
            // placed by the partition's former owner: now a copy shares its owner's host, and goes with it when
            // the host dies, although a rank of another host could hold it
            for (int r : liveRanks.get()) {
                // only a rank a write would try first: one still joining is tried last, and would leave an
                // unchanged state re-sent at every checkpoint
                if (hostOf.applyAsInt(r) != ownHost && !ref.holders().contains(r) && isLive.test(r) && settled.test(r)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Forgets the copies that {@code deadRanks} sent of checkpoints after {@code committed} (see
     * {@link HeldReplicas#dropOrphans}).
     *
     * @return how many copies were dropped
     */
    @Override
    public int dropOrphans(Collection<Integer> deadRanks, int committed) {
        shared.forgetRanks(deadRanks);
        return held.dropOrphans(deadRanks, committed);
    }

    @Override
    public void delete(ReplicaRef ref) {
        for (int holder : ref.holders()) {
            shared.release(ref.partition(), ref.iteration(), holder);
            if (holder == rankId) {
                held.drop(ref.iteration(), ref.partition());
            } else if (isLive.test(holder)) {
                dropQuietly(holder, ref.iteration(), ref.partition());
            }
        }
    }

    private void dropQuietly(int holder, int iteration, int partition) {
        try {
            dataPlane.send(holder, new MessageKey(requests.incrementAndGet(), MessageKind.REPLICA_DROP, iteration, partition,
                    rankId), new double[0]);
        } catch (CommunicationException e) {
            // a dead holder's copies are gone with it
        }
    }

    @Override
    public int heldCopies() {
        return held.copies();
    }

    @Override
    public List<HeldCopy> intactHeldCopies() {
        return held.intactCopies();
    }

    /** Arrays of dropped copies kept for the next copies to arrive in. */
    int pooledSlices() {
        return held.pooledSlices();
    }

    /** Doubles held for other ranks now. */
    public long heldDoubles() {
        return held.doubles();
    }

    /** The mailbox's replica channel: runs on the delivering thread, so it only stores and hands on. */
    private void accept(MessageKey key, double[] payload) {
        switch (key.kind()) {
            case REPLICA_COPY -> {
                int writer = held.accept(key.iteration(), key.a(), key.b(), key.epoch(), payload);
                if (writer >= 0) {
                    answer(() -> reply(writer, new MessageKey(key.epoch(), MessageKind.REPLICA_ACK, key.iteration(),
                            key.a(), rankId), new double[0]));
                }
            }
            case REPLICA_LENT -> {
                // delivered on the writer's own thread (DataPlane#lend), which waits for this answer: no hand-over
                if (held.acceptBorrowed(key.iteration(), key.a(), key.b(), payload)) {
                    try {
                        dataPlane.send(key.b(), new MessageKey(key.epoch(), MessageKind.REPLICA_ACK, key.iteration(),
                                key.a(), rankId), new double[0]);
                    } catch (CommunicationException e) {
                        LOG.debug("rank {}: cannot answer rank {}'s lent copy: {}", rankId, key.b(), e.getMessage());
                    }
                }
            }
            case REPLICA_SHARED -> submit(intake, () -> takeShared(key, (int) payload[0],
                    new SharedMemoryCopies.Placed((int) payload[1], (int) payload[2])));
            case REPLICA_ACK, REPLICA_NOT_SHARED -> {
                CompletableFuture<Boolean> ack = acks.get(new AckKey(key.iteration(), key.a(), key.b(), key.epoch()));
                if (ack != null) {
                    ack.complete(key.kind() == MessageKind.REPLICA_ACK);
                }
            }
            case REPLICA_DROP -> held.drop(key.iteration(), key.a());
            case REPLICA_FETCH -> serve(() -> answerFetch(key.iteration(), key.a(), key.b(), key.epoch()));
            case REPLICA_REPLY -> takeReplySlice(key, payload);
            case REPLICA_PROBE -> answer(() -> reply(key.b(), new MessageKey(key.epoch(), MessageKind.REPLICA_PROBE_REPLY,
                    key.iteration(), key.a(), rankId), new double[] {held.has(key.iteration(), key.a()) ? 1 : 0}));
            case REPLICA_PROBE_REPLY -> {
                CompletableFuture<Boolean> answer = probes.get(new ProbeKey(key.iteration(), key.a(), key.b(), key.epoch()));
                if (answer != null) {
                    answer.complete(payload.length > 0 && payload[0] == 1);
                }
            }
            default -> throw new IllegalArgumentException("not a replica message: " + key);
        }
    }

    /**
     * Takes a copy placed in shared memory ({@link MessageKind#REPLICA_SHARED}) as a mapping of the writer's file, on
     * the intake thread (opening and mapping a file is not for the delivering thread, which may be a computing rank's).
     */
    private void takeShared(MessageKey key, int length, SharedMemoryCopies.Placed file) {
        int writer = key.b();
        int request = key.epoch();
        SharedMemoryCopies.Taken taken = shared.take(writer, key.a(), key.iteration(), file, length);
        switch (taken.outcome()) {
            case TAKEN -> {
                held.acceptShared(key.iteration(), key.a(), writer, taken.copy());
                answer(() -> reply(writer, new MessageKey(request, MessageKind.REPLICA_ACK, key.iteration(), key.a(),
                        rankId), new double[0]));
            }
            case ABSENT -> answer(() -> reply(writer, new MessageKey(request, MessageKind.REPLICA_NOT_SHARED,
                    key.iteration(), key.a(), rankId), new double[0]));
            case STALE -> LOG.debug("rank {}: rank {} gave up the copy of checkpoint {} of partition {}", rankId, writer,
                    key.iteration(), key.a());
        }
    }

    @Override
    public long sharedMemoryCopies() {
        return sharedCopies.get();
    }

    @Override
    public long lentCopies() {
        return lentCopies.get();
    }

    /** Sends a fetched copy, on the thread that serves fetches (a large, possibly slow send). */
    private void serve(Runnable task) {
        submit(server, task);
    }

    /** Sends a small answer (an acknowledgement, a probe's), never queued behind a fetched copy. */
    private void answer(Runnable task) {
        submit(answers, task);
    }

    private static void submit(ExecutorService executor, Runnable task) {
        try {
            executor.execute(task);
        } catch (RejectedExecutionException e) {
            // closed: the run is over
        }
    }

    /**
     * Sends a small answer, trying again for up to {@link #ANSWER_RETRY_MILLIS} while the asker cannot be
     * reached: a rank that just joined (a respawned one) takes copies before its membership knows where the
     * others listen, and an answer lost then would hold the writer until its timeout.
     */
    private void reply(int to, MessageKey key, double[] payload) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ANSWER_RETRY_MILLIS);
        while (true) {
            try {
                dataPlane.send(to, key, payload);
                return;
            } catch (CommunicationException e) {
                if (closed || System.nanoTime() > deadline) {
                    LOG.debug("rank {}: cannot answer rank {} ({}): {}", rankId, to, key.kind(), e.getMessage());
                    return;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
        }
    }

    private void answerFetch(int iteration, int partition, int reader, int request) {
        HeldReplicas.Lent copy = held.lend(iteration, partition);
        int e = request;
        try {
            if (copy == null) {
                dataPlane.send(reader, new MessageKey(e, MessageKind.REPLICA_REPLY, iteration, partition, 0),
                        new double[] {-1, rankId});
                return;
            }
            dataPlane.send(reader, new MessageKey(e, MessageKind.REPLICA_REPLY, iteration, partition, 0),
                    new double[] {copy.length(), rankId});
            double[][] slices = copy.slices();
            for (int i = 0; i < slices.length; i++) {
                // held slices are never modified, so a reader in this JVM may get the array itself
                dataPlane.send(reader, new MessageKey(e, MessageKind.REPLICA_REPLY, iteration, partition, i + 1), slices[i]);
            }
        } catch (CommunicationException ex) {
            LOG.debug("rank {}: cannot serve checkpoint {} of partition {} to rank {}: {}", rankId, iteration, partition,
                    reader, ex.getMessage());
        }
    }

    private void takeReplySlice(MessageKey key, double[] payload) {
        Fetch fetch = fetches.get(new FetchKey(key.iteration(), key.a()));
        if (fetch == null || key.epoch() != fetch.request) {
            return; // a late answer to a fetch given up on
        }
        synchronized (fetch) {
            if (key.b() == 0) {
                if ((int) payload[1] != fetch.holder || fetch.state != null) {
                    return;
                }
                if (payload[0] < 0) {
                    fetch.done.complete(null);
                    return;
                }
                fetch.state = new double[(int) payload[0]];
                fetch.slices = (fetch.state.length + SLICE_DOUBLES - 1) / SLICE_DOUBLES;
            } else if (fetch.state != null && key.b() <= fetch.slices && !fetch.received.get(key.b())
                    && payload.length == Math.min(SLICE_DOUBLES, fetch.state.length - (key.b() - 1) * SLICE_DOUBLES)) {
                System.arraycopy(payload, 0, fetch.state, (key.b() - 1) * SLICE_DOUBLES, payload.length);
                fetch.received.set(key.b());
            }
            if (fetch.state != null && fetch.received.cardinality() == fetch.slices) {
                fetch.done.complete(fetch.state);
            }
        }
    }

    /** Stops serving; waits made by this rank end with their timeouts. */
    @Override
    public void close() {
        closed = true;
        server.shutdownNow();
        answers.shutdownNow();
        intake.shutdownNow();
        try {
            shared.close();
        } finally {
            held.close(); // gives the arrays of writers in this JVM back (LentArrays), which outlives this rank
        }
        fetches.values().forEach(f -> f.done.complete(null));
        acks.values().forEach(a -> a.completeExceptionally(new CommunicationException("closed", null)));
        probes.values().forEach(p -> p.complete(false));
    }
}
