package org.dfr.runtime;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.dfr.runtime.net.CommunicationException;
import org.dfr.runtime.net.EpochChangedException;
import org.dfr.runtime.net.MessageKind;

/**
 * One rank's iteration loop. Per iteration {@code i}: halos of state {@code i-1} go to the owners of
 * the consuming partitions, every owned partition is updated into its second buffer, a checkpoint's
 * local copy is written when {@code i} is a checkpoint iteration (replicated in the background), the
 * residual contributions are summed through the root (which is also the barrier that commits the
 * checkpoint in flight once its commit lag has passed, see {@link Checkpointing}), and the buffers swap.
 *
 * <p>The halos of iteration {@code i+1} leave as soon as this rank's contribution to the reduction
 * of {@code i} is sent, before it waits for the sum: the state they carry is already computed and
 * they carry the epoch, so nothing a recovery sees changes. Not with a tolerance (nobody knows before
 * the sum whether {@code i+1} runs), nor when the hook forbids it ({@link IterationHook#mayStartEarly}).
 *
 * <p>Convergence: the root records the first iteration whose global residual is below the
 * tolerance under {@link #CONVERGED_KEY} before it sends that sum; a rank that missed the sum (an
 * adopter that recomputed up to it) learns there that the run ends ({@link #learnConvergence}).
 */
public final class IterationLoop {

    /**
     * Control-board key of the iteration whose global residual was below the run's tolerance, written
     * by the reduction's root before it sends that sum.
     */
    public static final String CONVERGED_KEY = "converged";

    private final int rankId;
    private final RunSpec spec;
    private final PartitionKernel kernel;
    private final PartitionStates states;
    private final Communicator comm;
    private final Checkpointing checkpointing;
    private final RankCounters counters;
    private final ControlBoard control;
    private final IterationHook hook;
    private final RankContext context;
    private final Supplier<Ownership> ownership;
    private final Runnable checkAlive;
    private final CheckpointSchedule schedule;

    private double lastResidual = Double.NaN;
    /** The last iteration of the run: {@code spec.iterations()} or, once converged, the converged iteration. */
    private int lastIteration;
    /** Iteration and epoch whose halos this rank already sent, ahead of its start. */
    private int halosSentIteration = -1;
    private int halosSentEpoch = -1;
    /** The iteration the run started from: 0, or the checkpoint iteration a restart loaded. */
    private int firstCheckpoint;

    /**
     * @param context what the hook is given
     * @param checkAlive throws {@link RankKilledException} once the rank was killed
     * @param schedule which iterations are checkpoint iterations
     */
    public IterationLoop(RankContext context, RunSpec spec, PartitionKernel kernel, PartitionStates states,
                         Communicator comm, Checkpointing checkpointing, RankCounters counters, ControlBoard control,
                         IterationHook hook, Supplier<Ownership> ownership, Runnable checkAlive,
                         CheckpointSchedule schedule) {
        this.schedule = schedule;
        this.rankId = context.rankId();
        this.context = context;
        this.spec = spec;
        this.kernel = kernel;
        this.states = states;
        this.comm = comm;
        this.checkpointing = checkpointing;
        this.counters = counters;
        this.control = control;
        this.hook = hook;
        this.ownership = ownership;
        this.checkAlive = checkAlive;
        this.lastIteration = spec.iterations();
    }

    /**
     * Writes and commits checkpoint {@code c} of the live states: 0 (the initial state), or the
     * iteration a restart from disk loaded. Recovers with {@code recover} on a failure.
     *
     * @return the first iteration to run
     */
    public int startFromInitialCheckpoint(ToIntFunction<RuntimeException> recover) {
        int c = states.liveIteration();
        firstCheckpoint = c;
        while (true) {
            try {
                long start = System.nanoTime();
                checkpointing.write(c, states, true);
                long copied = System.nanoTime();
                // a death here leaves no committed checkpoint: the recovery rebuilds where the run started
                hook.afterCheckpointWrite(context, c);
                // the first checkpoint is committed at once: there is no earlier one to fall back to
                checkpointing.awaitReplication(comm.mailbox()::isInterrupted);
                // what an automatic interval is chosen from: the copy and the replication after it
                schedule.recordInitialCheckpoint(copied - start, System.nanoTime() - copied);
                allreduce(c, new TreeMap<>(), () -> { });
                commitCheckpoint(c);
                return c + 1;
            } catch (EpochChangedException | CommunicationException e) {
                int next = recover.applyAsInt(e);
                if (next >= c + 1) {
                    return next;
                }
            }
        }
    }

