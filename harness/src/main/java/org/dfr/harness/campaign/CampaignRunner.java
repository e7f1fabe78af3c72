package org.dfr.harness.campaign;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.dfr.analysis.ConeAnalyzer;
import org.dfr.harness.Campaign;
import org.dfr.harness.Mode;
import org.dfr.harness.ProcessLauncher;
import org.dfr.harness.RankProcessListener;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.harness.Runner;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.RunFailedException;

/**
 * A campaign as a checker: runs drawn trials one after the other and judges each by its digest (against
 * the sequential reference), its report ({@link TrialChecker}), its time bound and, in processes mode,
 * whether a rank process outlived it. Stops starting trials once its time budget is spent, and at the
 * first hung trial (its members may still hold the machine).
 */
public final class CampaignRunner {

    /** How long a rank process may take to disappear after its run ended. */
    public static final long REAP_MILLIS = 10_000;

    private final long trialBoundMillis;
    private final String replayPrefix;
    private final List<String> rankJvmOptions;

    /**
     * @param trialBoundMillis the most one trial may take before it counts as hung
     * @param replayPrefix the command line that draws the same trials (seed, kernels, kinds, mode);
     *        {@code --replay N} is appended per trial
     * @param rankJvmOptions extra options for rank JVMs in processes mode
     */
    public CampaignRunner(long trialBoundMillis, String replayPrefix, List<String> rankJvmOptions) {
        this.trialBoundMillis = trialBoundMillis;
        this.replayPrefix = replayPrefix;
        this.rankJvmOptions = List.copyOf(rankJvmOptions);
    }

    /** Everything a campaign did. */
    public record Result(List<TrialResult> trials, boolean stoppedEarly, String stopReason) {
        public long count(Outcome outcome) {
            return trials.stream().filter(t -> t.outcome() == outcome).count();
        }

        public boolean passed() {
            return trials.stream().allMatch(t -> t.outcome().passes());
        }
    }

    /**
     * Runs {@code plans} in order until the budget is spent.
     *
     * @param onTrial told after every trial (progress output)
     */
    public Result run(List<TrialPlan> plans, long budgetMillis, Consumer<TrialResult> onTrial) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(budgetMillis);
        Map<RunConfig, String> digests = new HashMap<>();
        List<TrialResult> done = new ArrayList<>();
        for (TrialPlan plan : plans) {
            if (System.nanoTime() > deadline) {
                return new Result(done, true, "time budget spent");
            }
            RunConfig clean = plan.config().withFaults(List.of(), List.of(), java.util.Set.of());
            String expected = digests.computeIfAbsent(clean, Campaign::referenceDigest);
            TrialResult result = runOne(plan, expected);
            done.add(result);
            onTrial.accept(result);
            if (result.outcome() == Outcome.HUNG) {
                return new Result(done, true, "trial " + plan.index() + " hung");
            }
        }
        return new Result(done, false, "");
    }

    private TrialResult runOne(TrialPlan plan, String expected) {
        Map<Integer, ProcessHandle> children = new ConcurrentHashMap<>();
        long start = System.nanoTime();
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "dfr-campaign-trial-" + plan.index());
            t.setDaemon(true);
            return t;
        });
        String replay = replayPrefix + " --replay " + plan.index();
        try {
            Future<RunReport> future = executor.submit(() -> run(plan.config(), children));
            RunReport report;
            try {
                report = future.get(trialBoundMillis, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                future.cancel(true);
                children.values().forEach(ProcessHandle::destroyForcibly);
                return result(plan, Outcome.HUNG, start, 0, "no result within " + trialBoundMillis + " ms", List.of(), replay);
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RunFailedException f && f.kind() == RunFailedException.Kind.CHECKPOINT_LOST) {
                    return result(plan, Outcome.UNRECOVERABLE, start, 0, f.getMessage(), List.of(), replay);
                }
                return result(plan, Outcome.ERROR, start, 0, String.valueOf(cause), List.of(), replay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return result(plan, Outcome.ERROR, start, 0, "interrupted", List.of(), replay);
            }
            long work = report.recoveries().stream().mapToLong(RunReport.Recovery::recomputedPartitionIterations).sum();
            List<Integer> left = leftovers(children);
            if (!left.isEmpty()) {
                return result(plan, Outcome.LEFTOVER, start, work, "rank processes " + left + " still alive "
                        + REAP_MILLIS + " ms after the run", List.of(), replay);
            }
            List<String> violations = TrialChecker.violations(plan.config(), report,
                    new ConeAnalyzer(plan.config().kernelSetup().dependencies()));
            boolean same = expected.equals(report.fieldSha256());
            Outcome outcome = same && violations.isEmpty() ? Outcome.OK : Outcome.WRONG;
            String detail = same ? "" : "digest " + report.fieldSha256() + " != reference " + expected;
            return result(plan, outcome, start, work, detail, violations, replay);
        } finally {
            executor.shutdownNow();
        }
    }

    private RunReport run(RunConfig config, Map<Integer, ProcessHandle> children) {
        if (config.mode() == Mode.PROCESSES) {
            return new ProcessLauncher(new ClusterSettings()).jvmOptions(rankJvmOptions)
                    .runTimeoutMillis(trialBoundMillis)
                    .listener(new RankProcessListener() {
                        @Override
                        public void started(int rank, ProcessHandle process) {
                            children.put(rank, process);
                        }
                    })
                    .run(config);
        }
        return new Runner().run(config);
    }

    /** Ranks whose process is still alive after {@link #REAP_MILLIS}. */
    private static List<Integer> leftovers(Map<Integer, ProcessHandle> children) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REAP_MILLIS);
        for (ProcessHandle p : children.values()) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                try {
                    p.onExit().get(left, TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                } catch (ExecutionException | TimeoutException e) {
                    // judged below
                }
            }
        }
        return children.entrySet().stream()
                .filter(e -> Optional.of(true).equals(ProcessHandle.of(e.getValue().pid()).map(ProcessHandle::isAlive)))
                .map(Map.Entry::getKey).sorted().toList();
    }

    private static TrialResult result(TrialPlan plan, Outcome outcome, long startNanos, long work, String detail,
                                      List<String> violations, String replay) {
        return new TrialResult(plan, outcome, (System.nanoTime() - startNanos) / 1_000_000, work, detail, violations,
                replay);
    }
}
