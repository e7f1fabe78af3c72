package org.dfr.harness.campaign;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.dfr.harness.RunReport;
import org.dfr.power.AtomicFiles;

/**
 * A campaign's files: every trial as JSON ({@code --report FILE.json}) and one CSV row per trial next to
 * it ({@code FILE.csv}), each written atomically.
 */
public final class CampaignFiles {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private CampaignFiles() {
    }

    /** The JSON document: the campaign's seed and command, its counts and every trial. */
    public record CampaignReport(long seed, String command, String mode, long trials, long ok, long unrecoverable,
                                 long wrong, long error, long hung, long leftover, boolean stoppedEarly, String stopReason,
                                 List<Trial> results) {
    }

    /**
     * One trial as written.
     *
     * @param failures its faults only ({@link TrialPlan#faults}), e.g. {@code 4@8/after_checkpoint_write host1@6}
     * @param capped   whether idle hosts were capped
     * @param commitLagIterations the commit lag in force (drawn, or the run's default)
     * @param recoveries the run report's recoveries, as docs/report.md describes them (empty without a report)
     */
    public record Trial(int index, String kernel, String strategy, int spares, String replacement, boolean capped,
                        Integer commitLagIterations, String failures, List<String> kinds,
                        String outcome, long millis, long recomputedPartitionIterations, String detail,
                        List<String> violations, String replay, List<String> ports,
                        List<RunReport.Recovery> recoveries) {
    }

    /** A CSV row, its columns in this order (Jackson would sort them by name). */
    @JsonPropertyOrder({"index", "outcome", "kernel", "strategy", "spares", "replacement", "capped",
            "commitLagIterations", "failures", "millis", "recomputedPartitionIterations", "ports", "problems", "replay"})
    public record Row(int index, String outcome, String kernel, String strategy, int spares, String replacement,
                      boolean capped, Integer commitLagIterations, String failures,
                      long millis, long recomputedPartitionIterations, int ports, String problems, String replay) {
    }

    /** Writes {@code file} (JSON) and {@code file} with extension {@code .csv}. */
    public static void write(Path file, long seed, String command, String mode, CampaignRunner.Result result) {
        List<Trial> trials = result.trials().stream().map(t -> new Trial(t.plan().index(),
                t.plan().config().kernel().name(), t.plan().config().strategy().label(), t.plan().config().spares(),
                t.plan().replacement().optionValue(), t.plan().config().capIdleHosts(),
                // the lag in force, not only a drawn one: the default's cell was empty while a drawn 0 read "0"
                t.plan().config().runSpec().commitLagFor(t.plan().config().checkpointEvery()), t.plan().faults(), t.plan().kinds().stream().map(Enum::name).toList(), t.outcome().name(), t.millis(),
                t.recomputedPartitionIterations(), t.detail(), t.violations(), t.replay(), t.ports(), t.recoveries()))
                .toList();
        CampaignReport report = new CampaignReport(seed, command, mode, trials.size(), result.count(Outcome.OK),
                result.count(Outcome.UNRECOVERABLE), result.count(Outcome.WRONG), result.count(Outcome.ERROR),
                result.count(Outcome.HUNG), result.count(Outcome.LEFTOVER), result.stoppedEarly(), result.stopReason(),
                trials);
        List<Row> rows = trials.stream().map(t -> new Row(t.index(), t.outcome(), t.kernel(), t.strategy(), t.spares(),
                t.replacement(), t.capped(), t.commitLagIterations(), t.failures(), t.millis(), t.recomputedPartitionIterations(), t.ports().size(),
                String.join("; ", concat(t.detail(), t.violations())), t.replay())).toList();
        // quotes only what needs it (by default every string of more than 24 characters, headers too)
        CsvMapper csv = CsvMapper.builder().enable(CsvGenerator.Feature.STRICT_CHECK_FOR_QUOTING).build();
        CsvSchema schema = csv.schemaFor(Row.class).withHeader();
        atomically(file, p -> JSON.writeValue(p.toFile(), report));
        atomically(csvOf(file), p -> csv.writer(schema).writeValue(p.toFile(), rows));
    }

    /** {@code FILE.json} becomes {@code FILE.csv}; another name gets {@code .csv} appended. */
    public static Path csvOf(Path file) {
        String name = file.getFileName().toString();
        String base = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return file.resolveSibling(base + ".csv");
    }

    private static List<String> concat(String detail, List<String> violations) {
        List<String> all = new ArrayList<>();
        if (detail != null && !detail.isEmpty()) {
            all.add(detail);
        }
        all.addAll(violations);
        return all;
    }

    private static void atomically(Path file, AtomicFiles.Content writer) {
        try {
            AtomicFiles.write(file, writer);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
