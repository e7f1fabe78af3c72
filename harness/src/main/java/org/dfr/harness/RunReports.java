package org.dfr.harness;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.dfr.power.AtomicFiles;
import org.dfr.recovery.Adoption;
import org.dfr.recovery.FailureRecord;
import org.dfr.recovery.RecoveryRecord;
import org.dfr.recovery.Strategy;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.CheckpointIntervalDecision;
import org.dfr.runtime.RankStats;
import org.dfr.runtime.RunOutcome;
import org.dfr.runtime.kernel.KernelSetup;

/** Builds, writes and reads {@link RunReport}s. */
public final class RunReports {

    public static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private RunReports() {
    }

    /** The report of a finished run whose cluster had {@code settings} (the checkpoint copies' count and path). */
    public static RunReport of(RunConfig config, ClusterSettings settings, KernelSetup setup, RunOutcome outcome,
                               Map<String, Object> energy) {
        String digest = setup.digest(p -> {
            double[] state = outcome.finalStates().get(p);
            if (state == null) {
                throw new IllegalArgumentException("no final state for partition " + p);
            }
            return state;
        });
        long loopMicros = outcome.rankStats().stream().mapToLong(RankStats::loopMicros).max().orElse(0);
        // throughput over the iteration loop: cluster start-up and result collection excluded
        double seconds = loopMicros > 0 ? loopMicros / 1e6 : Math.max(outcome.wallMillis(), 1) / 1000.0;
        long checkpointMicros = outcome.rankStats().stream().mapToLong(RankStats::checkpointMicros).max().orElse(0);
        int checkpoints = outcome.rankStats().stream().mapToInt(RankStats::checkpoints).max().orElse(0);
        long cells = setup.cellCount();
        int iterationsRun = outcome.iterationsRun();
        List<RunReport.Recovery> recoveries = new ArrayList<>();
        List<KillDetections.Detected> detected = new ArrayList<>();
        List<FailureRecord> failureRecords = outcome.failureRecords().stream().map(FailureRecord::fromJson).toList();
        for (String json : outcome.recoveryRecords()) {
            RecoveryRecord r = RecoveryRecord.fromJson(json);
            Long detectedAt = r.detectedAtMillis();
            Long decidedAt = r.decidedAtMillis();
            Long resumedAt = r.resumedAtMillis();
            Long detection = null;
            if (detectedAt != null) {
                KillDetections.Detected d = new KillDetections.Detected(r.deadRanks(), detectedAt);
                detected.add(d);
                detection = KillDetections.ofRecovery(failureRecords, d);
            }
            recoveries.add(new RunReport.Recovery(r.epoch(), label(r.strategy()), label(r.effectiveStrategy()),
                    r.deadRanks(), r.lostPartitions(), r.checkpointIteration(), r.failureIteration(),
                    r.lostIterations(), r.levels(), r.recomputedPartitionIterations(), r.participatingRanks(),
                    r.idleRanks(), r.adoptions().stream().map(Adoption::text).toList(), r.coversEverything(),
                    detection, r.detectedBy() == null ? null : r.detectedBy().label(),
                    detectedAt != null && decidedAt != null ? decidedAt - detectedAt : null,
                    r.replacementMillis(), r.recomputeMillis(),
                    detectedAt != null && resumedAt != null ? resumedAt - detectedAt : null, r.restoredFrom().label()));
        }
        Map<String, RunReport.Failure> failures = new TreeMap<>();
        // the deaths in the order they happened (a death during a recovery after the one that caused it; by name
        // DURING_RECOVERY sorted before ITERATION_START); ties, and kills without a time, by iteration and point
        Map<String, Long> firstKilledAt = new TreeMap<>();
        for (FailureRecord f : failureRecords) {
            int iteration = f.iteration();
            String point = f.point();
            String key = String.format("%08d/%s", Math.max(iteration, 0), point);
            firstKilledAt.merge(key, f.killedAtMillis() > 0 ? f.killedAtMillis() : Long.MAX_VALUE, Math::min);
            RunReport.Failure old = failures.get(key);
            List<Integer> ranks = new ArrayList<>(old == null ? List.of() : old.ranks());
            ranks.add(f.rank());
            ranks.sort(null);
            // ranks killed together: the smallest of their detections, from the last of them to die, as a
            // recovery's own detection counts from the latest kill before it
            Long detection = iteration > 0 ? KillDetections.ofKill(f, detected) : null;
            if (old != null && old.detectionMillis() != null && (detection == null || old.detectionMillis() < detection)) {
                detection = old.detectionMillis();
            }
            failures.put(key, new RunReport.Failure(ranks, iteration, point, detection));
        }
        // a rank that died outside the fault plan (a SIGKILL by hand, the kernel's OOM killer): its recovery names
        // it, and the failures did not ("failures: []" after a recovered death); at the recovery's t, where the
        // survivors were when they learnt of it, with no kill time to measure a detection from
        Set<Integer> accounted = new TreeSet<>();
        failureRecords.forEach(f -> accounted.add(f.rank()));
        for (RunReport.Recovery r : recoveries) {
            List<Integer> unplanned = r.deadRanks() == null ? List.of()
                    : r.deadRanks().stream().filter(rank -> !accounted.contains(rank)).sorted().toList();
            if (unplanned.isEmpty()) {
                continue;
            }
            accounted.addAll(unplanned);
            String key = String.format("%08d/%s", Math.max(r.failureIteration(), 0), RunReport.Failure.UNPLANNED);
            firstKilledAt.merge(key, Long.MAX_VALUE, Math::min);
            RunReport.Failure old = failures.get(key);
            List<Integer> ranks = new ArrayList<>(old == null ? List.of() : old.ranks());
            ranks.addAll(unplanned);
            ranks.sort(null);
            failures.put(key, new RunReport.Failure(ranks, r.failureIteration(), RunReport.Failure.UNPLANNED, null));
        }
        List<RunReport.RankActivity> ranks = new ArrayList<>();
        for (RankStats s : outcome.rankStats()) {
            ranks.add(new RunReport.RankActivity(s.rank(), s.kernelUpdates(), s.kernelUpdatesDuringRecovery(),
                    s.droppedStaleMessages(), s.sharedMemoryCopies(), s.lentCopies()));
        }
        Map<String, String> options = config.resolvedKernelOptions();
        int interval = checkpointEvery(config, outcome);
        return new RunReport(config.kernel().name(), options, config.strategy().label(), config.ranksGrid(),
                config.cells(), config.iterations(), config.tolerance() > 0 ? config.tolerance() : null, iterationsRun,
                outcome.converged() ? RunReport.StopReason.TOLERANCE : RunReport.StopReason.ITERATIONS,
                interval,
                config.mode().name().toLowerCase(Locale.ROOT), config.ranksPerHost(), config.spares(),
                digest, outcome.finalResidual(), outcome.wallMillis(), Math.round(seconds * 1000),
                checkpoints, checkpoints == 0 ? 0 : checkpointMicros / 1000.0 / checkpoints,
                iterationsRun / seconds, cells * iterationsRun / seconds,
                failures.keySet().stream().sorted(Comparator.comparing((String key) -> firstKilledAt.get(key))
                        .thenComparing(key -> key)).map(failures::get).toList(),
                recoveries, ranks, energy, Provenance.current(), null,
                checkpointInterval(config, outcome), config.runSpec().commitLagFor(interval), settings.checkpointBackups(),
                settings.checkpointReplication().optionValue());
    }