    /**
     * Runs iterations from {@code first} to the {@link #lastIteration}, recovering with
     * {@code recover} on a failure (it returns the iteration to continue with).
     *
     * @return the iteration after the last one run
     */
    public int iterateFrom(int first, ToIntFunction<RuntimeException> recover) {
        int i = first;
        learnConvergence();
        while (i <= lastIteration) {
            try {
                runIteration(i);
                i++;
            } catch (EpochChangedException | CommunicationException e) {
                i = recover.applyAsInt(e);
                learnConvergence();
            }
        }
        return i;
    }

    /**
     * After a recovery (or a spare's adoption) this rank may not have seen the sum that ended the run:
     * the root recorded the converged iteration on the control board before it sent that sum.
     */
    private void learnConvergence() {
        if (spec.hasTolerance() && lastIteration == spec.iterations()) {
            String converged = control.get(CONVERGED_KEY);
            if (converged != null) {
                lastIteration = Math.min(lastIteration, Integer.parseInt(converged));
            }
        }
    }

    /**
     * The iteration the run ends with: {@link RunSpec#iterations()}, or the first whose global residual
     * fell below the tolerance.
     */
    public int lastIteration() {
        return lastIteration;
    }

    /** The global residual of the last completed iteration. */
    public double lastResidual() {
        return lastResidual;
    }

    /** Runs one full iteration (halos, update, checkpoint when due, reduction, swap). */
    public void runIteration(int i) {
        long start = System.nanoTime();
        checkAlive.run();
        int epoch = comm.epoch();
        if (halosSentIteration != i || halosSentEpoch != epoch) {
            startIteration(epoch, i, 0);
        }
        hook.afterHalosSent(context, i);
        for (Map.Entry<Integer, DoubleBuffer> e : states.buffers().entrySet()) {
            comm.receiveHalos(MessageKind.HALO, epoch, i, e.getKey(), e.getValue().live());
        }
        TreeMap<Integer, Double> partials = new TreeMap<>();
        for (Map.Entry<Integer, DoubleBuffer> e : states.buffers().entrySet()) {
            DoubleBuffer b = e.getValue();
            partials.put(e.getKey(), kernel.update(e.getKey(), b.live(), b.writableNext()));
            counters.countUpdate();
        }
        states.markComputed(i);
        boolean checkpoint = schedule.isCheckpointIteration(i, control, epoch, rankId, comm.mailbox()::isInterrupted);
        if (checkpoint) {
            checkpointing.write(i, states, false);
            hook.afterCheckpointWrite(context, i);
        }
        // the commit of the checkpoint in flight is due with this reduction: this rank's copies first
        checkpointing.awaitReplicationDue(i, comm.mailbox()::isInterrupted);
        // with a convergence test nobody knows before the sum whether i+1 runs at all
        double residual = allreduce(i, partials, () -> {
            if (i < spec.iterations() && !spec.hasTolerance() && hook.mayStartEarly(context, i + 1)) {
                startIteration(epoch, i + 1, 1);
            }
        });
        states.advanceTo(i);
        lastResidual = residual;
        Ownership own = ownership.get();
        checkpointing.commitDue(i, own.partitionsOf(rankId));
        if (spec.converged(residual)) {
            lastIteration = i;
        }
        schedule.recordIteration(i, System.nanoTime() - start);
    }

    /**
     * Begins iteration {@code i}: the hook, then the halos of state {@code i-1}, which buffer
     * {@code stateBuffer} of every owned partition holds (0 once swapped, 1 while the reduction of
     * {@code i-1} is still pending).
     */
    private void startIteration(int epoch, int i, int stateBuffer) {
        hook.beforeIteration(context, i);
        checkAlive.run();
        for (Map.Entry<Integer, DoubleBuffer> e : states.buffers().entrySet()) {
            comm.sendHalos(MessageKind.HALO, epoch, i, e.getKey(), e.getValue().buffer(stateBuffer));
        }
        halosSentIteration = i;
        halosSentEpoch = epoch;
    }

    /** The reduction of {@code iteration}: the hook once the contribution is out, then {@code whileWaiting}. */
    private double allreduce(int iteration, TreeMap<Integer, Double> partials, Runnable whileWaiting) {
        return comm.allreduce(iteration, partials, () -> {
            hook.afterPartialSent(context, iteration);
            whileWaiting.run();
        }, sum -> {
            if (spec.converged(sum) && iteration > firstCheckpoint) {
                control.putIfAbsent(CONVERGED_KEY, Integer.toString(iteration));
            }
            // an automatic interval is on the board before anybody has the sum of its decision iteration
            schedule.atRootBeforeSum(iteration, control, comm.epoch(), rankId);
        });
    }

    /** Called once every rank is known to have every copy of checkpoint {@code iteration} in place. */
    private void commitCheckpoint(int iteration) {
        Ownership own = ownership.get();
        checkpointing.commit(iteration, own.partitionsOf(rankId));
    }
}
