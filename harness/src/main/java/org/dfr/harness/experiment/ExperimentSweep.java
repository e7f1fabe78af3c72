package org.dfr.harness.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.dfr.harness.Provenance;
import org.dfr.power.AtomicFiles;

/**
 * Runs an {@link ExperimentSpec} with a {@link Sweep}: the whole experiment once per value (per pair of values in a
 * grid), each into a directory of its own under the output ({@code 01-fail-iteration-2/}, ... each as a single
 * experiment writes it), then across the points {@code sweep.csv} (every point's summary.csv rows, its parameters
 * and values in front), {@code sweep-runs.csv} (every run of every point, likewise), {@code sweep.json},
 * {@code sweep-energy.png} and {@code sweep-recovery.png} (a metric per panel, the value on the x axis, a series per
 * variant with 95 % intervals) and {@code index.html} (docs/experiments.md, "Sweeping one setting").
 *
 * <p>By default the points' runs are interleaved round by round ({@link Sweep.Order#INTERLEAVED}), so that a drift
 * of the machine over the sweep spreads over the points; {@link Sweep.Order#SEQUENTIAL} runs each point whole, one
 * after another, and says that a difference between points then also holds the drift.
 */
public final class ExperimentSweep {

    /** Told about each point, and through {@link #runs} about each run, for progress. */
    public interface Listener {
        /**
         * Point {@code index} (from 0) of {@code points} is about to run into {@code dir}; {@code label} names it
         * ({@link Sweep#pointLabel}).
         */
        default void pointStarting(int index, int points, String label, Path dir) {
        }

        /** @return the listener of the runs of point {@code index} */
        default Experiment.Listener runs(int index) {
            return new Experiment.Listener() {
            };
        }
    }

    /**
     * One value's experiment.
     *
     * @param value     the value, as given
     * @param byValue   the second setting's value ({@link Sweep#by}), or null
     * @param directory its directory, relative to the sweep's output
     * @param result    what its experiment produced
     */
    public record Point(String value, String byValue, String directory, Experiment.Result result) {

        /** @return the mean of {@code metric} (as summary.json names it) over {@code variant}'s runs here, or NaN */
        public double mean(Variant variant, String metric) {
            return SweepPlots.mean(this, variant, metric);
        }

        /**
         * @return the 95 % interval of {@code metric}'s mean over {@code variant}'s runs here, as {@code {low, high}};
         *         both NaN when there is none (fewer than two runs, or nothing measured)
         */
        public double[] interval(Variant variant, String metric) {
            return SweepPlots.interval(this, variant, metric);
        }
    }

    /**
     * What a sweep produced.
     *
     * @param out    the output directory
     * @param sweep  the setting varied and its values
     * @param points one per value, in order
         * @param notes  across the points: why a plot was left out, that the points ran in sequence; one sentence each
     */
    public record Result(Path out, Sweep sweep, List<Point> points, List<String> notes) {

        /** @return the meter's title (the first point's that measured: one machine, one meter) */
        public String meterTitle() {
            return ExperimentSweep.meterTitle(points);
        }

        /** @return whether any run of any point failed */
        public boolean anyFailed() {
            return points.stream().anyMatch(p -> !p.result().failures().isEmpty());
        }
    }

    private final ExperimentSpec spec;
    private final Path out;
    private Path specFile;
    private Listener listener = new Listener() {
    };

    /** @param spec an experiment with its {@link ExperimentSpec#sweep()} set */
    public ExperimentSweep(ExperimentSpec spec, Path out) {
        if (spec.sweep() == null) {
            throw new IllegalArgumentException("the experiment has no sweep: run it as an Experiment");
        }
        this.spec = spec;
        this.out = out;
    }

    /** The file the spec was read from, copied into the output. */
    public ExperimentSweep specFile(Path file) {
        this.specFile = file;
        return this;
    }

    public ExperimentSweep listener(Listener value) {
        this.listener = value;
        return this;
    }

    /** Runs every point, then writes the sweep's files. */
    public Result run() throws IOException {
        spec.validate();
        Sweep sweep = spec.sweep();
        Files.createDirectories(out);
        if (specFile != null) {
            Files.copy(specFile, out.resolve("experiment-input" + Experiment.extension(specFile)),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        AtomicFiles.writeString(out.resolve("experiment.json"), spec.toJson() + "\n");
        List<ExperimentSpec> specs = sweep.points(spec);
        List<Point> points = sweep.order() == Sweep.Order.SEQUENTIAL ? sequential(sweep, specs)
                : interleaved(sweep, specs);
        List<String> notes = new ArrayList<>();
        if (sweep.order() == Sweep.Order.SEQUENTIAL) {
            notes.add("the points ran one after another (--sweep-order sequential); the variants are compared within"
                    + " each point (interleaved runs), while a difference between points also holds whatever drifted"
                    + " on the machine over the sweep");
        }
        AtomicFiles.writeString(out.resolve("sweep.csv"), csv(sweep, points));
        AtomicFiles.writeString(out.resolve("sweep-runs.csv"), runsCsv(sweep, points));
        SweepPlots plots = new SweepPlots(spec, points);
        plots.writeAll(out);
        notes.addAll(plots.notes());
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("sweep", sweep);
        json.put("experiment", spec);
        json.put("createdAt", Instant.now().toString());
        json.put("provenance", Provenance.current());
        json.put("points", points.stream().map(p -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("value", p.value());
            if (p.byValue() != null) {
                m.put("byValue", p.byValue());
            }
            m.put("directory", p.directory());
            m.put("failures", p.result().failures());
            m.put("notes", p.result().notes());
            return m;
        }).toList());
        json.put("notes", notes);
        AtomicFiles.writeString(out.resolve("sweep.json"), Experiment.JSON.writeValueAsString(json) + "\n");
        SweepPage.write(out, spec, points, plots.files(), notes);
        return new Result(out, sweep, List.copyOf(points), List.copyOf(notes));
    }

    /** Each point whole, in the order given; sweep.csv rewritten after each. */
    private List<Point> sequential(Sweep sweep, List<ExperimentSpec> specs) throws IOException {
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            String dir = sweep.directory(i);
            listener.pointStarting(i, specs.size(), sweep.pointLabel(i), out.resolve(dir));
            Experiment.Result result = new Experiment(specs.get(i), out.resolve(dir)).listener(listener.runs(i)).run();
            points.add(new Point(sweep.valueAt(i), sweep.byValueAt(i), dir, result));
            // after every point, whole: an interrupted sweep keeps the rows of the points it finished
            AtomicFiles.writeString(out.resolve("sweep.csv"), csv(sweep, points));
            AtomicFiles.writeString(out.resolve("sweep-runs.csv"), runsCsv(sweep, points));
        }
        return points;
    }

