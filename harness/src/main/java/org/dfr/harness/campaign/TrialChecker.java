package org.dfr.harness.campaign;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.dfr.analysis.ConeAnalyzer;
import org.dfr.analysis.RecoveryPlan;
import org.dfr.harness.Replacement;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.recovery.FaultPlan;
import org.dfr.recovery.Strategy;
import org.dfr.runtime.ClusterSettings;

/**
 * Checks one finished trial's report beyond its digest: the report is well-formed and every recovery
 * did exactly what the analyzer plans for the failure it agreed on. Pure: it reads the report and the
 * configuration, nothing else.
 *
 * <p>Per recovery: {@code 0 <= c < t <= iterations}, {@code m = t-1-c}, detection and the other times
 * not negative, the lost partitions among the partitions; with effective strategy {@code dfr}, the
 * levels are the cone of the lost partitions ({@link ConeAnalyzer#plan}) and the work its size; with
 * {@code global}, the work is {@code partitions * m}. Per failure record: a real iteration and real
 * ranks. Only planned victims appear dead in failures and recoveries, and a trial that killed nobody
 * (only paused ranks) has no recovery at all; a rank that died at the end of the run
 * ({@link FaultPlan.Point#AFTER_END_NOTICES}) is never the only dead of a recovery. Every adoption names a lost
 * partition and a rank that
 * lives: with {@link Replacement#RESPAWN}, the fresh rank started in place of the partition's dead owner
 * (id {@code partition + members}, since every partition stays with its first rank until that rank dies
 * and respawned ranks are never killed by the plan), or a survivor once the agreement lasted the whole respawn wait
 * ({@link ClusterSettings#DEFAULT_RESPAWN_WAIT_MILLIS}: the coordinator waits for a fresh rank only so long);
 * otherwise a member of the run.
 */
public final class TrialChecker {

    /** Where a planned death happens whenever the run reaches its iteration (not only in a recovery or at the end). */
    private static final Set<FaultPlan.Point> AT_AN_ITERATION = Set.of(FaultPlan.Point.ITERATION_START,
            FaultPlan.Point.DURING_HALO_EXCHANGE, FaultPlan.Point.DURING_REDUCTION,
            FaultPlan.Point.AFTER_CHECKPOINT_WRITE);

    private TrialChecker() {
    }

    /**
     * What is wrong with {@code report} as the result of {@code config} with the replacement a run gets by
     * default ({@link Replacement#defaultFor}); empty when nothing is.
     */
    public static List<String> violations(RunConfig config, RunReport report, ConeAnalyzer analyzer) {
        return violations(config, Replacement.defaultFor(config.spares()), report, analyzer);
    }

