package org.dfr.recovery;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which ranks die when: the experiment's fault injection, fixed before the run.
 *
 * @param kills every scheduled death, and every pause ({@link Point#PAUSE})
 * @param failDuringRecovery ranks that die after the first recomputed level of the next recovery
 */
public record FaultPlan(List<Kill> kills, Set<Integer> failDuringRecovery) {

    /** No failure at all. */
    public static final FaultPlan NONE = new FaultPlan(List.of(), Set.of());

    /** Where in an iteration a scheduled death happens. */
    public enum Point {
        /** At the start of the iteration, after completing the previous one (the CLI's {@code --fail}). */
        ITERATION_START,
        /**
         * After writing this rank's partitions of the checkpoint taken at this iteration, before the checkpoint is
         * committed; at iteration 0, of checkpoint 0, before the first iteration (its only kill at 0).
         */
        AFTER_CHECKPOINT_WRITE,
        /**
         * In the middle of the residual reduction: after sending its contribution to the root, before
         * receiving the sum (the root: before receiving the others' contributions).
         */
        DURING_REDUCTION,
        /**
         * In the middle of the halo exchange: after sending its halos of the iteration, before receiving
         * the halos it needs.
         */
        DURING_HALO_EXCHANGE,
        /**
         * During the agreement of the first recovery this rank enters at or after the iteration: once it
         * reported its status, before it executes the directive (the coordinator: before deciding it).
         */
        DURING_AGREEMENT,
        /**
         * At the end of the run: after handing over its final states and its statistics and sending its end-of-run
         * notices, before it has the others'. The run's result is complete without it: no recovery follows from
         * it alone (it is among the dead of one that another death needs).
         * The iteration is the run's last (the plan's own iteration is not checked).
         */
        AFTER_END_NOTICES,
        /**
         * Not a death: the rank stops for {@link Kill#pauseMillis()} at the start of the iteration, then
         * goes on (a SIGSTOP and SIGCONT of its process; in-JVM members: its iteration thread blocks).
         * Shorter than the heartbeat timeout, it must not trigger any recovery.
         */
        PAUSE;

        /** Whether the rank dies at this point (every point but {@link #PAUSE}). */
        public boolean isDeath() {
            return this != PAUSE;
        }
    }

    /**
     * Rank {@code rank} dies at {@code point} of iteration {@code iteration}; a {@link Point#PAUSE} stops it
     * for {@code pauseMillis} instead.
     *
     * @param pauseMillis how long a {@link Point#PAUSE} lasts (> 0); 0 for every death
     */
    public record Kill(int rank, int iteration, Point point, long pauseMillis) {
        public Kill {
            if (rank < 0) {
                throw new IllegalArgumentException("rank must be >= 0, got " + rank);
            }
            // checkpoint 0 is written before the first iteration: a death right after writing it is the one at 0
            if (iteration < (point == Point.AFTER_CHECKPOINT_WRITE ? 0 : 1)) {
                throw new IllegalArgumentException("failure iteration must be >= 1, got " + iteration);
            }
            if (point == Point.PAUSE ? pauseMillis <= 0 : pauseMillis != 0) {
                throw new IllegalArgumentException("a pause lasts > 0 ms and a death has no duration, got "
                        + pauseMillis + " ms at " + point);
            }
        }

        /** A death of {@code rank} at {@code point} of {@code iteration}. */
        public Kill(int rank, int iteration, Point point) {
            this(rank, iteration, point, 0);
        }

        /** Rank {@code rank} stops for {@code millis} at the start of {@code iteration}. */
        public static Kill pause(int rank, int iteration, long millis) {
            return new Kill(rank, iteration, Point.PAUSE, millis);
        }
    }

    public FaultPlan {
        kills = List.copyOf(kills);
        failDuringRecovery = Set.copyOf(failDuringRecovery);
    }

    /**
     * Parses {@code RANK@ITER}.
     *
     * @throws IllegalArgumentException naming the bad text and the expected form
     */
    public static Kill parseKill(String text) {
        String[] parts = text.trim().split("@");
        if (parts.length != 2) {
            throw new IllegalArgumentException("bad failure '" + text + "': expected RANK@ITER, e.g. 1@4");
        }
        try {
            return new Kill(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()), Point.ITERATION_START);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad failure '" + text + "': RANK and ITER must be integers, e.g. 1@4");
        }
    }

    /** A plan with these kills added. */
    public FaultPlan plus(List<Kill> more) {
        List<Kill> all = new ArrayList<>(kills);
        all.addAll(more);
        return new FaultPlan(all, failDuringRecovery);
    }

    /** A plan where these ranks die during the next recovery. */
    public FaultPlan plusFailDuringRecovery(Set<Integer> ranks) {
        Set<Integer> all = new TreeSet<>(failDuringRecovery);
        all.addAll(ranks);
        return new FaultPlan(kills, all);
    }

    /**
     * The kills a run that ended after {@code lastIteration} never reached: a {@code --tolerance} stop can come
     * before them, which nobody can know when the plan is made. A kill {@link Point#AFTER_END_NOTICES} is
     * always reached (its iteration is the run's last, whichever that is).
     */
    public List<Kill> killsAfter(int lastIteration) {
        return kills.stream().filter(k -> k.point() != Point.AFTER_END_NOTICES && k.iteration() > lastIteration)
                .toList();
    }

    /** Every rank the plan may kill (a paused rank is not killed). */
    public Set<Integer> ranks() {
        Set<Integer> out = new TreeSet<>(failDuringRecovery);
        kills.stream().filter(k -> k.point().isDeath()).forEach(k -> out.add(k.rank()));
        return out;
    }
}
