package org.dfr.simulator.sweep;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.dfr.simulator.FailureSchedule;
import org.dfr.simulator.ProgressReporter;
import org.dfr.simulator.Simulation;
import org.dfr.simulator.SimulationResult;
import org.dfr.simulator.Strategy;

/**
 * Runs every (point, seed) in parallel on a {@link ForkJoinPool} — biggest points first — each seed simulating
 * every strategy on the same failures, then summarises each point per strategy.
 */
public final class Sweep {

    private Sweep() {
    }

    /** The outcome of a sweep: one summary per point and strategy, plus totals for the tasks/s figure. */
    public record Outcome(List<PointSummary> summaries, long tasksSimulated, double simulatorSeconds, double wallSeconds) {

        /** Copies the list. */
        public Outcome {
            summaries = List.copyOf(summaries);
        }

        /** Simulated tasks per second of one core (summed simulator time). */
        public double tasksPerCoreSecond() {
            return simulatorSeconds == 0 ? 0 : tasksSimulated / simulatorSeconds;
        }

        /** Simulated tasks per second of wall time (all cores). */
        public double tasksPerWallSecond() {
            return wallSeconds == 0 ? 0 : tasksSimulated / wallSeconds;
        }
    }

    private record Job(int point, SweepPoint at, long seed) {
    }

    private record Done(int point, long seed, Map<Strategy, SimulationResult> results) {
    }

    /** How often a simulation that is still running says where it is. */
    public static final Duration STILL_RUNNING_EVERY = Duration.ofSeconds(15);

    /**
     * Simulates every point with {@code settings.seeds()} seeds.
     *
     * @param progress receives one line per finished point, and one every {@link #STILL_RUNNING_EVERY} from each
     *                 simulation still running (from any thread)
     */
    public static Outcome run(List<SweepPoint> points, SweepSettings settings, Consumer<String> progress) {
        List<Strategy> strategies = new ArrayList<>(settings.strategies());
        if (!strategies.contains(Strategy.GLOBAL)) {
            strategies.add(0, Strategy.GLOBAL);
        }
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            for (int s = 0; s < settings.seeds(); s++) {
                jobs.add(new Job(i, points.get(i), settings.firstSeed() + s));
            }
        }
        jobs.sort(Comparator.comparingLong((Job j) -> -(long) j.at().layout().nodes() * settings.iterations()));
        AtomicInteger[] left = new AtomicInteger[points.size()];
        for (int i = 0; i < left.length; i++) {
            left[i] = new AtomicInteger(settings.seeds());
        }
        int threads = settings.parallelism() > 0 ? settings.parallelism() : Runtime.getRuntime().availableProcessors();
        long began = System.nanoTime();
        ForkJoinPool pool = new ForkJoinPool(threads);
        List<Done> done;
        try {
            done = pool.submit(() -> jobs.parallelStream().map(job -> {
                Map<Strategy, SimulationResult> results = new EnumMap<>(Strategy.class);
                for (Strategy strategy : strategies) {
                    ProgressReporter stillRunning = ProgressReporter.every(STILL_RUNNING_EVERY, System::nanoTime,
                            (reached, of, failures, nanos) -> progress.accept(String.format(Locale.ROOT,
                                    "still at %dD %s K=%d seed %d %s: iteration %d of %d, %d failures, %.0f s",
                                    job.at().layout().dimensions(), job.at().layout().grid(),
                                    job.at().checkpointEvery(), job.seed(), strategy.cliName(), reached, of, failures,
                                    nanos / 1e9)));
                    results.put(strategy, Simulation.run(settings.spec(job.at().layout(), job.at().checkpointEvery(),
                            strategy, job.seed()), FailureSchedule.random(), stillRunning));
                }
                if (left[job.point()].decrementAndGet() == 0) {
                    progress.accept(String.format(Locale.ROOT, "done %dD %s K=%d (%d seed%s)",
                            job.at().layout().dimensions(), job.at().layout().grid(), job.at().checkpointEvery(),
                            settings.seeds(), settings.seeds() == 1 ? "" : "s"));
                }
                return new Done(job.point(), job.seed(), results);
            }).toList()).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the sweep was interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a simulation failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdown();
        }
        double wall = (System.nanoTime() - began) / 1e9;
        Map<Integer, List<Done>> byPoint = new LinkedHashMap<>();
        for (int i = 0; i < points.size(); i++) {
            byPoint.put(i, new ArrayList<>());
        }
        long tasks = 0;
        long nanos = 0;
        for (Done d : done) {
            byPoint.get(d.point()).add(d);
            for (SimulationResult r : d.results().values()) {
                tasks += r.tasksSimulated();
                nanos += r.wallNanos();
            }
        }
        List<PointSummary> summaries = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            List<Done> runs = byPoint.get(i);
            runs.sort(Comparator.comparingLong(Done::seed));
            for (Strategy s : settings.strategies()) {
                summaries.add(summarise(points.get(i), s, runs));
            }
        }
        return new Outcome(summaries, tasks, nanos / 1e9, wall);
    }

    private static PointSummary summarise(SweepPoint point, Strategy strategy, List<Done> runs) {
        int n = runs.size();
        double[] failures = new double[n];
        double[] recoveries = new double[n];
        double[] perNode = new double[n];
        double[] runtime = new double[n];
        double[] energy = new double[n];
        double[] saving = new double[n];
        double globalEnergy = 0;
        long recomputed = 0;
        long recoveryCount = 0;
        long tasks = 0;
        long nanos = 0;
        int incomplete = 0;
        for (int i = 0; i < n; i++) {
            SimulationResult r = runs.get(i).results().get(strategy);
            SimulationResult g = runs.get(i).results().get(Strategy.GLOBAL);
            failures[i] = r.failures();
            recoveries[i] = r.recoveries();
            perNode[i] = r.recomputedIterationsPerPartition();
            runtime[i] = r.makespanSeconds() / 3600;
            energy[i] = r.energy().totalJoules() / 1e6;
            saving[i] = (g.energy().totalJoules() - r.energy().totalJoules()) / 1e6;
            globalEnergy += g.energy().totalJoules() / 1e6;
            recomputed += r.recomputedPartitionIterations();
            recoveryCount += r.recoveries();
            tasks += r.tasksSimulated();
            nanos += r.wallNanos();
            incomplete += r.completed() ? 0 : 1;
        }
        double meanSaving = Stats.mean(saving);
        double seconds = nanos / 1e9;
        Decomposition layout = point.layout();
        return new PointSummary(layout.dimensions(), layout.nodes(), layout.grid(), point.checkpointEvery(),
                strategy.cliName(), n, incomplete, Stats.mean(failures), Stats.sd(failures), Stats.mean(recoveries),
                Stats.mean(perNode), Stats.sd(perNode), recoveryCount == 0 ? 0 : (double) recomputed / recoveryCount,
                Stats.mean(runtime), Stats.sd(runtime), Stats.mean(energy), Stats.sd(energy), meanSaving, Stats.sd(saving),
                globalEnergy == 0 ? 0 : 100 * meanSaving / (globalEnergy / n), tasks, seconds,
                seconds == 0 ? 0 : tasks / seconds);
    }
}