    /** What is wrong with {@code report} as the result of {@code config} run with {@code replacement}. */
    public static List<String> violations(RunConfig config, Replacement replacement, RunReport report,
                                          ConeAnalyzer analyzer) {
        List<String> out = new ArrayList<>();
        int partitions = config.partitionCount();
        int members = config.runSpec().memberCount();
        if (report.iterationsRun() < 1 || report.iterationsRun() > config.iterations()) {
            out.add("iterationsRun " + report.iterationsRun() + " outside 1.." + config.iterations());
        }
        // only planned victims die: a paused rank (or any other) reported dead was falsely suspected
        Set<Integer> victims = config.faultPlan().ranks();
        if (victims.isEmpty() && !report.recoveries().isEmpty()) {
            out.add(report.recoveries().size() + " recoveries although no rank was killed"
                    + pausesOf(config));
        }
        for (RunReport.Failure f : report.failures()) {
            if (!victims.containsAll(f.ranks())) {
                out.add("failure of ranks " + f.ranks() + " at iteration " + f.iteration() + " but only ranks "
                        + victims + " were killed" + pausesOf(config));
            }
        }
        for (RunReport.Recovery r : report.recoveries()) {
            if (r.deadRanks() != null && !victims.containsAll(r.deadRanks())) {
                out.add("recovery " + r.epoch() + " lost ranks " + r.deadRanks() + " but only ranks " + victims
                        + " were killed" + pausesOf(config));
            }
        }
        // every death planned at an iteration the run reached happened: a kill that silently never fired (one asked
        // of an idle spare did) would pass for a recovered failure
        // a death the plan did not place (UNPLANNED) is no planned death happening: a victim that died at another
        // moment, its own kill never fired, must not pass
        Set<Integer> died = new TreeSet<>();
        for (RunReport.Failure f : report.failures()) {
            if (RunReport.Failure.UNPLANNED.equals(f.point())) {
                out.add("ranks " + f.ranks() + " died outside the fault plan (found by recovery at iteration "
                        + f.iteration() + ")");
            } else {
                died.addAll(f.ranks());
            }
        }
        for (FaultPlan.Kill k : config.faultPlan().kills()) {
            if (AT_AN_ITERATION.contains(k.point()) && k.iteration() <= report.iterationsRun()
                    && !died.contains(k.rank())) {
                out.add("rank " + k.rank() + " was to die at iteration " + k.iteration() + " (" + k.point()
                        + ") but the report has no such failure");
            }
        }
        // a death at the end of the run, once the final states are handed over, costs nothing by itself; it is
        // among the dead of a recovery that another death needs (one in the last iteration's reduction, found
        // when the root gathers the final states), never the only one
        Set<Integer> atEnd = config.kills().stream().filter(k -> k.point() == FaultPlan.Point.AFTER_END_NOTICES)
                .map(FaultPlan.Kill::rank).collect(Collectors.toCollection(TreeSet::new));
        if (!atEnd.isEmpty()) {
            for (RunReport.Recovery r : report.recoveries()) {
                if (r.deadRanks() != null && !r.deadRanks().isEmpty() && atEnd.containsAll(r.deadRanks())) {
                    out.add("recovery " + r.epoch() + " lost only ranks " + r.deadRanks() + ", and ranks " + atEnd
                            + " died after the run ended");
                }
            }
        }
        for (RunReport.Failure f : report.failures()) {
            // 0 only for a death writing checkpoint 0, before the first iteration
            int first = FaultPlan.Point.AFTER_CHECKPOINT_WRITE.name().equals(f.point()) ? 0 : 1;
            if (f.iteration() < first || f.iteration() > config.iterations()) {
                out.add("failure of ranks " + f.ranks() + " at iteration " + f.iteration() + " (" + f.point()
                        + "), outside " + first + ".." + config.iterations());
            }
            if (f.ranks().isEmpty() || f.ranks().stream().anyMatch(r -> r < 0 || r >= members)) {
                out.add("failure names ranks " + f.ranks() + "; ranks are 0.." + (members - 1));
            }
            if (f.detectionMillis() != null && f.detectionMillis() < 0) {
                out.add("failure at iteration " + f.iteration() + " has detection " + f.detectionMillis() + " ms");
            }
        }
        for (RunReport.Recovery r : report.recoveries()) {
            String where = "recovery " + r.epoch();
            int c = r.checkpointIteration();
            int t = r.failureIteration();
            if (c < 0 || t <= c || t > config.iterations() + 1) {
                out.add(where + ": checkpoint " + c + " and failure iteration " + t + " are not 0 <= c < t <= "
                        + (config.iterations() + 1));
                continue;
            }
            if (!config.autoCheckpointInterval() && c % config.checkpointEvery() != 0) {
                out.add(where + ": checkpoint " + c + " is not a checkpoint iteration (every "
                        + config.checkpointEvery() + ")");
            }
            if (r.lostIterations() != t - 1 - c) {
                out.add(where + ": m = " + r.lostIterations() + " but t-1-c = " + (t - 1 - c));
            }
            if (r.lostPartitions().isEmpty() || r.lostPartitions().stream().anyMatch(p -> p < 0 || p >= partitions)) {
                out.add(where + ": lost partitions " + r.lostPartitions() + " not among 0.." + (partitions - 1));
                continue;
            }
            for (Long millis : Arrays.asList(r.detectionMillis(), r.agreementMillis(), r.replacementMillis(),
                    r.recomputeMillis(), r.wallMillis())) {
                if (millis != null && millis < 0) {
                    out.add(where + ": a negative time (" + millis + " ms)");
                }
            }
            out.addAll(adoptionProblems(where, r, config, replacement));
            if (r.fellBack()) {
                // every copy of a lost partition died: that takes two deaths (a rank's or a host's) at least
                Set<Integer> deadByThen = new TreeSet<>();
                report.recoveries().stream().filter(e -> e.epoch() <= r.epoch() && e.deadRanks() != null)
                        .forEach(e -> deadByThen.addAll(e.deadRanks()));
                if (CampaignRunner.deathsAmong(config, deadByThen) < 2) {
                    out.add(where + ": restored from " + r.restoredFrom() + " after the single death of ranks "
                            + deadByThen + ": one death never takes every copy of a checkpoint");
                }
            }
            RecoveryPlan plan = analyzer.plan(r.lostPartitions().stream().mapToInt(Integer::intValue).toArray(), c, t);
            boolean global = "global".equals(String.valueOf(r.effectiveStrategy()).toLowerCase(Locale.ROOT));
            long expected = global ? (long) partitions * r.lostIterations() : plan.recomputedPartitionIterations();
            if (r.recomputedPartitionIterations() != expected) {
                out.add(where + ": recomputed " + r.recomputedPartitionIterations() + " partition-iterations, the "
                        + (global ? "global rollback" : "cone") + " needs " + expected);
            }
            if (!global) {
                List<List<Integer>> levels = plan.levels().stream().map(l -> Arrays.stream(l).boxed().toList()).toList();
                if (!levels.equals(r.levels())) {
                    out.add(where + ": levels " + r.levels() + " are not the cone " + levels);
                }
            }
            if (global != (config.strategy() == Strategy.GLOBAL || plan.isGlobalRollback())) {
                out.add(where + ": effective strategy " + r.effectiveStrategy() + " for strategy "
                        + config.strategy().label() + (plan.isGlobalRollback() ? " with a cone covering everything" : ""));
            }
        }
        return out;
    }

