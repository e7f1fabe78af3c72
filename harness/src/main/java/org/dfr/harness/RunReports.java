package org.dfr.harness;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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

    /** The report of a finished run. */
    public static RunReport of(RunConfig config, KernelSetup setup, RunOutcome outcome, Map<String, Object> energy) {
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
        Map<Integer, Long> detectionByIteration = new TreeMap<>();
        for (String json : outcome.recoveryRecords()) {
            JsonNode r = read(json);
            Long detectedAt = r.hasNonNull("detectedAtMillis") ? r.get("detectedAtMillis").asLong() : null;
            Long decidedAt = r.hasNonNull("decidedAtMillis") ? r.get("decidedAtMillis").asLong() : null;
            Long resumedAt = r.hasNonNull("resumedAtMillis") ? r.get("resumedAtMillis").asLong() : null;
            Long killedAt = killAnsweredBy(outcome, r.get("failureIteration").asInt());
            Long detection = detectedAt != null && killedAt != null ? Math.max(0, detectedAt - killedAt) : null;
            if (detection != null) {
                detectionByIteration.putIfAbsent(r.get("failureIteration").asInt(), detection);
            }
            recoveries.add(new RunReport.Recovery(r.get("epoch").asInt(), r.get("strategy").asText(),
                    r.get("effectiveStrategy").asText(), ints(r.get("deadRanks")), ints(r.get("lostPartitions")),
                    r.get("checkpointIteration").asInt(), r.get("failureIteration").asInt(),
                    r.get("lostIterations").asInt(), levels(r.get("levels")),
                    r.get("recomputedPartitionIterations").asLong(), ints(r.get("participatingRanks")),
                    ints(r.get("idleRanks")), strings(r.get("adoptions")), r.get("coversEverything").asBoolean(),
                    detection, detectedAt != null && decidedAt != null ? decidedAt - detectedAt : null,
                    r.hasNonNull("replacementMillis") ? r.get("replacementMillis").asLong() : null,
                    r.hasNonNull("recomputeMillis") ? r.get("recomputeMillis").asLong() : null,
                    detectedAt != null && resumedAt != null ? resumedAt - detectedAt : null));
        }
        Map<String, RunReport.Failure> failures = new TreeMap<>();
        for (String json : outcome.failureRecords()) {
            JsonNode f = read(json);
            int iteration = f.get("iteration").asInt();
            String point = f.get("point").asText();
            String key = String.format("%08d/%s", Math.max(iteration, 0), point);
            RunReport.Failure old = failures.get(key);
            List<Integer> ranks = new ArrayList<>(old == null ? List.of() : old.ranks());
            ranks.add(f.get("rank").asInt());
            ranks.sort(null);
            failures.put(key, new RunReport.Failure(ranks, iteration, point,
                    iteration > 0 ? detectionByIteration.get(iteration) : null));
        }
        List<RunReport.RankActivity> ranks = new ArrayList<>();
        for (RankStats s : outcome.rankStats()) {
            ranks.add(new RunReport.RankActivity(s.rank(), s.kernelUpdates(), s.kernelUpdatesDuringRecovery(),
                    s.droppedStaleMessages()));
        }
        Map<String, String> options = org.dfr.runtime.kernel.KernelOptions.resolve(config.kernel().name(),
                KernelJars.catalog(config.kernelJars()).get(config.kernel().name()).options(),
                config.kernel().options()).values();
        return new RunReport(config.kernel().name(), options, config.strategy().label(), config.ranksGrid(),
                config.cells(), config.iterations(), config.tolerance() > 0 ? config.tolerance() : null, iterationsRun,
                outcome.converged() ? RunReport.StopReason.TOLERANCE : RunReport.StopReason.ITERATIONS,
                config.checkpointEvery(),
                config.mode().name().toLowerCase(java.util.Locale.ROOT), config.ranksPerHost(), config.spares(),
                digest, outcome.finalResidual(), outcome.wallMillis(), Math.round(seconds * 1000),
                checkpoints, checkpoints == 0 ? 0 : checkpointMicros / 1000.0 / checkpoints,
                iterationsRun / seconds, cells * iterationsRun / seconds,
                new ArrayList<>(failures.values()), recoveries, ranks, energy, Provenance.current());
    }

    /**
     * The death a recovery answers: the latest kill at or before its failure iteration (with several
     * failures in a run, the earlier ones were answered by earlier recoveries).
     */
    private static Long killAnsweredBy(RunOutcome outcome, int failureIteration) {
        Long chosen = null;
        for (String json : outcome.failureRecords()) {
            JsonNode f = read(json);
            long at = f.get("killedAtMillis").asLong();
            if (f.get("iteration").asInt() <= failureIteration && (chosen == null || at > chosen)) {
                chosen = at;
            }
        }
        return chosen;
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Integer> ints(JsonNode array) {
        List<Integer> out = new ArrayList<>();
        if (array != null) {
            array.forEach(n -> out.add(n.asInt()));
        }
        return out;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }

    private static List<List<Integer>> levels(JsonNode array) {
        List<List<Integer>> out = new ArrayList<>();
        if (array != null) {
            array.forEach(level -> out.add(ints(level)));
        }
        return out;
    }

    /** Writes a report atomically: a reader never sees half a file. */
    public static void write(RunReport report, Path file) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
            try {
                JSON.writeValue(tmp.toFile(), report);
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(tmp);
            }
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
