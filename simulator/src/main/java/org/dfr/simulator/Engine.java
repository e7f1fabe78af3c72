package org.dfr.simulator;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.dfr.analysis.ConeAnalyzer;

/**
 * One simulated run. Finish times are computed level by level over two arrays of partition count
 * ({@code cur} = iteration {@code i-1}, {@code next} = iteration {@code i}):
 * <pre>
 *   next[p] = max(cur[p], max_{q in R(p), q != p} cur[q] + halo) + task(p, i) [+ checkpoint] [+ log copies]
 * </pre>
 * so memory grows with partitions, never with tasks. Before each level the earliest pending failure is
 * checked: if its node would not have finished iteration {@code i} when it died, it died at the start of
 * {@code t = i} (DESIGN.md), every survivor falls back to {@code t-1}, as in the runtime (so level {@code i}
 * is not computed) and the recovery runs: the participating partitions recompute their levels with the same
 * recurrence on two more arrays, starting after detection and replacement from their checkpoints, and every
 * partition resumes iteration {@code t} once the recovery is done. Partitions outside the recovery idle
 * (capped) meanwhile.
 *
 * <p>Not thread-safe: one engine per run.
 */
final class Engine {

    private final SimulationSpec spec;
    private final TaskGraph graph;
    private final int n;
    private final int k;
    private final int iterations;
    private final double halo;
    private final double checkpoint;
    /** Iterations after a checkpoint before it counts ({@link SimulationSpec#effectiveCommitLag}). */
    private final int lag;
    private final double reload;
    private final double logCost;
    private final TaskTimes times;
    private final FailureModel failureModel;
    private final FailureArrivals arrivals;
    private final boolean random;
    private final SplittableRandom correlated;
    private final int nodes;
    private final int perNode;
    private final ConeAnalyzer analyzer;

    /** Finish times of the last completed iteration; read through {@link #curAt} while {@link #uniform}. */
    private double[] cur;
    private double[] next;
    /** Whether every partition's entry of {@code cur} is {@link #uniformValue} (after a recovery, lazily). */
    private boolean uniform;
    private double uniformValue;
    /** Maximum of {@code cur}. */
    private double curMax;
    private double[] gPrev;
    private double[] gNext;
    private final int[] depthOf;
    private final int[] memberStamp;
    private final int[] lostStamp;
    private int stamp;
    private int[] identity;

    private final List<ScheduledFailure> explicit;
    private int explicitAt;
    private final Deque<Integer> killDuringRecovery;

    private long tasks;
    private long taskCount;
    private double taskSeconds;
    private double otherBusySeconds;
    private double cappedSeconds;
    private long recomputed;
    private long aborted;
    private long failures;
    private long recoveries;
    private boolean stopped;
    private final List<RecoveryRecord> records = new ArrayList<>();
    private final ProgressReporter progress;

    // results of the last runLevels call
    private double attemptEnd;
    private double levelOneEnd;
    private long attemptTasksBefore;
    private double attemptSecondsBefore;
    private double attemptSeconds;

    Engine(SimulationSpec spec, FailureSchedule schedule, TaskGraph graph) {
        this(spec, schedule, graph, ProgressReporter.none());
    }

