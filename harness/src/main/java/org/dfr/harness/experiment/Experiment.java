package org.dfr.harness.experiment;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import org.dfr.harness.Provenance;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.harness.Runner;
import org.dfr.power.meter.PowerModel;
import org.dfr.power.sysfs.FakeCpufreqTree;
import org.dfr.power.timeline.TimelineCsv;
import org.dfr.power.timeline.TimelineSample;
import org.dfr.runtime.RunFailedException;

/**
 * Runs an {@link ExperimentSpec}: every run of its {@link Schedule}, then writes the output directory
 * ({@code experiment.json}, {@code samples.csv}, {@code runs.csv}, {@code summary.csv}, {@code summary.json},
 * the PNG plots and {@code index.html}; docs/experiments.md describes every column).
 */
public final class Experiment {

    /** Told about each run, for progress. */
    public interface Listener {
        default void starting(Schedule.Entry entry, int total) {
        }

        default void finished(Schedule.Entry entry, RunRow row) {
        }

        default void failed(Schedule.Entry entry, Exception error) {
        }
    }

    /** Runs that fail, with none before them succeeding, after which an experiment stops. */
    static final int FAILURES_BEFORE_GIVING_UP = 3;

    /** A metric of summary.csv: name, unit, value of a row. */
    record Metric(String name, String unit, ToDoubleFunction<RunRow> value) {
    }

    static final List<Metric> METRICS = List.of(
            new Metric("solver_joules", "J", RunRow::solverJoules),
            new Metric("recovery_joules", "J", RunRow::recoveryJoules),
            new Metric("rest_joules", "J", RunRow::restJoules),
            new Metric("startup_joules", "J", RunRow::startUpJoules),
            new Metric("finish_joules", "J", RunRow::finishJoules),
            new Metric("idle_host_watts", "W", RunRow::idleHostWatts),
            new Metric("participating_host_watts", "W", RunRow::participatingHostWatts),
            new Metric("idle_phase_watts", "W", RunRow::idlePhaseWatts),
            new Metric("recovery_wall_ms", "ms", RunRow::recoveryWallMillis),
            new Metric("recomputed_partition_iterations", "partition-iterations", RunRow::recomputed),
            new Metric("capped_seconds", "s", RunRow::cappedSeconds),
            new Metric("wall_ms", "ms", r -> r.wallMillis()),
            new Metric("iteration_seconds", "s", RunRow::iterationSeconds));

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final ExperimentSpec spec;
    private final Path out;
    private Path specFile;
    private Listener listener = new Listener() {
    };

    public Experiment(ExperimentSpec spec, Path out) {
        this.spec = spec;
        this.out = out;
    }

    /** The file the spec was read from, copied into the output. */
    public Experiment specFile(Path file) {
        this.specFile = file;
        return this;
    }

    public Experiment listener(Listener value) {
        this.listener = value;
        return this;
    }

    /**
     * What an experiment produced.
     *
     * @param out       the output directory
     * @param rows      one row per counted run
     * @param summary   the statistics written to summary.json
     * @param failures  the runs that failed, one line each
     * @param notes     what the runs did that their variant does not say (dfr that ran global rollback, capping that
     *                  could cap nothing; {@link RunNotes}), then why a plot was left out; one sentence each
     */
    public record Result(Path out, List<RunRow> rows, Map<String, Object> summary, List<String> failures,
                         List<String> notes) {
    }

    /** Runs the schedule and writes the output directory. */
    public Result run() throws IOException {
        try (Session session = open()) {
            for (Schedule.Entry e : session.schedule()) {
                if (!session.run(e)) {
                    break;
                }
            }
            return session.finish();
        }
    }

