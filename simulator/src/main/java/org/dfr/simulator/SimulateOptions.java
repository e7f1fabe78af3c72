package org.dfr.simulator;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.dfr.analysis.CommitLag;

/**
 * Options of {@link SimulatorApp#run}: what {@code dfr simulate} takes. Every field has a named default
 * ({@link #defaults()}, the paper's Fig. 6 setting); {@link Builder} changes some of them.
 *
 * <p>A preset fixes the node counts, dimensions and checkpoint sweep that are left empty:
 * <ul>
 *   <li>{@code paper-fig6}: 1D, 2D (5-point, near-square) and 3D (7-point, near-cubic) at 100..1000 nodes in
 *       steps of 100 plus 10^4 and 10^5; checkpoint sweep K = 1..16 at 1000 nodes (1D);</li>
 *   <li>{@code quick}: 16, 32, 64 and 128 nodes in 1D/2D/3D; checkpoint sweep K = 1, 2, 4, ..., 16 at 64 nodes;</li>
 *   <li>{@code custom}: nothing; {@code nodes} must be given.</li>
 * </ul>
 *
 * @param preset                 {@code paper-fig6} (default), {@code quick} or {@code custom}
 * @param nodes                  node counts of the node sweep; empty = the preset's
 * @param dimensions             decompositions to sweep, each 1, 2 or 3; empty = the preset's
 * @param seeds                  runs per point (default 10)
 * @param firstSeed              seed of the first run (default 1)
 * @param iterations             iterations per run (default 1000)
 * @param checkpointEvery        K of the node sweep, iterations (default 6)
 * @param checkpointSweep        K values of the checkpoint-interval sweep; empty = the preset's
 * @param checkpointSweepNodes   nodes of the checkpoint-interval sweep (in the dimension of {@code dimensions} when it
 *                              names one, else 1D); 0 = the preset's
 * @param skipCheckpointSweep    whether to skip the checkpoint-interval sweep (default false)
 * @param mtbfHours              MTBF of one node, h (default 100)
 * @param taskSeconds            compute time of a task, s (default 10)
 * @param taskJitter             relative spread of task times, [0, 1) (default 0: constant)
 * @param partitionBytes         bytes per partition, moved by each halo exchange and checkpoint (default 1.25e8)
 * @param linkBitsPerSecond      link bandwidth, bit/s (default 1e9)
 * @param latencySeconds         per-message latency, s (default 5e-5)
 * @param detectionSeconds       failure detection time, s (default 0)
 * @param replacementSeconds     replacement time, s (default 0)
 * @param failuresDuringRecovery whether failures may strike during recoveries (default false)
 * @param strategies             strategies to compare (default global, dfr, message-log)
 * @param busyWatts              power computing, W (default 125)
 * @param idleWatts              power waiting uncapped, W (default 125)
 * @param cappedIdleWatts        power idle and capped during recovery, W (default 110)
 * @param taskJoules             fixed energy per task, J; 0 = busy power x task time (default 0)
 * @param threads                worker threads, 0 = every core (default 0)
 * @param out                    output directory for CSV and PNG files (default {@code simulate-out})
 * @param commitLagIterations    a checkpoint counts only {@code L} iterations after it is taken, below
 *                               {@code checkpointEvery} (default 0: at once, the paper's model; the checkpoint
 *                               sweep uses at most {@code K-1}); see {@link SimulationSpec#commitLagIterations}
 * @param maxFailures            a run stops, counted as incomplete, after this many failures (default 10^7): the
 *                               bound on a run whose failures come faster than it progresses
 */