    /** The interval the run used: the configured one, or the one it chose ({@code auto}; the iterations when it ended before choosing: no checkpoint after the first). */
    private static int checkpointEvery(RunConfig config, RunOutcome outcome) {
        if (!config.autoCheckpointInterval()) {
            return config.checkpointEvery();
        }
        return outcome.checkpointInterval() == null ? config.iterations() : outcome.checkpointInterval().interval();
    }

    private static RunReport.CheckpointInterval checkpointInterval(RunConfig config, RunOutcome outcome) {
        if (!config.autoCheckpointInterval()) {
            return null;
        }
        CheckpointIntervalDecision d = outcome.checkpointInterval();
        if (d == null) {
            return new RunReport.CheckpointInterval(config.mtbfSeconds(), null, null, null, null, null, null, null, null);
        }
        return new RunReport.CheckpointInterval(d.mtbfSeconds(), d.checkpointMillis(), d.copyMillis(),
                d.replicationMillis(), d.iterationMillis(), d.youngIterations(), d.interval(), d.decidedAtIteration(),
                d.rank());
    }

    /** The report's name of a strategy; empty when the recovery could not decide one. */
    private static String label(Strategy strategy) {
        return strategy == null ? "" : strategy.label();
    }

    /** Writes a report atomically: a reader never sees half a file. */
    public static void write(RunReport report, Path file) {
        try {
            AtomicFiles.write(file, tmp -> JSON.writeValue(tmp.toFile(), report));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write report " + file + ": " + e.getMessage(), e);
        }
    }

    public static RunReport read(Path file) {
        try {
            return JSON.readValue(file.toFile(), RunReport.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read report " + file + ": " + e.getMessage(), e);
        }
    }
}
