package org.dfr.recovery;

import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.dfr.runtime.IterationHook;
import org.dfr.runtime.RankContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kills ranks exactly where a {@link FaultPlan} says. Each death is recorded in the run's
 * {@link org.dfr.runtime.FailureLog} first (with the wall-clock time of death) so that the report lists it and
 * detection latency can be measured.
 */
public final class FaultInjector implements IterationHook {

    private static final Logger LOG = LoggerFactory.getLogger(FaultInjector.class);

    private final FaultPlan plan;
    private final RankKiller killer;
    private final int lastIteration;
    private final int firstSpare;
    /** Board key under which the ranks tell an idle spare the iteration it is to die at (it runs none itself). */
    static final String SPARE_DEATH_PREFIX = "spare-death/";
    private final Set<Integer> recoveryKillsArmed = ConcurrentHashMap.newKeySet();
    /** Pauses and deaths during agreement that already happened: each happens once. */
    private final Set<FaultPlan.Kill> fired = ConcurrentHashMap.newKeySet();

    /**
     * @param lastIteration the run's last iteration: a death during the recovery of a failure in the
     *                      last iteration is recorded there, not one past the end of the run
     * @param firstSpare    the id of the first spare rank (the run's partition count): a spare's death at an
     *                      iteration reaches it through the control board while it waits without partitions
     */
    public FaultInjector(FaultPlan plan, RankKiller killer, int lastIteration, int firstSpare) {
        this.plan = plan;
        this.firstSpare = firstSpare;
        this.lastIteration = lastIteration;
        this.killer = killer;
        recoveryKillsArmed.addAll(plan.failDuringRecovery());
        killer.prepare();
    }

    @Override
    public void beforeIteration(RankContext rank, int iteration) {
        for (FaultPlan.Kill k : plan.kills()) {
            if (k.point() == FaultPlan.Point.PAUSE && k.rank() == rank.rankId() && k.iteration() == iteration
                    && !rank.inRecovery() && fired.add(k)) {
                killer.pause(rank, k.pauseMillis());
            }
        }
        maybeKill(rank, iteration, FaultPlan.Point.ITERATION_START);
        for (FaultPlan.Kill k : plan.kills()) {
            // inside a recovery too: the last recomputed reduction starts the resume iteration early, still in
            // recovery (the same trap as mayStartEarly's); putIfAbsent makes a second write a no-op
            if (k.rank() >= firstSpare && k.rank() != rank.rankId() && k.iteration() == iteration
                    && k.point() == FaultPlan.Point.ITERATION_START) {
                // a spare that adopted nothing waits on the board: the run reaching the iteration reaches it there
                // (a spare that adopted dies at its own start of the iteration; it no longer reads this key)
                rank.control().putIfAbsent(SPARE_DEATH_PREFIX + k.rank(), Integer.toString(iteration));
            }
        }
    }

    @Override
    public void whileIdle(RankContext rank) {
        String at = rank.control().get(SPARE_DEATH_PREFIX + rank.rankId());
        if (at == null) {
            return;
        }
        for (FaultPlan.Kill k : plan.kills()) {
            if (k.rank() == rank.rankId() && k.point() == FaultPlan.Point.ITERATION_START && fired.add(k)) {
                die(rank, Integer.parseInt(at), FaultPlan.Point.ITERATION_START.name(),
                        together(rank, k.iteration(), k.point()));
            }
        }
    }

    @Override
    public void afterHalosSent(RankContext rank, int iteration) {
        maybeKill(rank, iteration, FaultPlan.Point.DURING_HALO_EXCHANGE);
    }

    @Override
    public void duringAgreement(RankContext rank, int epoch) {
        // the run stands at the failure iteration of this recovery: this rank holds (or falls back to) the
        // state before it
        int iteration = rank.liveIteration() + 1;
        for (FaultPlan.Kill k : plan.kills()) {
            if (k.point() == FaultPlan.Point.DURING_AGREEMENT && k.rank() == rank.rankId()
                    && iteration >= k.iteration() && fired.add(k)) {
                die(rank, iteration, FaultPlan.Point.DURING_AGREEMENT.name());
            }
        }
    }

    @Override
    public void afterEndNoticesSent(RankContext rank) {
        for (FaultPlan.Kill k : plan.kills()) {
            if (k.point() == FaultPlan.Point.AFTER_END_NOTICES && k.rank() == rank.rankId() && fired.add(k)) {
                die(rank, lastIteration, FaultPlan.Point.AFTER_END_NOTICES.name());
            }
        }
    }