    /**
     * Round by round over every point: the warm-ups, then each repetition (each point's own runs of that round in its
     * own shuffled order), the point that starts a round rotating; every point's files at the end.
     */
    private List<Point> interleaved(Sweep sweep, List<ExperimentSpec> specs) throws IOException {
        List<Experiment.Session> sessions = new ArrayList<>();
        try {
            for (int i = 0; i < specs.size(); i++) {
                Path dir = out.resolve(sweep.directory(i));
                listener.pointStarting(i, specs.size(), sweep.pointLabel(i), dir);
                sessions.add(new Experiment(specs.get(i), dir).listener(listener.runs(i)).open());
            }
            // round 0: the warm-ups; round r: repetition r
            rounds:
            for (int round = 0; round <= spec.repetitions(); round++) {
                for (int k = 0; k < sessions.size(); k++) {
                    Experiment.Session session = sessions.get((k + round) % sessions.size());
                    for (Schedule.Entry e : session.schedule()) {
                        if ((e.warmup() ? 0 : e.repetition()) == round && !session.run(e)) {
                            break rounds;
                        }
                    }
                }
            }
            List<Point> points = new ArrayList<>();
            for (int i = 0; i < sessions.size(); i++) {
                points.add(new Point(sweep.valueAt(i), sweep.byValueAt(i), sweep.directory(i),
                        sessions.get(i).finish()));
            }
            return points;
        } finally {
            for (Experiment.Session s : sessions) {
                s.close();
            }
        }
    }

    /**
     * Every run of every point in one table: the point's parameter(s) and value(s), then runs.csv's columns, with a
     * host column for every host of any point (empty in the rows of a point without that host, when the hosts are
     * swept). For one's own statistics in R or pandas without a glob over the points' directories (an energy
     * researcher's walk-through).
     */
    static String runsCsv(Sweep sweep, List<Point> points) {
        List<String> hosts = Experiment.hostNames(points.stream().flatMap(p -> p.result().rows().stream()).toList());
        StringBuilder csv = new StringBuilder(sweep.by() == null ? "parameter,value,"
                : "parameter,value,by_parameter,by_value,").append(Experiment.runsCsvHeader(hosts)).append('\n');
        for (Point p : points) {
            String prefix = sweep.parameter().label() + "," + csvCell(p.value()) + ","
                    + (sweep.by() == null ? "" : sweep.by().parameter().label() + "," + csvCell(p.byValue()) + ",");
            for (RunRow r : p.result().rows()) {
                csv.append(prefix).append(r.csv(hosts)).append('\n');
            }
        }
        return csv.toString();
    }

    /** The meter's title of the first of {@code points} whose summary names one, else {@code none}. */
    static String meterTitle(List<Point> points) {
        for (Point p : points) {
            if (p.result().summary().get("meter") instanceof Map<?, ?> m && m.get("title") != null) {
                return String.valueOf(m.get("title"));
            }
        }
        return "none: not measured";
    }

    /** The columns of sweep.csv: the parameter and its value, then those of every point's summary.csv. */
    static final String CSV_HEADER = "parameter,value," + Experiment.SUMMARY_CSV_HEADER;
    /** The columns of a grid sweep's sweep.csv: both parameters and their values, then those of summary.csv. */
    static final String GRID_CSV_HEADER = "parameter,value,by_parameter,by_value," + Experiment.SUMMARY_CSV_HEADER;

    private static String csv(Sweep sweep, List<Point> points) {
        StringBuilder csv = new StringBuilder(sweep.by() == null ? CSV_HEADER : GRID_CSV_HEADER).append('\n');
        for (Point p : points) {
            String prefix = sweep.parameter().label() + "," + csvCell(p.value()) + ","
                    + (sweep.by() == null ? "" : sweep.by().parameter().label() + "," + csvCell(p.byValue()) + ",");
            for (String row : Experiment.summaryCsvRows(p.result().summary()).split("\n")) {
                if (!row.isEmpty()) {
                    csv.append(prefix).append(row).append('\n');
                }
            }
        }
        return csv.toString();
    }

    /** A value as one CSV cell: quoted when it holds a comma or a quote (no value of today's parameters does). */
    private static String csvCell(String value) {
        return value.contains(",") || value.contains("\"") ? "\"" + value.replace("\"", "\"\"") + "\"" : value;
    }
}