public record SimulateOptions(String preset, List<Integer> nodes, List<Integer> dimensions, int seeds, long firstSeed,
                              int iterations, int checkpointEvery, List<Integer> checkpointSweep,
                              int checkpointSweepNodes, boolean skipCheckpointSweep, double mtbfHours,
                              double taskSeconds, double taskJitter, double partitionBytes, double linkBitsPerSecond,
                              double latencySeconds, double detectionSeconds, double replacementSeconds,
                              boolean failuresDuringRecovery, List<Strategy> strategies, double busyWatts,
                              double idleWatts, double cappedIdleWatts, double taskJoules, int threads, Path out,
                              int commitLagIterations, long maxFailures) {

    /** The presets {@link #preset} accepts. */
    public static final List<String> PRESETS = List.of("paper-fig6", "quick", "custom");

    /** Validates every value; the message names the bad value and what is allowed. */
    public SimulateOptions {
        if (preset == null || !PRESETS.contains(preset)) {
            throw new IllegalArgumentException("preset '" + preset + "' is unknown; allowed: " + String.join(", ", PRESETS));
        }
        nodes = List.copyOf(nodes);
        dimensions = List.copyOf(dimensions);
        checkpointSweep = List.copyOf(checkpointSweep);
        strategies = List.copyOf(strategies);
        for (int n : nodes) {
            if (n < 1) {
                throw new IllegalArgumentException("nodes must each be at least 1 but one was " + n);
            }
        }
        if (preset.equals("custom") && nodes.isEmpty()) {
            throw new IllegalArgumentException("preset custom needs node counts (nodes) but none were given");
        }
        for (int d : dimensions) {
            if (d < 1 || d > 3) {
                throw new IllegalArgumentException("dimensions must each be 1, 2 or 3 but one was " + d);
            }
        }
        for (int k : checkpointSweep) {
            if (k < 1) {
                throw new IllegalArgumentException("checkpoint sweep intervals must each be at least 1 but one was " + k);
            }
        }
        if (strategies.isEmpty()) {
            throw new IllegalArgumentException("strategies must name at least one of global, dfr, message-log but was empty");
        }
        Checks.atLeast("seeds", seeds, 1);
        Checks.atLeast("iterations", iterations, 1);
        Checks.atLeast("checkpointEvery", checkpointEvery, 1);
        Checks.atLeast("checkpointSweepNodes", checkpointSweepNodes, 0);
        Checks.atLeast("threads", threads, 0);
        Checks.atLeast("maxFailures", maxFailures, 1);
        if (!CommitLag.isAllowed(commitLagIterations, checkpointEvery)) {
            throw new IllegalArgumentException("commitLagIterations must be " + CommitLag.allowed(checkpointEvery)
                    + " with checkpointEvery " + checkpointEvery + " but was " + commitLagIterations);
        }
        Checks.positive("mtbfHours", mtbfHours);
        if (out == null) {
            throw new IllegalArgumentException("out must name an output directory but was null");
        }
        // the model records check the rest and name the value
        timing(taskSeconds, taskJitter, partitionBytes, linkBitsPerSecond, latencySeconds);
        new FailureModel(mtbfHours * 3600, FailureDistribution.EXPONENTIAL, 0.7, detectionSeconds, replacementSeconds, 0,
                failuresDuringRecovery, 1, FailureModel.PAPER.maxFailures());
        new PowerModel(busyWatts, idleWatts, cappedIdleWatts, taskJoules, true);
    }

    private static TimingModel timing(double task, double jitter, double bytes, double bits, double latency) {
        return new TimingModel(task, jitter, bytes, bits, latency, TimingModel.PAPER.logBytesPerSecond());
    }

    /** The paper's Fig. 6 setting, written to {@code simulate-out}. */
    public static SimulateOptions defaults() {
        return new Builder().build();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Node counts to sweep: the given ones, else the preset's. */
    public List<Integer> resolvedNodes() {
        if (!nodes.isEmpty()) {
            return nodes;
        }
        if (preset.equals("quick")) {
            return List.of(16, 32, 64, 128);
        }
        List<Integer> paper = new ArrayList<>(IntStream.rangeClosed(1, 10).map(i -> i * 100).boxed().toList());
        paper.add(10_000);
        paper.add(100_000);
        return List.copyOf(paper);
    }

    /** Dimensions to sweep: the given ones, else 1, 2 and 3 (1 for custom). */
    public List<Integer> resolvedDimensions() {
        if (!dimensions.isEmpty()) {
            return dimensions;
        }
        return preset.equals("custom") ? List.of(1) : List.of(1, 2, 3);
    }

    /** Intervals of the checkpoint sweep: the given ones, else the preset's; empty when skipped. */
    public List<Integer> resolvedCheckpointSweep() {
        if (skipCheckpointSweep) {
            return List.of();
        }
        if (!checkpointSweep.isEmpty()) {
            return checkpointSweep;
        }
        return switch (preset) {
            case "paper-fig6" -> IntStream.rangeClosed(1, 16).boxed().toList();
            // its Young/Daly interval is about 9.6 iterations at 64 nodes: 1..8 put every optimum at the sweep's edge
            case "quick" -> List.of(1, 2, 4, 6, 8, 10, 12, 14, 16);
            default -> List.of();
        };
    }

    /** Nodes of the checkpoint sweep: the given count, else the preset's (1000, quick 64, custom the largest node count). */
    public int resolvedCheckpointSweepNodes() {
        if (checkpointSweepNodes > 0) {
            return checkpointSweepNodes;
        }
        return switch (preset) {
            case "paper-fig6" -> 1000;
            case "quick" -> 64;
            default -> resolvedNodes().stream().mapToInt(Integer::intValue).max().orElse(1);
        };
    }

    /** The timing model these options describe. */
    public TimingModel timingModel() {
        return timing(taskSeconds, taskJitter, partitionBytes, linkBitsPerSecond, latencySeconds);
    }

    /** The failure model these options describe. */
    public FailureModel failureModel() {
        return FailureModel.PAPER.withNodeMtbfSeconds(mtbfHours * 3600)
                .withDetectionAndReplacement(detectionSeconds, replacementSeconds)
                .withFailuresDuringRecovery(failuresDuringRecovery).withMaxFailures(maxFailures);
    }

    /** The power model these options describe. */
    public PowerModel powerModel() {
        return new PowerModel(busyWatts, idleWatts, cappedIdleWatts, taskJoules, true);
    }

    /** Fluent changes to {@link SimulateOptions}; {@link #build()} validates. */
    public static final class Builder {
        private String preset = "paper-fig6";
        private List<Integer> nodes = List.of();
        private List<Integer> dimensions = List.of();
        private int seeds = 10;
        private long firstSeed = 1;
        private int iterations = 1000;
        private int checkpointEvery = 6;
        private List<Integer> checkpointSweep = List.of();
        private int checkpointSweepNodes;
        private boolean skipCheckpointSweep;
        private double mtbfHours = 100;
        private double taskSeconds = TimingModel.PAPER.taskSeconds();
        private double taskJitter = TimingModel.PAPER.taskJitter();
        private double partitionBytes = TimingModel.PAPER.partitionBytes();
        private double linkBitsPerSecond = TimingModel.PAPER.linkBitsPerSecond();
        private double latencySeconds = TimingModel.PAPER.latencySeconds();
        private double detectionSeconds;
        private double replacementSeconds;
        private boolean failuresDuringRecovery;
        private List<Strategy> strategies = List.of(Strategy.values());
        private double busyWatts = PowerModel.PAPER.busyWatts();
        private double idleWatts = PowerModel.PAPER.idleWatts();
        private double cappedIdleWatts = PowerModel.PAPER.cappedIdleWatts();
        private double taskJoules = PowerModel.PAPER.taskJoules();
        private int threads;
        private Path out = Path.of("simulate-out");
        private int commitLagIterations;
        private long maxFailures = FailureModel.PAPER.maxFailures();

        /** Starts from the defaults. */
        public Builder() {
        }

        private Builder(SimulateOptions o) {
            preset = o.preset;
            nodes = o.nodes;
            dimensions = o.dimensions;
            seeds = o.seeds;
            firstSeed = o.firstSeed;
            iterations = o.iterations;
            checkpointEvery = o.checkpointEvery;
            checkpointSweep = o.checkpointSweep;
            checkpointSweepNodes = o.checkpointSweepNodes;
            skipCheckpointSweep = o.skipCheckpointSweep;
            mtbfHours = o.mtbfHours;
            taskSeconds = o.taskSeconds;
            taskJitter = o.taskJitter;
            partitionBytes = o.partitionBytes;
            linkBitsPerSecond = o.linkBitsPerSecond;
            latencySeconds = o.latencySeconds;
            detectionSeconds = o.detectionSeconds;
            replacementSeconds = o.replacementSeconds;
            failuresDuringRecovery = o.failuresDuringRecovery;
            strategies = o.strategies;
            busyWatts = o.busyWatts;
            idleWatts = o.idleWatts;
            cappedIdleWatts = o.cappedIdleWatts;
            taskJoules = o.taskJoules;
            threads = o.threads;
            out = o.out;
            commitLagIterations = o.commitLagIterations;
            maxFailures = o.maxFailures;
        }

        public Builder preset(String v) { preset = v; return this; }
        public Builder nodes(List<Integer> v) { nodes = v; return this; }
        public Builder dimensions(List<Integer> v) { dimensions = v; return this; }
        public Builder seeds(int v) { seeds = v; return this; }
        public Builder firstSeed(long v) { firstSeed = v; return this; }
        public Builder iterations(int v) { iterations = v; return this; }
        public Builder checkpointEvery(int v) { checkpointEvery = v; return this; }
        public Builder checkpointSweep(List<Integer> v) { checkpointSweep = v; return this; }
        public Builder checkpointSweepNodes(int v) { checkpointSweepNodes = v; return this; }
        public Builder skipCheckpointSweep(boolean v) { skipCheckpointSweep = v; return this; }
        public Builder mtbfHours(double v) { mtbfHours = v; return this; }
        public Builder taskSeconds(double v) { taskSeconds = v; return this; }
        public Builder taskJitter(double v) { taskJitter = v; return this; }
        public Builder partitionBytes(double v) { partitionBytes = v; return this; }
        public Builder linkBitsPerSecond(double v) { linkBitsPerSecond = v; return this; }
        public Builder latencySeconds(double v) { latencySeconds = v; return this; }
        public Builder detectionSeconds(double v) { detectionSeconds = v; return this; }
        public Builder replacementSeconds(double v) { replacementSeconds = v; return this; }
        public Builder failuresDuringRecovery(boolean v) { failuresDuringRecovery = v; return this; }
        public Builder strategies(List<Strategy> v) { strategies = v; return this; }
        public Builder busyWatts(double v) { busyWatts = v; return this; }
        public Builder idleWatts(double v) { idleWatts = v; return this; }
        public Builder cappedIdleWatts(double v) { cappedIdleWatts = v; return this; }
        public Builder taskJoules(double v) { taskJoules = v; return this; }
        public Builder threads(int v) { threads = v; return this; }
        public Builder out(Path v) { out = v; return this; }
        public Builder commitLagIterations(int v) { commitLagIterations = v; return this; }
        public Builder maxFailures(long v) { maxFailures = v; return this; }

        /** @throws IllegalArgumentException naming the first bad value */
        public SimulateOptions build() {
            return new SimulateOptions(preset, nodes, dimensions, seeds, firstSeed, iterations, checkpointEvery,
                    checkpointSweep, checkpointSweepNodes, skipCheckpointSweep, mtbfHours, taskSeconds, taskJitter,
                    partitionBytes, linkBitsPerSecond, latencySeconds, detectionSeconds, replacementSeconds,
                    failuresDuringRecovery, strategies, busyWatts, idleWatts, cappedIdleWatts, taskJoules, threads, out,
                    commitLagIterations, maxFailures);
        }
    }
}
