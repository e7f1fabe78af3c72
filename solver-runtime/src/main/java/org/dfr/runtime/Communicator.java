package org.dfr.runtime;

import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.DoubleConsumer;
import java.util.function.Supplier;
import org.dfr.analysis.PartitionDependencies;
import org.dfr.runtime.net.CommunicationException;
import org.dfr.runtime.net.DataPlane;
import org.dfr.runtime.net.Mailbox;
import org.dfr.runtime.net.MessageKey;
import org.dfr.runtime.net.MessageKind;
import org.dfr.runtime.net.TextPayload;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One rank's communication primitives over the data plane: halos between partitions (addressed to
 * the rank that owns the consuming partition, per the current {@link Ownership}), the residual
 * reduction through the {@link Leadership#root root}, barriers and the recovery announcement.
 * Every message carries the mailbox's current epoch; a wait ends with an
 * {@link org.dfr.runtime.net.EpochChangedException} when the epoch is interrupted.
 */
public final class Communicator {

    private static final Logger LOG = LoggerFactory.getLogger(Communicator.class);
    /** The largest slice of a final state in one message ({@link #gatherFinalStates}): 1 MiB. */
    static final int FINAL_STATE_SLICE_DOUBLES = 128 * 1024;

    private final int rankId;
    private final int partitionCount;
    private final PartitionKernel kernel;
    private final DataPlane dataPlane;
    private final Mailbox mailbox;
    private final long messageTimeoutMillis;
    private final Supplier<Ownership> ownership;
    private final int[][] inputs;
    private final int[][] consumers;

    /**
     * @param ownership the ownership in force (read at every send: a recovery replaces it)
     */
    public Communicator(int rankId, PartitionKernel kernel, DataPlane dataPlane, Mailbox mailbox,
                        long messageTimeoutMillis, Supplier<Ownership> ownership) {
        this.rankId = rankId;
        this.kernel = kernel;
        this.dataPlane = dataPlane;
        this.mailbox = mailbox;
        this.messageTimeoutMillis = messageTimeoutMillis;
        this.ownership = ownership;
        PartitionDependencies deps = kernel.dependencies();
        this.partitionCount = deps.partitionCount();
        this.inputs = new int[partitionCount][];
        for (int p = 0; p < partitionCount; p++) {
            inputs[p] = deps.inputsOf(p);
        }
        this.consumers = deps.consumers();
    }

    /** The mailbox's current epoch. */
    public int epoch() {
        return mailbox.epoch();
    }

    /** The mailbox (epochs, dropped-message count). */
    public Mailbox mailbox() {
        return mailbox;
    }

    /** Partitions whose state {@code partition}'s update reads. */
    public int[] inputsOf(int partition) {
        return inputs[partition];
    }

    /** Partitions whose update reads {@code partition}'s state. */
    public int[] consumersOf(int partition) {
        return consumers[partition];
    }

    /**
     * Sends the halos of partition {@code from} (state {@code state}) to the owners of every
     * partition that consumes it.
     */
    public void sendHalos(MessageKind kind, int epoch, int iteration, int from, double[] state) {
        sendHalos(kind, epoch, iteration, from, state, consumers[from]);
    }

    /** Sends the halos of {@code from} to the given consumers only. */
    public void sendHalos(MessageKind kind, int epoch, int iteration, int from, double[] state, int[] to) {
        Ownership own = ownership.get();
        for (int c : to) {
            double[] halo = new double[kernel.haloLength(from, c)];
            kernel.packHalo(from, state, c, halo);
            dataPlane.send(own.ownerOf(c), new MessageKey(epoch, kind, iteration, from, c), halo);
        }
    }

    /** Receives every halo partition {@code to} needs for {@code iteration} and unpacks it. */
    public void receiveHalos(MessageKind kind, int epoch, int iteration, int to, double[] state) {
        for (int q : inputs[to]) {
            if (q != to) {
                receiveHalo(kind, epoch, iteration, q, to, state);
            }
        }
    }

    /** Receives one halo and unpacks it into {@code state}. */
    public void receiveHalo(MessageKind kind, int epoch, int iteration, int from, int to, double[] state) {
        double[] halo = mailbox.take(new MessageKey(epoch, kind, iteration, from, to), messageTimeoutMillis);
        kernel.unpackHalo(to, state, from, halo);
    }

    /**
     * Sums the residual contributions of every active rank and returns the global sum, added in
     * partition order so that every rank gets the same bits.
     *
     * <p>Gather and broadcast through the {@link Leadership#root root}: the others send it their
     * contributions and wait for the sum. When a rank has the sum, every active rank has finished
     * the iteration up to its contribution, checkpoint write included, so this is also the barrier
     * that commits a checkpoint. {@code 2(n-1)} messages instead of the {@code n(n-1)} of an
     * all-to-all exchange: with 8 rank processes on 2 cores, 6 % more cell updates per second
     * (measured, docs/bench.md).
     *
     * @param partials this rank's contribution per owned partition
     * @param afterContributionSent runs once this rank's contribution is sent (on the root: before
     *        it receives the others'), before it waits
     * @param atRootBeforeBroadcast runs on the root only, with the sum, before it sends the sum
     */
    public double allreduce(int iteration, TreeMap<Integer, Double> partials, Runnable afterContributionSent,
                            DoubleConsumer atRootBeforeBroadcast) {
        int epoch = mailbox.epoch();
        Ownership own = ownership.get();
        int[] ranks = own.activeRanksView();
        int root = Leadership.root(own);
        if (rankId != root) {
            double[] payload = new double[partials.size() * 2];
            int k = 0;
            for (Map.Entry<Integer, Double> e : partials.entrySet()) {
                payload[k++] = e.getKey();
                payload[k++] = e.getValue();
            }
            dataPlane.send(root, new MessageKey(epoch, MessageKind.PARTIAL, iteration, rankId, 0), payload);
            afterContributionSent.run();
            return mailbox.take(new MessageKey(epoch, MessageKind.REDUCED, iteration, root, rankId),
                    messageTimeoutMillis)[0];
        }
        afterContributionSent.run();
        double[] byPartition = new double[partitionCount];
        for (Map.Entry<Integer, Double> e : partials.entrySet()) {
            byPartition[e.getKey()] = e.getValue();
        }
        for (int r : ranks) {
            if (r != rankId) {
                double[] got = mailbox.take(new MessageKey(epoch, MessageKind.PARTIAL, iteration, r, 0),
                        messageTimeoutMillis);
                for (int j = 0; j + 1 < got.length; j += 2) {
                    byPartition[(int) got[j]] = got[j + 1];
                }
            }
        }
        double sum = 0;
        for (double v : byPartition) {
            sum += v;
        }
        atRootBeforeBroadcast.accept(sum);
        double[] reduced = {sum};
        for (int r : ranks) {
            if (r != rankId) {
                dataPlane.send(r, new MessageKey(epoch, MessageKind.REDUCED, iteration, rankId, r), reduced);
            }
        }
        return sum;
    }

    /**
     * Gathers every partition's final state on the {@link Leadership#root root}: the others send it the
     * states of their partitions, and it waits for those of every partition it does not own.
     *
     * <p>The data plane, not a replicated map: a state written to a map while the cluster rebalanced
     * after a recovery was once not found by the collector (campaign seed 90, trial 727), and the
     * states are needed by one rank only, at the run's end. A rank lost meanwhile ends the wait with
     * an {@link org.dfr.runtime.net.EpochChangedException}; the run then recovers and gathers again.
     *
     * <p>A state travels in slices of at most {@link #FINAL_STATE_SLICE_DOUBLES} doubles, after a
     * message with its length: a connection keeps its frame buffer (direct memory) at the size of the
     * largest message it carried, so whole states would leave the root holding a block per rank, and
     * every sender a block, until they leave.
     *
     * @param own this rank's partitions and their final states; not modified, and not kept past the call
     * @return on the root, every partition's final state, in partition order (copies); elsewhere null
     */
    public TreeMap<Integer, double[]> gatherFinalStates(Map<Integer, double[]> own) {
        int epoch = mailbox.epoch();
        Ownership owners = ownership.get();
        int root = Leadership.root(owners);
        if (rankId != root) {
            for (Map.Entry<Integer, double[]> e : own.entrySet()) {
                sendFinalState(root, epoch, e.getKey(), e.getValue());
            }
            return null;
        }
        TreeMap<Integer, double[]> all = new TreeMap<>();
        own.forEach((p, state) -> all.put(p, state.clone()));
        for (int p = 0; p < partitionCount; p++) {
            int owner = owners.ownerOf(p);
            if (owner != rankId) {
                all.put(p, takeFinalState(epoch, p, owner));
            }
        }
        return all;
    }

    /** Slice {@code 0} carries the length; slices {@code 1..} carry the state (the key's iteration field). */
    private void sendFinalState(int root, int epoch, int partition, double[] state) {
        dataPlane.send(root, finalStateKey(epoch, 0, partition, rankId), new double[] {state.length});
        for (int from = 0, slice = 1; from < state.length; from += FINAL_STATE_SLICE_DOUBLES, slice++) {
            dataPlane.send(root, finalStateKey(epoch, slice, partition, rankId), state, from,
                    Math.min(state.length, from + FINAL_STATE_SLICE_DOUBLES));
        }
    }

    private double[] takeFinalState(int epoch, int partition, int owner) {
        double[] length = mailbox.take(finalStateKey(epoch, 0, partition, owner), messageTimeoutMillis);
        double[] state = new double[(int) length[0]];
        for (int from = 0, slice = 1; from < state.length; from += FINAL_STATE_SLICE_DOUBLES, slice++) {
            double[] part = mailbox.take(finalStateKey(epoch, slice, partition, owner), messageTimeoutMillis);
            System.arraycopy(part, 0, state, from, part.length);
        }
        return state;
    }

    private static MessageKey finalStateKey(int epoch, int slice, int partition, int sender) {
        return new MessageKey(epoch, MessageKind.FINAL_STATE, slice, partition, sender);
    }

    /** All-to-all barrier among the given ranks in the current epoch. */
    public void barrier(MessageKind kind, int iteration, int[] ranks) {
        awaitBarrier(kind, iteration, ranks, enterBarrier(kind, iteration, ranks));
    }

    /**
     * The first half of a {@link #barrier}: tells every other rank of {@code ranks} that this one reached it.
     *
     * @return the epoch to pass to {@link #awaitBarrier}
     */
    public int enterBarrier(MessageKind kind, int iteration, int[] ranks) {
        return notifyOthers(kind, iteration, ranks, false);
    }

    /**
     * The first half of the end-of-run barrier: tells every other rank of {@code ranks} that this one handed its
     * final states to the root and its statistics to the cluster. A rank whose own notice arrived here
     * ({@link Mailbox#passedEnd}) may have left (or died) since: it waits for nothing more, and nothing of it is lost,
     * so a notice that cannot reach it is skipped.
     *
     * @return the epoch to pass to {@link #awaitEndNotices}
     */
    public int sendEndNotices(int iteration, int[] ranks) {
        return notifyOthers(MessageKind.END_BARRIER, iteration, ranks, true);
    }

    /** The second half of the end-of-run barrier: waits until every other rank of {@code ranks} sent its notice. */
    public void awaitEndNotices(int iteration, int[] ranks, int epoch) {
        awaitBarrier(MessageKind.END_BARRIER, iteration, ranks, epoch);
    }

    private int notifyOthers(MessageKind kind, int iteration, int[] ranks, boolean skipRanksPastEnd) {
        int epoch = mailbox.epoch();
        double[] empty = new double[0];
        for (int r : ranks) {
            if (r != rankId) {
                try {
                    dataPlane.send(r, new MessageKey(epoch, kind, iteration, rankId, 0), empty);
                } catch (CommunicationException e) {
                    if (!skipRanksPastEnd || !mailbox.passedEnd(r)) {
                        throw e;
                    }
                }
            }
        }
        return epoch;
    }

    /** The second half of a {@link #barrier}: waits until every other rank of {@code ranks} reached it. */
    public void awaitBarrier(MessageKind kind, int iteration, int[] ranks, int epoch) {
        for (int r : ranks) {
            if (r != rankId) {
                mailbox.take(new MessageKey(epoch, kind, iteration, r, 0), messageTimeoutMillis);
            }
        }
    }

    /**
     * Sends protocol text (a recovery status or directive, as JSON) to each rank of {@code to}, in
     * its order, this one included, under {@code epoch}, best effort.
     *
     * @return the ranks it could not be sent to (dead, or about to be found dead)
     */
    public Set<Integer> sendText(Collection<Integer> to, MessageKind kind, int epoch, int a, int b, String text) {
        double[] payload = TextPayload.encode(text);
        Set<Integer> failed = new TreeSet<>();
        for (int r : to) {
            try {
                dataPlane.send(r, new MessageKey(epoch, kind, 0, a, b), payload);
            } catch (CommunicationException e) {
                failed.add(r);
                LOG.debug("rank {}: cannot send {} of epoch {} to rank {}: {}", rankId, kind, epoch, r, e.getMessage());
            }
        }
        return failed;
    }

    /**
     * Tells {@code rank} again that a recovery started in {@code epoch}: a rank that joined after the
     * round began (a respawned process) missed the first notice and would wait for its peers until its
     * message timeout. Ignored by a rank that is not in {@code epoch} (yet) or already knows.
     */
    public void remindRecovery(int epoch, int rank) {
        try {
            dataPlane.send(rank, new MessageKey(epoch, MessageKind.RECOVERY_START, 0, rankId, 0), new double[0]);
        } catch (CommunicationException e) {
            LOG.debug("rank {}: cannot remind rank {} of the recovery of epoch {}: {}", rankId, rank, epoch, e.getMessage());
        }
    }

    /**
     * Tells every other active rank in {@code live} that this rank entered a recovery in the current
     * epoch, so that they stop and report without waiting for their own membership event. Best
     * effort: a peer that cannot be reached is dead or will learn it from Hazelcast.
     */
    public void announceRecovery(Set<Integer> live) {
        int epoch = mailbox.epoch();
        for (int r : ownership.get().activeRanksView()) {
            if (r != rankId && live.contains(r)) {
                remindRecovery(epoch, r);
            }
        }
    }
}