    /** A rank killed at the start of an iteration first completes the previous one, as the plan means. */
    @Override
    public boolean mayStartEarly(RankContext rank, int iteration) {
        // inside a recovery too: the last recomputed iteration's reduction would start the resume iteration early,
        // with the rank still in recovery, so its death there was skipped and, the iteration started, never came
        // (seed 132, trial 9: 7@4/after_checkpoint_write then 0@5, a recovery resuming at 5)
        return plan.kills().stream().noneMatch(k -> k.rank() == rank.rankId() && k.iteration() == iteration
                && k.point() == FaultPlan.Point.ITERATION_START);
    }

    @Override
    public void afterCheckpointWrite(RankContext rank, int iteration) {
        maybeKill(rank, iteration, FaultPlan.Point.AFTER_CHECKPOINT_WRITE);
    }

    @Override
    public void afterPartialSent(RankContext rank, int iteration) {
        maybeKill(rank, iteration, FaultPlan.Point.DURING_REDUCTION);
    }

    @Override
    public void afterRecoveryStep(RankContext rank, int failureIteration, int level) {
        if (level == 1 && recoveryKillsArmed.remove(rank.rankId())) {
            // the run stands at the failure iteration t of this recovery: survivors hold t-1 and resume at t
            // (this rank's own buffers do not say where the run stands if it is a spare or an adopter)
            die(rank, failureIteration, "DURING_RECOVERY");
        }
    }

    private void maybeKill(RankContext rank, int iteration, FaultPlan.Point point) {
        if (planned(rank, iteration, point)) {
            die(rank, iteration, point.name(), together(rank, iteration, point));
        }
    }

    /** The other ranks the plan kills at the same point of the same iteration: they die as one. */
    private Set<Integer> together(RankContext rank, int iteration, FaultPlan.Point point) {
        Set<Integer> others = new TreeSet<>();
        for (FaultPlan.Kill k : plan.kills()) {
            if (k.rank() != rank.rankId() && k.iteration() == iteration && k.point() == point) {
                others.add(k.rank());
            }
        }
        return others;
    }

    /** Whether the plan kills {@code rank} at this point of {@code iteration}. */
    private boolean planned(RankContext rank, int iteration, FaultPlan.Point point) {
        // scheduled deaths belong to the failure-free timeline, not to a recomputation
        return !rank.inRecovery() && plan.kills().stream()
                .anyMatch(k -> k.rank() == rank.rankId() && k.iteration() == iteration && k.point() == point);
    }

    private void die(RankContext rank, int failureIteration, String where) {
        die(rank, failureIteration, where, Set.of());
    }

    private void die(RankContext rank, int failureIteration, String where, Set<Integer> together) {
        // during agreement or recovery the run stands at the recovery's failure iteration, which is one
        // past the last iteration when the failure hit the last iteration's reduction
        int iteration = Math.min(failureIteration, lastIteration);
        // the record must be in the (replicated) log before the death, and carry the time of death:
        // the death is scheduled a little after the write starts. A write slower than that (a loaded
        // machine) would make the recorded time early and detection look slower by the overrun, so the
        // record is written again with a later time, with twice the time the last write took
        int key = (Math.max(iteration, 0) * 100_000) + rank.rankId();
        long budgetMillis = RECORD_BUDGET_MILLIS;
        long deathAtMillis = 0;
        for (int attempt = 0; attempt < RECORD_ATTEMPTS; attempt++) {
            long start = System.currentTimeMillis();
            deathAtMillis = start + budgetMillis;
            FailureRecord record = new FailureRecord(rank.rankId(), iteration, where, deathAtMillis);
            rank.failures().record(key, record.toJson());
            long tookMillis = System.currentTimeMillis() - start;
            LOG.debug("rank {}: failure record {} written in {} ms", rank.rankId(), key, tookMillis);
            if (tookMillis <= budgetMillis) {
                break;
            }
            budgetMillis = 2 * tookMillis;
        }
        long waitMillis = deathAtMillis - System.currentTimeMillis();
        if (waitMillis > 0) {
            LockSupport.parkNanos(waitMillis * 1_000_000L);
        }
        throw killer.killWith(rank, together);
    }

    /** Writes of the failure record at most (each with a later death time when the previous one overran). */
    static final int RECORD_ATTEMPTS = 3;

    /** Time allowed for writing the failure record before the scheduled death. */
    static final long RECORD_BUDGET_MILLIS = 25;
}
