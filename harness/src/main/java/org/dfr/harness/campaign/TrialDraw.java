package org.dfr.harness.campaign;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.dfr.harness.Mode;
import org.dfr.harness.Replacement;
import org.dfr.harness.RunConfig;
import org.dfr.recovery.FaultPlan;
import org.dfr.recovery.Strategy;
import org.dfr.runtime.Checkpointing;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.RunSpec;

/**
 * Draws campaign trials from one seed: the same seed, bases, kinds and settings give the same trials in
 * the same order, so a failing trial is replayed by its seed and index alone.
 *
 * <p>Per trial: a base (kernel, sizes), a strategy, 0 or 1 spare, frequency capping of idle hosts on a
 * fake sysfs tree (when enabled, one trial in four), 1 to {@code maxFailures} failures of the allowed
 * kinds on distinct victims, and a replacement that fits the spares and the mode: the spare when there is
 * one; without, survivors adopt, or (processes mode, half of those trials) fresh rank processes are
 * respawned in place of the dead. A second failure is simultaneous with the first or later in the run; a death
 * during recovery or during agreement needs an earlier death to recover from. A pause lasts 20-50 % of
 * the heartbeat timeout. One trial in four commits its checkpoints with another lag than the default
 * ({@link #commitLag}), drawn apart from the rest so that the other draws of a seed stay what they were; so is
 * a death at the end of the run, once the final states are handed over ({@link #endOfRunDeaths}, one trial in
 * {@value #END_OF_RUN_ONE_IN}), of a rank other than rank 0 (the root, which holds the final states).
 */
public final class TrialDraw {

    /** Shortest pause, as a share of the heartbeat timeout. */
    public static final double MIN_PAUSE_SHARE = 0.2;
    /** Longest pause, as a share of the heartbeat timeout. */
    public static final double MAX_PAUSE_SHARE = 0.5;

    private final List<RunConfig> bases;
    private final List<FaultKind> kinds;
    private final int maxFailures;
    private final boolean spares;
    private final Mode mode;
    /** One trial in this many adds a death at the end of the run ({@link #endOfRunVictim}), when enabled. */
    static final int END_OF_RUN_ONE_IN = 4;

    private long heartbeatTimeoutMillis = ClusterSettings.DEFAULT_MAX_NO_HEARTBEAT_MILLIS;
    private boolean capping;
    private boolean endOfRunDeaths;

    /**
     * @param bases the runs to vary (kernel, sizes, iterations, checkpoint interval)
     * @param kinds the failure kinds to draw from
     * @param maxFailures 1 to 3
     * @param spares whether trials may have a spare rank
     * @param mode embedded or processes
     */
    public TrialDraw(List<RunConfig> bases, List<FaultKind> kinds, int maxFailures, boolean spares, Mode mode) {
        if (bases.isEmpty() || kinds.isEmpty()) {
            throw new IllegalArgumentException("a campaign needs at least one run and one failure kind");
        }
        if (maxFailures < 1 || maxFailures > 3) {
            throw new IllegalArgumentException("--max-failures must be 1..3, got " + maxFailures);
        }
        this.bases = List.copyOf(bases);
        this.kinds = List.copyOf(kinds);
        this.maxFailures = maxFailures;
        this.spares = spares;
        this.mode = mode;
    }

    /** The heartbeat timeout of the trials' clusters, which pauses must stay below (default 10 s). */
    public TrialDraw heartbeatTimeoutMillis(long millis) {
        if (millis < 1000) {
            throw new IllegalArgumentException("--heartbeat-timeout-millis must be >= 1000, got " + millis);
        }
        this.heartbeatTimeoutMillis = millis;
        return this;
    }

    /** Whether some trials cap idle hosts on a fake sysfs tree (default no). */
    public TrialDraw capping(boolean value) {
        this.capping = value;
        return this;
    }

    /**
     * Whether some trials also kill a rank at the end of the run ({@link FaultKind#AT_RUN_END}; default no): one
     * trial in {@value #END_OF_RUN_ONE_IN}, drawn apart from the rest, so that the other draws of a seed stay what
     * they were.
     */
    public TrialDraw endOfRunDeaths(boolean value) {
        this.endOfRunDeaths = value;
        return this;
    }