    Engine(SimulationSpec spec, FailureSchedule schedule, TaskGraph graph, ProgressReporter progress) {
        this.spec = spec;
        this.progress = progress.start();
        this.graph = graph;
        this.n = graph.n;
        this.k = spec.checkpointEvery();
        this.lag = spec.effectiveCommitLag();
        this.iterations = spec.iterations();
        TimingModel timing = spec.timing();
        this.halo = timing.haloSeconds();
        this.checkpoint = timing.checkpointSeconds();
        this.reload = timing.checkpointSeconds();
        this.logCost = spec.strategy() == Strategy.MESSAGE_LOG ? timing.logSecondsPerMessage() : 0;
        this.times = new TaskTimes(timing.taskSeconds(), timing.taskJitter(), spec.seed());
        this.failureModel = spec.failures();
        this.perNode = failureModel.partitionsPerNode();
        this.nodes = (n + perNode - 1) / perNode;
        this.random = schedule.drawn();
        SplittableRandom root = new SplittableRandom(spec.seed());
        SplittableRandom failureRandom = root.split();
        this.correlated = root.split();
        if (!random) {
            arrivals = FailureArrivals.NONE;
        } else if (failureModel.distribution() == FailureDistribution.WEIBULL) {
            arrivals = new WeibullArrivals(nodes, failureModel.nodeMtbfSeconds(), failureModel.weibullShape(), failureRandom);
        } else {
            arrivals = new PoissonArrivals(nodes, failureModel.nodeMtbfSeconds(), failureRandom);
        }
        this.explicit = schedule.failures();
        for (ScheduledFailure f : explicit) {
            requirePartitions(f.partitions());
        }
        this.killDuringRecovery = new ArrayDeque<>(schedule.duringRecovery());
        for (int p : killDuringRecovery) {
            requirePartitions(new int[] {p});
        }
        this.analyzer = spec.strategy() == Strategy.DFR ? new ConeAnalyzer(spec.dependencies()) : null;
        this.cur = new double[n];
        this.next = new double[n];
        this.gPrev = new double[n];
        this.gNext = new double[n];
        this.depthOf = new int[n];
        this.memberStamp = new int[n];
        this.lostStamp = new int[n];
    }

    private void requirePartitions(int[] ids) {
        for (int p : ids) {
            if (p < 0 || p >= n) {
                throw new IllegalArgumentException("failed partition " + p + " is out of range 0.." + (n - 1));
            }
        }
    }

    SimulationResult run() {
        long began = System.nanoTime();
        int level = 0;
        while (level < iterations && !stopped) {
            progress.at(level, iterations, failures);
            int i = level + 1;
            if (explicitAt < explicit.size() && explicit.get(explicitAt).iteration() == i) {
                TreeSet<Integer> lost = new TreeSet<>();
                double at = 0;
                while (explicitAt < explicit.size() && explicit.get(explicitAt).iteration() == i) {
                    for (int p : explicit.get(explicitAt).partitions()) {
                        lost.add(p);
                        at = Math.max(at, curAt(p));
                    }
                    explicitAt++;
                }
                failures += lost.size();
                recover(lost, i, at);
                continue;
            }
            double t = arrivals.peekTime();
            if (t < Double.POSITIVE_INFINITY) {
                int node = arrivals.peekNode();
                if (t < nodeFinish(node, i)) {
                    arrivals.pop();
                    failures++;
                    TreeSet<Integer> lost = new TreeSet<>();
                    addNode(lost, node);
                    addCorrelated(lost, node);
                    recover(lost, i, t);
                    if (failures >= failureModel.maxFailures()) {
                        stopped = true;
                    }
                    continue;
                }
            }
            curMax = computeLevel(i);
            uniform = false;
            double[] swap = cur;
            cur = next;
            next = swap;
            level = i;
        }
        double makespan = curMax;
        return new SimulationResult(spec.strategy(), n, iterations, !stopped, makespan, failures, recoveries, recomputed,
                aborted, tasks, energy(makespan), System.nanoTime() - began, records);
    }

    /** When {@code node} would finish iteration {@code i}: its partitions' tasks only, as {@link #computeLevel} computes them. */
    private double nodeFinish(int node, int i) {
        double extra = i % k == 0 ? checkpoint : 0;
        double finish = 0;
        for (int p = node * perNode, end = Math.min(n, p + perNode); p < end; p++) {
            double ready = curAt(p);
            for (int e = graph.rowStart[p], stop = graph.rowStart[p + 1]; e < stop; e++) {
                ready = Math.max(ready, curAt(graph.others[e]) + halo);
            }
            finish = Math.max(finish, ready + times.of(p, i) + extra + graph.consumerCount[p] * logCost);
        }
        return finish;
    }

    private void addNode(TreeSet<Integer> lost, int node) {
        for (int p = node * perNode, end = Math.min(n, p + perNode); p < end; p++) {
            lost.add(p);
        }
    }

    private void addCorrelated(TreeSet<Integer> lost, int node) {
        double q = failureModel.correlatedFailureProbability();
        if (q > 0 && nodes > 1 && correlated.nextDouble() < q) {
            int other = correlated.nextInt(nodes - 1);
            if (other >= node) {
                other++;
            }
            failures++;
            addNode(lost, other);
        }
    }

