package org.dfr.harness;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.dfr.recovery.FaultPlan;
import org.dfr.recovery.Strategy;
import org.dfr.runtime.RunFailedException;
import org.dfr.runtime.kernel.ReferenceSolver;

/**
 * A seeded randomized fault-injection campaign: each trial picks a strategy, one or two ranks and
 * their failure iterations at random, runs, and compares the field digest with the sequential
 * reference. The same seed gives the same trials; a time budget bounds the campaign.
 *
 * <p>Outcomes: {@code OK} (the failure-free digest), {@code UNRECOVERABLE} (the run stopped with the
 * clear "no copy of checkpoint" error, {@link RunFailedException.Kind#CHECKPOINT_LOST}, because two
 * simultaneous deaths took both copies: correct
 * behaviour, counted apart), {@code WRONG} (a different digest) and {@code ERROR} (any other
 * failure). Only the last two fail a campaign.
 */
public final class Campaign {

    /** Outcome of one trial. */
    public enum Outcome { OK, UNRECOVERABLE, WRONG, ERROR }

    /** One trial and what happened. */
    public record Trial(int index, String kernel, Strategy strategy, List<FaultPlan.Kill> kills, Outcome outcome,
                        long recomputedPartitionIterations, long millis, String detail) {
    }

    /** Everything the campaign did. */
    public record Result(long seed, List<Trial> trials, boolean stoppedByTimeBudget) {
        public long count(Outcome outcome) {
            return trials.stream().filter(t -> t.outcome() == outcome).count();
        }

        public boolean passed() {
            return count(Outcome.WRONG) == 0 && count(Outcome.ERROR) == 0;
        }
    }

    private final List<RunConfig> bases;
    private final Runner runner;

    /** @param base the kernel, layout, size and length of every trial; its strategy and faults are replaced */
    public Campaign(RunConfig base, Runner runner) {
        this(List.of(base), runner);
    }

    /**
     * A campaign whose trials draw their kernel, layout and size among {@code bases} (seeded, like
     * everything else of a trial).
     */
    public Campaign(List<RunConfig> bases, Runner runner) {
        if (bases.isEmpty()) {
            throw new IllegalArgumentException("a campaign needs at least one run to vary");
        }
        this.bases = List.copyOf(bases);
        this.runner = runner;
    }

    /**
     * Runs up to {@code trials} trials, stopping early once {@code maxMillis} have passed.
     *
     * @param onTrial told after every trial (progress output)
     */
    public Result run(long seed, int trials, long maxMillis, Consumer<Trial> onTrial) {
        if (trials < 1) {
            throw new IllegalArgumentException("trials must be >= 1, got " + trials);
        }
        java.util.Map<RunConfig, String> expectedOf = new java.util.HashMap<>();
        Random random = new Random(seed);
        long deadline = System.nanoTime() + maxMillis * 1_000_000L;
        List<Trial> done = new ArrayList<>();
        boolean stopped = false;
        for (int i = 0; i < trials; i++) {
            if (System.nanoTime() > deadline) {
                stopped = true;
                break;
            }
            // one base: the same draws as before kernels could vary
            RunConfig base = bases.size() == 1 ? bases.get(0) : bases.get(random.nextInt(bases.size()));
            String expected = expectedOf.computeIfAbsent(base, Campaign::referenceDigest);
            int ranks = base.partitionCount();
            Strategy strategy = random.nextBoolean() ? Strategy.DFR : Strategy.GLOBAL;
            int failures = 1 + random.nextInt(2);
            Set<Integer> victims = new TreeSet<>();
            while (victims.size() < failures) {
                victims.add(random.nextInt(ranks));
            }
            List<FaultPlan.Kill> kills = new ArrayList<>();
            int firstIteration = 1 + random.nextInt(base.iterations());
            for (int victim : victims) {
                // a second failure is either simultaneous or later in the run
                int iteration = kills.isEmpty() || random.nextBoolean() ? firstIteration
                        : firstIteration + random.nextInt(base.iterations() - firstIteration + 1);
                kills.add(new FaultPlan.Kill(victim, iteration, FaultPlan.Point.ITERATION_START));
            }
            RunConfig config = base.withStrategy(strategy).withFaults(kills, List.of(), Set.of());
            long start = System.nanoTime();
            Trial trial;
            try {
                RunReport report = runner.run(config);
                long work = report.recoveries().stream()
                        .mapToLong(RunReport.Recovery::recomputedPartitionIterations).sum();
                boolean same = expected.equals(report.fieldSha256());
                trial = new Trial(i, base.kernel().name(), strategy, kills, same ? Outcome.OK : Outcome.WRONG, work, millisSince(start),
                        same ? "" : "digest " + report.fieldSha256() + " != " + expected);
            } catch (RunFailedException e) {
                boolean clear = e.kind() == RunFailedException.Kind.CHECKPOINT_LOST;
                trial = new Trial(i, base.kernel().name(), strategy, kills, clear ? Outcome.UNRECOVERABLE : Outcome.ERROR, 0,
                        millisSince(start), e.getMessage());
            } catch (RuntimeException e) {
                trial = new Trial(i, base.kernel().name(), strategy, kills, Outcome.ERROR, 0, millisSince(start), e.toString());
            }
            done.add(trial);
            onTrial.accept(trial);
        }
        return new Result(seed, done, stopped);
    }

    /** Small odd cells per axis count whose blocks split unevenly: 101, 37x29, 9x7x6. */
    public static List<Integer> smallCells(int axes) {
        return switch (axes) {
            case 1 -> List.of(101);
            case 2 -> List.of(37, 29);
            default -> List.of(9, 7, 6);
        };
    }

    /** 8 partitions shaped like {@code axes}: 8, 2x4, 2x2x2. */
    public static List<Integer> eightPartitions(int axes) {
        return switch (axes) {
            case 1 -> List.of(8);
            case 2 -> List.of(2, 4);
            default -> List.of(2, 2, 2);
        };
    }

    /**
     * One base run per installed kernel (of {@code catalog}), with its default options, small cells and
     * 8 partitions shaped like its axes: a campaign over them draws a kernel per trial.
     */
    public static List<RunConfig> everyKernel(org.dfr.runtime.kernel.KernelCatalog catalog, List<java.nio.file.Path> jars,
                                              int iterations, int checkpointEvery) {
        List<RunConfig> out = new ArrayList<>();
        for (org.dfr.runtime.kernel.KernelProvider p : catalog.providers()) {
            org.dfr.runtime.kernel.KernelChoice choice = org.dfr.runtime.kernel.KernelChoice.of(p.name());
            out.add(new RunConfig(choice, jars, smallCells(p.dimensions()), eightPartitions(p.dimensions()), iterations,
                    org.dfr.runtime.RunSpec.NO_TOLERANCE, checkpointEvery, Mode.EMBEDDED,
                    org.dfr.runtime.RunSpec.DEFAULT_RANKS_PER_HOST, 0, Strategy.DFR, List.of(), List.of(), Set.of(),
                    false, null, null, null));
        }
        return out;
    }

    /** The digest of the sequential reference after the run's iterations (or until it converges). */
    public static String referenceDigest(RunConfig config) {
        ReferenceSolver reference = config.kernelSetup().reference();
        for (int i = 1; i <= config.iterations(); i++) {
            double residual = reference.iterate();
            if (config.runSpec().converged(residual)) {
                break;
            }
        }
        return reference.digest();
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