    /** The first {@code count} trials of {@code seed}. */
    public List<TrialPlan> draw(long seed, int count) {
        Random random = new Random(seed);
        List<TrialPlan> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(next(i, random, seed));
        }
        return out;
    }

    private TrialPlan next(int index, Random random, long seed) {
        RunConfig base = bases.size() == 1 ? bases.get(0) : bases.get(random.nextInt(bases.size()));
        Strategy strategy = random.nextBoolean() ? Strategy.DFR : Strategy.GLOBAL;
        int spareCount = spares && random.nextInt(3) == 0 ? 1 : 0;
        boolean capped = capping && random.nextInt(4) == 0;
        RunSpec spec = base.withSpares(spareCount).runSpec();
        int n = base.iterations();
        int k = base.checkpointEvery();
        int active = spec.partitionCount();
        int failures = 1 + random.nextInt(maxFailures);
        Set<Integer> dead = new HashSet<>();
        Set<Integer> paused = new HashSet<>();
        List<FaultPlan.Kill> kills = new ArrayList<>();
        List<FaultPlan.Kill> hosts = new ArrayList<>();
        Set<Integer> duringRecovery = new TreeSet<>();
        List<FaultKind> drawn = new ArrayList<>();
        int firstIteration = 1 + random.nextInt(n);
        // the earliest iteration a death is planned at (the first recovery a death during agreement joins)
        int earliestDeath = Integer.MAX_VALUE;
        for (int f = 0; f < failures; f++) {
            FaultKind kind = kinds.get(random.nextInt(kinds.size()));
            int iteration = f == 0 || random.nextBoolean() ? firstIteration
                    : firstIteration + random.nextInt(n - firstIteration + 1);
            switch (kind) {
                case DURING_RECOVERY, DURING_AGREEMENT -> {
                    if (earliestDeath == Integer.MAX_VALUE) {
                        kind = FaultKind.ITERATION_START;
                    }
                }
                case AFTER_CHECKPOINT_WRITE -> {
                    // a checkpoint iteration before the run's last, checkpoint 0 (before the first iteration, none
                    // committed yet) included; a plain death when checkpoint 0 is the only one
                    int checkpoints = (n - 1) / k;
                    if (checkpoints == 0) {
                        kind = FaultKind.ITERATION_START;
                    } else {
                        iteration = k * random.nextInt(checkpoints + 1);
                    }
                }
                case HOST -> {
                    if (spec.hostCount() < 2 || f > 0) {
                        kind = FaultKind.ITERATION_START;
                    }
                }
                default -> {
                }
            }
            switch (kind) {
                case HOST -> {
                    // a host with an active rank
                    int host = random.nextInt(spec.hostOf(active - 1) + 1);
                    hosts.add(new FaultPlan.Kill(host, iteration, FaultPlan.Point.ITERATION_START));
                    for (int r = 0; r < active; r++) {
                        if (spec.hostOf(r) == host) {
                            dead.add(r);
                        }
                    }
                }
                case COORDINATOR, REDUCTION_ROOT -> {
                    if (!paused.contains(0) && dead.add(0)) {
                        kills.add(new FaultPlan.Kill(0, iteration, kind == FaultKind.COORDINATOR
                                ? FaultPlan.Point.ITERATION_START : FaultPlan.Point.DURING_REDUCTION));
                    } else {
                        continue;
                    }
                }
                case PAUSE -> {
                    // an active rank (a spare runs no iteration to pause at), alive and not paused yet
                    int victim = random.nextInt(active);
                    long millis = Math.round(heartbeatTimeoutMillis
                            * (MIN_PAUSE_SHARE + (MAX_PAUSE_SHARE - MIN_PAUSE_SHARE) * random.nextDouble()));
                    if (dead.contains(victim) || !paused.add(victim)) {
                        continue;
                    }
                    kills.add(FaultPlan.Kill.pause(victim, iteration, millis));
                }
                case DURING_AGREEMENT -> {
                    // the coordinator in about a third of the trials, else any active rank
                    int victim = random.nextInt(3) == 0 ? 0 : random.nextInt(active);
                    if (paused.contains(victim) || !dead.add(victim)) {
                        continue;
                    }
                    kills.add(new FaultPlan.Kill(victim, earliestDeath, FaultPlan.Point.DURING_AGREEMENT));
                }
                case DURING_HALO_EXCHANGE -> {
                    // a spare exchanges no halos
                    int victim = random.nextInt(active);
                    if (paused.contains(victim) || !dead.add(victim)) {
                        continue;
                    }
                    kills.add(new FaultPlan.Kill(victim, iteration, FaultPlan.Point.DURING_HALO_EXCHANGE));
                }
                default -> {
                    // deaths at an iteration among the ranks that own partitions at the start (an idle spare's death
                    // reaches it through the control board, which RunCommandTest covers; a host kill's too)
                    int victim = random.nextInt(kind == FaultKind.DURING_RECOVERY ? spec.memberCount() : active);
                    if (paused.contains(victim) || !dead.add(victim)) {
                        continue;
                    }
                    switch (kind) {
                        case DURING_RECOVERY -> duringRecovery.add(victim);
                        case DURING_REDUCTION -> kills.add(new FaultPlan.Kill(victim, iteration,
                                FaultPlan.Point.DURING_REDUCTION));
                        case AFTER_CHECKPOINT_WRITE -> kills.add(new FaultPlan.Kill(victim, iteration,
                                FaultPlan.Point.AFTER_CHECKPOINT_WRITE));
                        default -> kills.add(new FaultPlan.Kill(victim, iteration, FaultPlan.Point.ITERATION_START));
                    }
                }
            }
            if (kind != FaultKind.PAUSE && kind != FaultKind.DURING_RECOVERY && kind != FaultKind.DURING_AGREEMENT) {
                // a death writing checkpoint 0 is recovered before iteration 1: its agreement is the first's
                earliestDeath = Math.min(earliestDeath, Math.max(1, iteration));
            }
            drawn.add(kind);
        }
        if (dead.size() >= spec.memberCount()) {
            // a plan that kills every member leaves nobody to recover: draw this trial again
            return next(index, random, seed);
        }
        // drawn last, and only where there is a choice: the draws of embedded campaigns stay what they were
        Replacement replacement = spareCount > 0 ? Replacement.SPARE
                : mode == Mode.PROCESSES && random.nextBoolean() ? Replacement.RESPAWN : Replacement.ADOPT;
        Integer atEnd = endOfRunDeaths ? endOfRunVictim(seed, index, active) : null;
        // never the root (rank 0 while it lives): the final states are with it; and somebody must stay. With
        // respawn, the launcher starts a fresh rank into a cluster that is ending: it must find the run over and
        // leave by itself (RecoveryView#isLeftAlone, session 25)
        if (atEnd != null && !dead.contains(0) && !dead.contains(atEnd) && !paused.contains(atEnd)
                && dead.size() + 1 < spec.memberCount()) {
            kills.add(new FaultPlan.Kill(atEnd, n, FaultPlan.Point.AFTER_END_NOTICES));
            drawn.add(FaultKind.AT_RUN_END);
        }
        RunConfig config = base.withSpares(spareCount).withStrategy(strategy).withMode(mode)
                .withFaults(kills, hosts, duringRecovery);
        if (capped) {
            // the fake sysfs tree and the journals are made per trial by the runner
            config = config.withCapping(true, null, null);
        }
        return new TrialPlan(index, config.withCommitLagIterations(commitLag(seed, index, k)), drawn, replacement);
    }

    /**
     * The rank other than rank 0 that trial {@code index} of {@code seed} kills at the end of its run, in one trial
     * in {@value #END_OF_RUN_ONE_IN}; null in the others, and with fewer than two active ranks. Drawn from the seed
     * and the index alone, as {@link #commitLag} is.
     */
    static Integer endOfRunVictim(long seed, int index, int active) {
        SplittableRandom random = new SplittableRandom(seed * 0xD1B54A32D192ED03L + index);
        if (active < 2 || random.nextInt(END_OF_RUN_ONE_IN) != 0) {
            return null;
        }
        return 1 + random.nextInt(active - 1);
    }

    /**
     * The commit lag of trial {@code index} of {@code seed} with checkpoints every {@code k} iterations: null
     * (the default) in three trials of four, else one of the other lags {@code 0..k-1}. Drawn from the seed and
     * the index alone, so that adding it left every other draw of a seed as it was.
     */
    static Integer commitLag(long seed, int index, int k) {
        // SplittableRandom mixes its seed: java.util.Random's first draws of consecutive seeds barely differ
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index);
        int usual = Checkpointing.lagFor(k);
        if (k < 2 || random.nextInt(4) != 0) {
            return null;
        }
        int lag = random.nextInt(k - 1);
        return lag >= usual ? lag + 1 : lag;
    }
}