    private double curAt(int p) {
        return uniform ? uniformValue : cur[p];
    }

    /** Level {@code i} of every partition, from {@code cur} into {@code next}; returns the latest finish. */
    private double computeLevel(int i) {
        double extra = i % k == 0 ? checkpoint : 0;
        double latest;
        if (uniform) {
            latest = uniformLevel(uniformValue, next, i, extra);
        } else {
            latest = level(cur, next, i, extra, logCost);
        }
        otherBusySeconds += n * extra;
        tasks += n;
        taskCount += n;
        return latest;
    }

    /**
     * The recurrence for every partition from {@code prev} into {@code out} (tasks of iteration {@code i}, plus
     * {@code extra} and the log copies per task); adds the task seconds; returns the latest finish.
     */
    private double level(double[] prev, double[] out, int i, double extra, double log) {
        final int[] rowStart = graph.rowStart;
        final int[] others = graph.others;
        final double h = halo;
        double latest = Double.NEGATIVE_INFINITY;
        if (times.constant() && log == 0) {
            double add = times.base() + extra;
            int e = 0;
            for (int p = 0; p < n; p++) {
                double other = Double.NEGATIVE_INFINITY;
                for (int end = rowStart[p + 1]; e < end; e++) {
                    double v = prev[others[e]];
                    if (v > other) {
                        other = v;
                    }
                }
                double f = Math.max(prev[p], other + h) + add;
                out[p] = f;
                if (f > latest) {
                    latest = f;
                }
            }
            taskSeconds += n * times.base();
        } else {
            final int[] consumers = graph.consumerCount;
            double sum = 0;
            long messages = 0;
            int e = 0;
            for (int p = 0; p < n; p++) {
                double other = Double.NEGATIVE_INFINITY;
                for (int end = rowStart[p + 1]; e < end; e++) {
                    double v = prev[others[e]];
                    if (v > other) {
                        other = v;
                    }
                }
                double d = times.of(p, i);
                sum += d;
                messages += consumers[p];
                double f = Math.max(prev[p], other + h) + d + extra + consumers[p] * log;
                out[p] = f;
                if (f > latest) {
                    latest = f;
                }
            }
            taskSeconds += sum;
            otherBusySeconds += messages * log;
        }
        return latest;
    }

    /** {@link #level} when every previous finish is {@code u}: a partition with other inputs waits for the halo. */
    private double uniformLevel(double u, double[] out, int i, double extra) {
        final int[] rowStart = graph.rowStart;
        final int[] consumers = graph.consumerCount;
        double latest = Double.NEGATIVE_INFINITY;
        double sum = 0;
        long messages = 0;
        for (int p = 0; p < n; p++) {
            double d = times.of(p, i);
            double f = (rowStart[p + 1] > rowStart[p] ? u + halo : u) + d + extra + consumers[p] * logCost;
            sum += d;
            messages += consumers[p];
            out[p] = f;
            if (f > latest) {
                latest = f;
            }
        }
        taskSeconds += sum;
        otherBusySeconds += messages * logCost;
        return latest;
    }