    /** What is wrong with the adoptions ({@code partition:rank}) of recovery {@code r}. */
    private static List<String> adoptionProblems(String where, RunReport.Recovery r, RunConfig config,
                                                 Replacement replacement) {
        List<String> out = new ArrayList<>();
        int members = config.runSpec().memberCount();
        List<Integer> dead = r.deadRanks() == null ? List.of() : r.deadRanks();
        for (String a : r.adoptions() == null ? List.<String>of() : r.adoptions()) {
            int colon = a.indexOf(':');
            int partition;
            int rank;
            try {
                partition = Integer.parseInt(a.substring(0, colon));
                rank = Integer.parseInt(a.substring(colon + 1));
            } catch (RuntimeException e) {
                out.add(where + ": adoption '" + a + "' is not partition:rank");
                continue;
            }
            if (!r.lostPartitions().contains(partition)) {
                out.add(where + ": adoption " + a + " of a partition not among the lost " + r.lostPartitions());
            }
            if (dead.contains(rank)) {
                out.add(where + ": adoption " + a + " by rank " + rank + ", which is among the dead " + dead);
            }
            if (replacement == Replacement.RESPAWN) {
                int fresh = config.runSpec().respawnedRank(partition);
                // the coordinator waits for a fresh rank only so long, then survivors adopt (campaign seed 138, trial
                // 11: rank 12's JVM did not join in 30 s at load 20): a survivor may adopt once the agreement lasted
                // the whole wait
                boolean waitedOut = r.agreementMillis() != null
                        && r.agreementMillis() >= ClusterSettings.DEFAULT_RESPAWN_WAIT_MILLIS;
                if (rank != fresh && (!waitedOut || rank < 0 || rank >= members)) {
                    out.add(where + ": adoption " + a + " but with respawn rank " + fresh + " (started in place of rank "
                            + partition + ") adopts partition " + partition);
                }
            } else if (rank < 0 || rank >= members) {
                out.add(where + ": adoption " + a + " by rank " + rank + "; with " + replacement.optionValue()
                        + " the adopters are ranks 0.." + (members - 1));
            }
        }
        return out;
    }

    /** ", ranks [..] were only paused", or nothing when nobody was. */
    private static String pausesOf(RunConfig config) {
        List<Integer> paused = config.kills().stream().filter(k -> !k.point().isDeath())
                .map(FaultPlan.Kill::rank).sorted().toList();
        return paused.isEmpty() ? "" : " (ranks " + paused + " were only paused)";
    }
}