    /**
     * Starts the experiment without running it: the output directory with its spec (and fake trees), and the
     * samples file the runs append to. A sweep interleaves the runs of its points' sessions.
     */
    Session open() throws IOException {
        if (spec.sweep() != null) {
            throw new IllegalArgumentException("the experiment sweeps " + spec.sweep().parameter()
                    + ": run it as an ExperimentSweep");
        }
        spec.validate();
        Files.createDirectories(out);
        if (specFile != null) {
            Files.copy(specFile, out.resolve("experiment-input" + extension(specFile)),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        Files.writeString(out.resolve("experiment.json"), spec.toJson() + "\n");
        Path sysfs = spec.sysfsRoot() == null ? null : Path.of(spec.sysfsRoot());
        if (Boolean.TRUE.equals(spec.fakeSysfs())) {
            sysfs = FakeCpufreqTree.create(out.resolve("fake-sysfs"), hostCount(), spec.fakeMinKHz(),
                    spec.fakeMaxKHz());
        }
        return new Session(sysfs);
    }

    /**
     * An experiment under way: its runs one at a time ({@link #run}), in any order and interleaved with other
     * sessions' runs, then its files ({@link #finish}).
     */
    final class Session implements AutoCloseable {
        private final Path sysfs;
        private final PowerModel model = spec.model();
        private final List<Schedule.Entry> schedule = Schedule.of(spec);
        private final List<RunRow> rows = new ArrayList<>();
        private final List<String> failures = new ArrayList<>();
        private final List<RunNotes.Note> runNotes = new ArrayList<>();
        private final Map<Integer, List<TimelineSample>> samplesByRun = new LinkedHashMap<>();
        private final Map<Integer, Map<String, Object>> timelines = new LinkedHashMap<>();
        private Map<String, Object> meter;
        private boolean anySucceeded;
        private int failedInARow;
        // samples.csv appears only when every run is done: an interrupted experiment leaves samples.csv.part
        // (whole runs' lines) and no summary, not a samples.csv that looks complete and ends mid-line
        private final Path partialSamples = out.resolve("samples.csv.part");
        private final BufferedWriter samples;

        private Session(Path sysfs) throws IOException {
            this.sysfs = sysfs;
            this.samples = Files.newBufferedWriter(partialSamples, StandardCharsets.UTF_8);
            samples.write("run,variant,repetition,warmup,loop_seconds," + TimelineCsv.HEADER + "\n");
        }

        /** @return the runs, in the experiment's own order */
        List<Schedule.Entry> schedule() {
            return schedule;
        }

        /**
         * Runs one entry of the schedule and appends its samples.
         *
         * @return false when no later run may follow in this JVM (a rank thread of this one still runs, and would
         *         skew every later run's time and energy)
         */
        boolean run(Schedule.Entry e) throws IOException {
            listener.starting(e, schedule.size());
            // the restore journals go where every dfr command looks for leftovers (~/.dfr): an experiment SIGKILLed
            // while it capped a host is restored by whatever dfr command runs next, as a run is
            RunConfig config = spec.config(e.variant(), sysfs, null);
            List<TimelineSample> got = new ArrayList<>();
            RunReport report;
            try {
                report = new Runner().powerModel(model).sampleSink(got::addAll).run(config);
            } catch (RunFailedException | IllegalStateException ex) {
                failures.add("run " + e.index() + " (" + e.variant() + "): " + ex.getMessage());
                listener.failed(e, ex);
                if (ex instanceof RunFailedException f && f.kind() == RunFailedException.Kind.RANK_STUCK) {
                    failures.add("stopped after run " + e.index() + ": a rank thread of it is still running in"
                            + " this JVM, and would skew every later run's time and energy");
                    return false;
                }
                if (!anySucceeded && ++failedInARow >= FAILURES_BEFORE_GIVING_UP) {
                    // a kernel that throws, a grid it refuses: every run would fail alike, the preset's 16 included
                    failures.add("stopped after run " + e.index() + ": its first " + failedInARow + " runs failed and"
                            + " none succeeded; the first failure above says why");
                    return false;
                }
                return true;
            }
            anySucceeded = true;
            RunRow row = RunRow.of(e.index(), e.variant(), e.repetition(), report);
            if (!e.warmup()) {
                runNotes.addAll(RunNotes.of(e, report));
            }
            if (meter == null && report.energy() != null) {
                meter = meterOf(report.energy());
            }
            double loopStart = loopStart(report.energy());
            for (TimelineSample s : got) {
                samples.write(e.index() + "," + e.variant() + "," + e.repetition() + "," + e.warmup() + ","
                        + RunRow.num(s.seconds() - loopStart) + "," + TimelineCsv.row(s) + "\n");
            }
            samples.flush();
            if (!e.warmup()) {
                rows.add(row);
                samplesByRun.put(e.index(), got);
                timelines.put(e.index(), timelineOf(report.energy()));
            }
            listener.finished(e, row);
            return true;
        }

        /** Writes the experiment's files from the runs done. */
        Result finish() throws IOException {
            samples.close();
            Files.move(partialSamples, out.resolve("samples.csv"), StandardCopyOption.ATOMIC_MOVE);
            Map<String, Object> meterOrNone = meter != null ? meter
                    : Map.of("source", "none", "title", "none: not measured");
            List<String> hostNames = hostNames(rows);
            writeRuns(rows, hostNames);
            Map<String, Object> summary = summary(rows, hostNames, meterOrNone, schedule, failures);
            List<String> runNoteLines = new ArrayList<>(RunNotes.summarize(runNotes));
            runNoteLines.addAll(RunNotes.slowRuns(rows));
            summary.put("notes", runNoteLines);
            JSON.writeValue(out.resolve("summary.json").toFile(), summary);
            if (rows.isEmpty()) {
                // statistics of nothing (n = 0), plots without bars and a page of them read as results
                List<String> notes = List.of("no measured run succeeded: no summary.csv, plots or index.html (the"
                        + " failures are in summary.json)");
                return new Result(out, rows, summary, failures, notes);
            }
            writeSummaryCsv(summary);
            String title = String.valueOf(meterOrNone.get("title"));
            Plots plots = new Plots(spec, title, rows, samplesByRun, timelines);
            plots.writeAll(out);
            List<String> notes = new ArrayList<>(runNoteLines);
            notes.addAll(plots.notes());
            IndexPage.write(out, spec, title, summary, plots.files(), notes);
            return new Result(out, rows, summary, failures, List.copyOf(notes));
        }

        /** Closes the samples file (left as samples.csv.part when {@link #finish} was not reached). */
        @Override
        public void close() throws IOException {
            samples.close();
        }
    }

    private int hostCount() {
        int ranks = 1;
        for (int p : spec.ranksGrid()) {
            ranks *= p;
        }
        return (ranks + spec.ranksPerHost() - 1) / spec.ranksPerHost();
    }

    /** The extension of {@code file}, dot included ({@code .yaml} when none): the copied spec file keeps it. */
    static String extension(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot < 0 ? ".yaml" : name.substring(dot);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> meterOf(Map<String, Object> energy) {
        Map<String, Object> meter = new LinkedHashMap<>();
        String source = String.valueOf(energy.getOrDefault("source", "none"));
        meter.put("source", source);
        meter.put("detail", energy.get("detail"));
        Map<String, Object> parameters = energy.get("parameters") instanceof Map<?, ?> p
                ? (Map<String, Object>) p : Map.of();
        meter.put("parameters", parameters);
        String title;
        if ("model".equals(source)) {
            title = String.format(Locale.ROOT, "model: P_idle=%s W, P_busy=%s W, alpha=%s, s=%s (an estimate)",
                    parameters.get("idlePowerWatts"), parameters.get("busyPowerWatts"), parameters.get("alpha"),
                    parameters.get("idleClockShare"));
        } else if ("none".equals(source)) {
            title = "none: not measured";
        } else {
            title = source + " (measured)";
        }
        meter.put("title", title);
        return meter;
    }

    private static double loopStart(Map<String, Object> energy) {
        if (energy != null && energy.get("timeline") instanceof Map<?, ?> t && t.get("loopStartSeconds") instanceof Number n) {
            return n.doubleValue();
        }
        return 0;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> timelineOf(Map<String, Object> energy) {
        return energy != null && energy.get("timeline") instanceof Map<?, ?> t ? (Map<String, Object>) t : Map.of();
    }

    static List<String> hostNames(List<RunRow> rows) {
        Set<String> names = new TreeSet<>((a, b) -> {
            int c = Integer.compare(a.length(), b.length());
            return c != 0 ? c : a.compareTo(b);
        });
        rows.forEach(r -> names.addAll(r.hostRecoveryWatts().keySet()));
        return List.copyOf(names);
    }

    /** runs.csv's header: {@link RunRow#COLUMNS}, then a column per host of {@code hosts}. */
    static String runsCsvHeader(List<String> hosts) {
        StringBuilder header = new StringBuilder(String.join(",", RunRow.COLUMNS));
        for (String h : hosts) {
            header.append(',').append(h.replaceAll("[^A-Za-z0-9]", "_")).append("_recovery_watts");
        }
        return header.toString();
    }

    private void writeRuns(List<RunRow> rows, List<String> hosts) throws IOException {
        StringBuilder csv = new StringBuilder(runsCsvHeader(hosts)).append('\n');
        for (RunRow r : rows) {
            csv.append(r.csv(hosts)).append('\n');
        }
        Files.writeString(out.resolve("runs.csv"), csv.toString());
    }

    /** @return the summary object (summary.json) */
    Map<String, Object> summary(List<RunRow> rows, List<String> hosts, Map<String, Object> meter,
                                List<Schedule.Entry> schedule, List<String> failures) {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("experiment", spec);
        summary.put("meter", meter);
        summary.put("createdAt", Instant.now().toString());
        summary.put("provenance", Provenance.current());
        List<Map<String, Object>> order = new ArrayList<>();
        for (Schedule.Entry e : schedule) {
            order.add(Map.of("run", e.index(), "variant", e.variant().label(), "repetition", e.repetition(),
                    "warmup", e.warmup()));
        }
        summary.put("schedule", order);
        summary.put("failures", failures);
        Map<String, Object> variants = new LinkedHashMap<>();
        for (Variant v : spec.variants()) {
            List<RunRow> of = rows.stream().filter(r -> r.variant() == v).toList();
            Map<String, Object> metrics = new LinkedHashMap<>();
            for (Metric m : METRICS) {
                // every metric of a run is at least 0
                metrics.put(m.name(), statsJson(m.unit(), Stats.of(of.stream().mapToDouble(m.value()).toArray())
                        .atLeastZero()));
            }
            for (String h : hosts) {
                metrics.put(h + "_recovery_watts", statsJson("W", Stats.of(of.stream()
                        .mapToDouble(r -> r.hostRecoveryWatts().getOrDefault(h, Double.NaN)).toArray()).atLeastZero()));
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("runs", of.stream().map(RunRow::run).toList());
            Set<String> idle = new TreeSet<>();
            Set<String> participating = new TreeSet<>();
            of.forEach(r -> {
                idle.addAll(r.idleHosts());
                participating.addAll(r.participatingHosts());
            });
            entry.put("idleHosts", idle);
            entry.put("participatingHosts", participating);
            entry.put("metrics", metrics);
            variants.put(v.label(), entry);
        }
        summary.put("variants", variants);
        summary.put("savingsVsGlobal", savings(rows));
        summary.put("cappingVsDfr", cappingVsDfr(rows));
        return summary;
    }

    /** Per idle host of each non-global variant: its recovery power against the same host under global rollback. */
    private List<Map<String, Object>> savings(List<RunRow> rows) {
        List<Map<String, Object>> out = new ArrayList<>();
        List<RunRow> global = rows.stream().filter(r -> r.variant() == Variant.GLOBAL).toList();
        if (global.isEmpty()) {
            return out;
        }
        for (Variant v : spec.variants()) {
            if (v == Variant.GLOBAL) {
                continue;
            }
            List<RunRow> of = rows.stream().filter(r -> r.variant() == v).toList();
            Set<String> idle = new TreeSet<>();
            of.forEach(r -> idle.addAll(r.idleHosts()));
            for (String h : idle) {
                ToDoubleFunction<RunRow> watts = r -> r.hostRecoveryWatts().getOrDefault(h, Double.NaN);
                Stats g = Stats.of(global.stream().mapToDouble(watts).toArray());
                Stats x = Stats.of(of.stream().mapToDouble(watts).toArray());
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("variant", v.label());
                s.put("host", h);
                s.put("globalWatts", finite(g.mean()));
                s.put("variantWatts", finite(x.mean()));
                double saving = g.mean() - x.mean();
                s.put("savingWatts", finite(saving));
                s.put("savingPercent", finite(100 * saving / g.mean()));
                putPairedSavings(s, global, of, watts);
                out.add(s);
            }
        }
        return out;
    }

    /** The idle hosts' power while idle, dfr+capping against dfr: what capping itself saves. */
    private static Map<String, Object> cappingVsDfr(List<RunRow> rows) {
        Stats dfr = Stats.of(rows.stream().filter(r -> r.variant() == Variant.DFR).mapToDouble(RunRow::idlePhaseWatts)
                .toArray());
        Stats capped = Stats.of(rows.stream().filter(r -> r.variant() == Variant.DFR_CAPPING)
                .mapToDouble(RunRow::idlePhaseWatts).toArray());
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("metric", "idle_phase_watts");
        m.put("dfrWatts", finite(dfr.mean()));
        m.put("dfrCappingWatts", finite(capped.mean()));
        m.put("savingWatts", finite(dfr.mean() - capped.mean()));
        m.put("savingPercent", finite(100 * (dfr.mean() - capped.mean()) / dfr.mean()));
        putPairedSavings(m, rows.stream().filter(r -> r.variant() == Variant.DFR).toList(),
                rows.stream().filter(r -> r.variant() == Variant.DFR_CAPPING).toList(), RunRow::idlePhaseWatts);
        return m;
    }

    /**
     * The saving's statistics over the repetitions: each round runs every variant once (in a shuffled order), so
     * the runs of one repetition are a pair, and the saving of each pair, in W and in % of the base, has a mean, an
     * sd and a 95 % interval ({@code pairs}, {@code savingWattsSd}, {@code savingWattsCi95},
     * {@code savingPercentSd}, {@code savingPercentCi95}). The means of the pairs' savings can differ from
     * {@code savingWatts} and {@code savingPercent}, which compare the means of all runs, when a run of a pair
     * measured nothing. An energy researcher's headline, one ratio of two means, had no interval.
     */
    private static void putPairedSavings(Map<String, Object> out, List<RunRow> base, List<RunRow> variant,
                                         ToDoubleFunction<RunRow> watts) {
        Map<Integer, Double> baseByRepetition = new TreeMap<>();
        base.forEach(r -> baseByRepetition.put(r.repetition(), watts.applyAsDouble(r)));
        List<Double> savedWatts = new ArrayList<>();
        List<Double> savedPercent = new ArrayList<>();
        for (RunRow r : variant) {
            Double b = baseByRepetition.get(r.repetition());
            double x = watts.applyAsDouble(r);
            if (b != null && Double.isFinite(b) && Double.isFinite(x) && b != 0) {
                savedWatts.add(b - x);
                savedPercent.add(100 * (b - x) / b);
            }
        }
        Stats w = Stats.of(savedWatts.stream().mapToDouble(Double::doubleValue).toArray());
        Stats p = Stats.of(savedPercent.stream().mapToDouble(Double::doubleValue).toArray());
        out.put("pairs", w.n());
        out.put("savingWattsSd", finite(w.sd()));
        out.put("savingWattsCi95", Arrays.asList(finite(w.ci95Low()), finite(w.ci95High())));
        out.put("savingPercentSd", finite(p.sd()));
        out.put("savingPercentCi95", Arrays.asList(finite(p.ci95Low()), finite(p.ci95High())));
    }

    private static Map<String, Object> statsJson(String unit, Stats s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("unit", unit);
        m.put("n", s.n());
        m.put("mean", finite(s.mean()));
        m.put("sd", finite(s.sd()));
        // null, not "n/a", below two runs: a number or nothing in a numeric field
        m.put("ci95", Arrays.asList(finite(s.ci95Low()), finite(s.ci95High())));
        return m;
    }

    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }

    /** The columns of summary.csv. */
    static final String SUMMARY_CSV_HEADER = "variant,metric,unit,n,mean,sd,ci95_low,ci95_high,source";

    private void writeSummaryCsv(Map<String, Object> summary) throws IOException {
        Files.writeString(out.resolve("summary.csv"), SUMMARY_CSV_HEADER + "\n" + summaryCsvRows(summary));
    }

    /** @return the rows of summary.csv (each ending in a newline) of {@code summary}, the object of summary.json */
    @SuppressWarnings("unchecked")
    static String summaryCsvRows(Map<String, Object> summary) {
        String source = String.valueOf(((Map<String, Object>) summary.get("meter")).get("source"));
        StringBuilder csv = new StringBuilder();
        Map<String, Object> variants = (Map<String, Object>) summary.get("variants");
        for (Map.Entry<String, Object> v : variants.entrySet()) {
            Map<String, Object> metrics = (Map<String, Object>) ((Map<String, Object>) v.getValue()).get("metrics");
            for (Map.Entry<String, Object> m : metrics.entrySet()) {
                Map<String, Object> s = (Map<String, Object>) m.getValue();
                List<Object> ci = (List<Object>) s.get("ci95");
                csv.append(v.getKey()).append(',').append(m.getKey()).append(',').append(s.get("unit")).append(',')
                        .append(s.get("n")).append(',').append(cell(s.get("mean"))).append(',')
                        .append(cell(s.get("sd"))).append(',').append(cell(ci.get(0))).append(',')
                        .append(cell(ci.get(1))).append(',').append(source).append('\n');
            }
        }
        for (Map<String, Object> s : (List<Map<String, Object>>) summary.get("savingsVsGlobal")) {
            String name = s.get("host") + "_saving_vs_global";
            savingRows(csv, String.valueOf(s.get("variant")), name, s, source);
        }
        Map<String, Object> c = (Map<String, Object>) summary.get("cappingVsDfr");
        savingRows(csv, "dfr+capping", "idle_phase_saving_vs_dfr", c, source);
        return csv.toString();
    }

    /**
     * A saving's two rows: W and %, each with the mean of all runs and, over the repetitions' pairs, n, sd and the
     * 95 % interval ({@link #putPairedSavings}).
     */
    @SuppressWarnings("unchecked")
    private static void savingRows(StringBuilder csv, String variant, String name, Map<String, Object> s,
                                   String source) {
        List<Object> wattsCi = (List<Object>) s.get("savingWattsCi95");
        List<Object> percentCi = (List<Object>) s.get("savingPercentCi95");
        csv.append(variant).append(',').append(name).append(",W,").append(s.get("pairs")).append(',')
                .append(cell(s.get("savingWatts"))).append(',').append(cell(s.get("savingWattsSd"))).append(',')
                .append(cell(wattsCi.get(0))).append(',').append(cell(wattsCi.get(1))).append(',').append(source)
                .append('\n');
        csv.append(variant).append(',').append(name).append("_percent,%,").append(s.get("pairs")).append(',')
                .append(cell(s.get("savingPercent"))).append(',').append(cell(s.get("savingPercentSd"))).append(',')
                .append(cell(percentCi.get(0))).append(',').append(cell(percentCi.get(1))).append(',').append(source)
                .append('\n');
    }

    private static String cell(Object v) {
        return v instanceof Number n ? RunRow.num(n.doubleValue()) : "";
    }
}