    /**
     * Recovers {@code lost} partitions that died at time {@code at} at the start of iteration {@code t}; on
     * return {@code cur} holds, for every partition, the time it resumes iteration {@code t}.
     */
    private void recover(TreeSet<Integer> lost, int t, double at) {
        recoveries++;
        int c = ((t - 1) / k) * k;
        if (c > 0 && t - c <= lag) {
            // not committed yet: the checkpoint before it (the initial one counts at once, as in the runtime)
            c -= k;
        }
        int m = t - 1 - c;
        double delay = failureModel.detectionSeconds() + failureModel.replacementSeconds();
        double start = at + delay;
        while (random && arrivals.peekTime() < start) {
            double t2 = arrivals.peekTime();
            int node = arrivals.peekNode();
            arrivals.pop();
            failures++;
            addNode(lost, node);
            addCorrelated(lost, node);
            start = Math.max(start, t2 + delay);
        }
        int attempts = 0;
        long abortedHere = 0;
        RecoveryShape shape;
        while (true) {
            attempts++;
            progress.at(t - 1, iterations, failures);
            int[] lostIds = lost.stream().mapToInt(Integer::intValue).toArray();
            shape = shapeFor(lostIds, c, t, m);
            mark(shape, lostIds);
            boolean kill = !killDuringRecovery.isEmpty() && m >= 1;
            double abortAt = random && failureModel.failuresDuringRecovery() ? arrivals.peekTime() : Double.POSITIVE_INFINITY;
            runLevels(shape, start, c, kill ? Double.POSITIVE_INFINITY : abortAt);
            boolean budgetLeft = failures < failureModel.maxFailures();
            if (kill && budgetLeft) {
                int victim = killDuringRecovery.poll();
                failures++;
                long levelOne = shape.levelSize[1];
                abortedHere += levelOne;
                tasks += levelOne;
                taskCount += levelOne;
                taskSeconds += levelOneSeconds(shape, c);
                otherBusySeconds += lostIds.length * reload;
                lost.add(victim);
                start = levelOneEnd + delay;
                continue;
            }
            if (abortAt < attemptEnd && budgetLeft) {
                int node = arrivals.peekNode();
                arrivals.pop();
                failures++;
                abortedHere += attemptTasksBefore;
                tasks += attemptTasksBefore;
                taskCount += attemptTasksBefore;
                taskSeconds += attemptSecondsBefore;
                otherBusySeconds += lostIds.length * reload;
                addNode(lost, node);
                addCorrelated(lost, node);
                start = abortAt + delay;
                continue;
            }
            if (!budgetLeft) {
                stopped = true;
            }
            tasks += shape.work;
            taskCount += shape.work;
            taskSeconds += attemptSeconds;
            otherBusySeconds += lostIds.length * reload;
            recomputed += shape.work;
            aborted += abortedHere;
            break;
        }
        double end = attemptEnd;
        if (spec.power().capIdleDuringRecovery()) {
            if (start >= curMax) {
                cappedSeconds += (double) (n - shape.order.length) * (end - start);
            } else {
                for (int q = 0; q < n; q++) {
                    if (memberStamp[q] != stamp) {
                        cappedSeconds += end - Math.max(start, curAt(q));
                    }
                }
            }
        }
        if (spec.recordRecoveries() || !random) {
            records.add(record(shape, lost, c, t, m, abortedHere, attempts, at, start, end));
        }
        uniform = true;
        uniformValue = end;
        curMax = end;
        if (random && !failureModel.failuresDuringRecovery()) {
            arrivals.pauseUntil(end);
        }
    }

    private RecoveryShape shapeFor(int[] lostIds, int c, int t, int m) {
        switch (spec.strategy()) {
            case GLOBAL:
                if (identity == null) {
                    identity = new int[n];
                    Arrays.setAll(identity, p -> p);
                }
                return RecoveryShape.everyone(identity, m);
            case MESSAGE_LOG:
                return RecoveryShape.only(lostIds, m);
            case DFR:
            default:
                // a cone that covers everything is run as global rollback, as the runtime does
                return RecoveryShape.cone(analyzer.plan(lostIds, c, t).asRun());
        }
    }

    private void mark(RecoveryShape shape, int[] lostIds) {
        stamp++;
        int[] order = shape.order;
        for (int j = 0; j < order.length; j++) {
            memberStamp[order[j]] = stamp;
            depthOf[order[j]] = shape.depth[j];
        }
        for (int p : lostIds) {
            lostStamp[p] = stamp;
        }
    }

    private double startOf(int q, double start) {
        double s = Math.max(start, curAt(q));
        return lostStamp[q] == stamp ? s + reload : s;
    }

    /**
     * Runs the recovery's levels from {@code start}; sets {@link #attemptEnd} (when every partition can resume
     * {@code t}), {@link #levelOneEnd}, {@link #attemptSeconds} and the tasks (and their seconds) finished by
     * {@code abortAt}.
     */
    private void runLevels(RecoveryShape shape, double start, int c, double abortAt) {
        final int[] rowStart = graph.rowStart;
        final int[] others = graph.others;
        final int[] order = shape.order;
        double end = curMax;
        long before = 0;
        double secondsBefore = 0;
        double seconds = 0;
        levelOneEnd = start;
        if (shape.m > 0 && order.length == n && abortAt == Double.POSITIVE_INFINITY) {
            runEveryone(shape.m, start, c, end);
            return;
        }
        if (shape.m == 0) {
            for (int p : order) {
                end = Math.max(end, startOf(p, start));
            }
        } else {
            int size = shape.levelSize[1];
            for (int j = 0; j < size; j++) {
                int p = order[j];
                double ready = startOf(p, start);
                for (int e = rowStart[p], stop = rowStart[p + 1]; e < stop; e++) {
                    ready = Math.max(ready, startOf(others[e], start) + halo);
                }
                double d = times.of(p, c + 1);
                double g = ready + d;
                gNext[p] = g;
                seconds += d;
                levelOneEnd = Math.max(levelOneEnd, g);
                if (g <= abortAt) {
                    before++;
                    secondsBefore += d;
                }
            }
            end = Math.max(end, levelOneEnd);
            for (int level = 2; level <= shape.m; level++) {
                double[] swap = gPrev;
                gPrev = gNext;
                gNext = swap;
                size = shape.levelSize[level];
                for (int j = 0; j < size; j++) {
                    int p = order[j];
                    double own = gPrev[p];
                    double ready = own;
                    for (int e = rowStart[p], stop = rowStart[p + 1]; e < stop; e++) {
                        int q = others[e];
                        // inside the recovery the neighbour's recomputed state; outside (message log) its log
                        double from = memberStamp[q] == stamp && depthOf[q] >= level - 1 ? gPrev[q] : own;
                        ready = Math.max(ready, from + halo);
                    }
                    double d = times.of(p, c + level);
                    double g = ready + d;
                    gNext[p] = g;
                    seconds += d;
                    if (g > end) {
                        end = g;
                    }
                    if (g <= abortAt) {
                        before++;
                        secondsBefore += d;
                    }
                }
            }
        }
        attemptEnd = end;
        attemptTasksBefore = before;
        attemptSecondsBefore = secondsBefore;
        attemptSeconds = seconds;
    }

    /** Global rollback's levels, everybody at every level: the plain recurrence from the checkpoint reloads. */
    private void runEveryone(int m, double start, int c, double end) {
        for (int q = 0; q < n; q++) {
            gPrev[q] = startOf(q, start);
        }
        double before = taskSeconds;
        for (int level = 1; level <= m; level++) {
            double latest = level(gPrev, gNext, c + level, 0, 0);
            if (level == 1) {
                levelOneEnd = latest;
            }
            end = Math.max(end, latest);
            double[] swap = gPrev;
            gPrev = gNext;
            gNext = swap;
        }
        attemptSeconds = taskSeconds - before;
        taskSeconds = before;
        attemptEnd = end;
        attemptTasksBefore = (long) m * n;
        attemptSecondsBefore = attemptSeconds;
    }

    private double levelOneSeconds(RecoveryShape shape, int c) {
        double s = 0;
        for (int j = 0; j < shape.levelSize[1]; j++) {
            s += times.of(shape.order[j], c + 1);
        }
        return s;
    }

    private RecoveryRecord record(RecoveryShape shape, TreeSet<Integer> lost, int c, int t, int m, long abortedHere,
                                  int attempts, double at, double start, double end) {
        int[] participating = shape.order.clone();
        Arrays.sort(participating);
        return new RecoveryRecord(lost.stream().mapToInt(Integer::intValue).toArray(), c, t, m, shape.work, abortedHere,
                n, participating, attempts, at, start, end);
    }

    private EnergyBreakdown energy(double makespan) {
        PowerModel power = spec.power();
        double busy = taskSeconds + otherBusySeconds;
        double idle = Math.max(0, makespan * n - busy - cappedSeconds);
        double busyJoules = power.taskJoules() > 0
                ? taskCount * power.taskJoules() + otherBusySeconds * power.busyWatts()
                : busy * power.busyWatts();
        return new EnergyBreakdown(busy, idle, cappedSeconds, busyJoules, idle * power.idleWatts(),
                cappedSeconds * power.cappedIdleWatts());
    }
}
