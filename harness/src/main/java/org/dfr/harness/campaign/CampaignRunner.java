package org.dfr.harness.campaign;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.dfr.analysis.ConeAnalyzer;
import org.dfr.harness.Campaign;
import org.dfr.harness.Mode;
import org.dfr.harness.ProcessLauncher;
import org.dfr.harness.RankProcessListener;
import org.dfr.harness.Replacement;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.harness.Runner;
import org.dfr.power.sysfs.FakeCpufreqTree;
import org.dfr.recovery.FaultPlan;
import org.dfr.runtime.CheckpointReplication;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.RunFailedException;
import org.dfr.runtime.RunSpec;

/**
 * A campaign as a checker: runs drawn trials one after the other and judges each by its digest (against
 * the sequential reference), its report ({@link TrialChecker}), its time bound, and what it left behind:
 * a rank process that outlived it, a TCP port of the run still listening ({@link PortWatch}), a file of a
 * capped trial's fake sysfs tree not back to its original value, or a restore journal. Stops starting trials once its time budget is spent, and at the
 * first hung trial (its members may still hold the machine).
 */
public final class CampaignRunner {

    /** How long a rank process may take to disappear after its run ended. */
    public static final long REAP_MILLIS = 10_000;

    /** How long the ports of a finished run may take to close before they count as left bound. */
    public static final long PORT_RELEASE_MILLIS = 5_000;

    /** {@code cpuinfo_min_freq} of the fake sysfs tree of a capped trial: the frequency a cap sets. */
    public static final long FAKE_MIN_KHZ = 800_000;

    /** {@code cpuinfo_max_freq} (and the uncapped {@code scaling_max_freq}) of the fake sysfs tree. */
    public static final long FAKE_MAX_KHZ = 2_400_000;

    private final long trialBoundMillis;
    private final String replayPrefix;
    private final List<String> rankJvmOptions;
    private long heartbeatTimeoutMillis = ClusterSettings.DEFAULT_MAX_NO_HEARTBEAT_MILLIS;
    private int checkpointBackups = ClusterSettings.DEFAULT_CHECKPOINT_BACKUPS;
    private CheckpointReplication checkpointReplication = ClusterSettings.DEFAULT_CHECKPOINT_REPLICATION;
    private Consumer<RunConfig> afterRun = config -> { };
    private RankProcessListener rankProcessListener = RankProcessListener.NONE;

    /**
     * @param trialBoundMillis the most one trial may take before it counts as hung
     * @param replayPrefix the command line that draws the same trials (seed, kernels, kinds, mode);
     *        {@code --replay N --replacement R} is appended per trial
     * @param rankJvmOptions extra options for rank JVMs in processes mode
     */
    public CampaignRunner(long trialBoundMillis, String replayPrefix, List<String> rankJvmOptions) {
        this.trialBoundMillis = trialBoundMillis;
        this.replayPrefix = replayPrefix;
        this.rankJvmOptions = List.copyOf(rankJvmOptions);
    }

    /** The heartbeat timeout of every trial's cluster (Hazelcast counts whole seconds); default 10 s. */
    public CampaignRunner heartbeatTimeoutMillis(long millis) {
        if (millis < 1000 || millis > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--heartbeat-timeout-millis must be 1000.." + Integer.MAX_VALUE
                    + ", got " + millis);
        }
        this.heartbeatTimeoutMillis = millis;
        return this;
    }

    /**
     * The backups of every replicated checkpoint in every trial's cluster ({@link ClusterSettings#checkpointBackups});
     * with fewer, more trials with several deaths lose every copy and recover from where the run started (a pass when
     * the digest is right; after a single death the checker calls it WRONG, whatever the backups).
     */
    public CampaignRunner checkpointBackups(int count) {
        this.checkpointBackups = ClusterSettings.requireCheckpointBackups(count);
        return this;
    }

    /** What carries the checkpoint copies in every trial's cluster ({@link ClusterSettings#checkpointReplication}). */
    public CampaignRunner checkpointReplication(CheckpointReplication value) {
        this.checkpointReplication = value == null ? ClusterSettings.DEFAULT_CHECKPOINT_REPLICATION : value;
        return this;
    }

    /**
     * Called after each trial's run ended and before what it left behind is checked, with the
     * configuration as run (a capped trial's fake sysfs tree and journal directory included). For tests of
     * the checker itself, which break on purpose what a trial leaves behind; nothing by default.
     */
    public CampaignRunner afterRun(Consumer<RunConfig> action) {
        this.afterRun = Objects.requireNonNull(action);
        return this;
    }

    /** Also told about every rank process a processes-mode trial starts (tests watch them); none by default. */
    public CampaignRunner rankProcessListener(RankProcessListener listener) {
        this.rankProcessListener = Objects.requireNonNull(listener);
        return this;
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

    /** Set by a trial whose failed embedded run left a rank thread running (see RunFailedException.Kind.RANK_STUCK). */
    private boolean rankStuck;

    /**
     * Runs {@code plans} in order until the budget is spent, a trial hangs, or a trial leaves a rank thread running.
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
            RunConfig clean = plan.config().withFaults(List.of(), List.of(), Set.of())
                    .withCapping(false, null, null);
            String expected = digests.computeIfAbsent(clean, Campaign::referenceDigest);
            TrialResult result = runOne(plan, expected);
            done.add(result);
            onTrial.accept(result);
            if (result.outcome() == Outcome.HUNG) {
                return new Result(done, true, "trial " + plan.index() + " hung");
            }
            if (rankStuck) {
                // its thread spins on in this JVM: every later trial would share a core with it
                return new Result(done, true, "trial " + plan.index() + " left a rank thread running in this JVM");
            }
        }
        return new Result(done, false, "");
    }

    private TrialResult runOne(TrialPlan plan, String expected) {
        Map<Integer, ProcessHandle> children = new ConcurrentHashMap<>();
        long start = System.nanoTime();
        // the replacement is drawn with the trial; naming it keeps the line self-describing (and lets a replay try another)
        String replay = replayPrefix + " --replay " + plan.index() + " --replacement " + plan.replacement().optionValue();
        RunConfig config = plan.config();
        Path fakeSysfs = null;
        SysfsSnapshot sysfsBefore = null;
        if (config.capIdleHosts()) {
            try {
                fakeSysfs = Files.createTempDirectory("dfr-campaign-sysfs-");
                Path root = FakeCpufreqTree.create(fakeSysfs.resolve("sysfs"), config.runSpec().hostCount(),
                        FAKE_MIN_KHZ, FAKE_MAX_KHZ);
                config = config.withCapping(true, root, fakeSysfs.resolve("journals"));
                sysfsBefore = SysfsSnapshot.of(root);
            } catch (IOException e) {
                return result(plan, Outcome.ERROR, start, 0, "cannot make a fake sysfs tree: " + e.getMessage(),
                        List.of(), replay, List.of());
            }
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "dfr-campaign-trial-" + plan.index());
            t.setDaemon(true);
            return t;
        });
        PortWatch ports = new PortWatch(() -> List.copyOf(children.values()));
        try {
            RunConfig run = config;
            Future<RunReport> future = executor.submit(() -> run(run, plan.replacement(), children));
            Outcome outcome;
            long work = 0;
            List<RunReport.Recovery> recoveries = List.of();
            String detail;
            List<String> violations = List.of();
            try {
                RunReport report = future.get(trialBoundMillis, TimeUnit.MILLISECONDS);
                work = report.recoveries().stream().mapToLong(RunReport.Recovery::recomputedPartitionIterations).sum();
                recoveries = report.recoveries();
                violations = TrialChecker.violations(plan.config(), plan.replacement(), report,
                        new ConeAnalyzer(plan.config().kernelSetup().dependencies()));
                boolean same = expected.equals(report.fieldSha256());
                outcome = same && violations.isEmpty() ? Outcome.OK : Outcome.WRONG;
                detail = same ? "" : "digest " + report.fieldSha256() + " != reference " + expected;
            } catch (TimeoutException e) {
                future.cancel(true);
                children.values().forEach(ProcessHandle::destroyForcibly);
                // its members may still run: nothing left behind can be judged
                return result(plan, Outcome.HUNG, start, 0, "no result within " + trialBoundMillis + " ms", List.of(),
                        replay, names(ports.seen()));
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                // every checkpoint has a copy on another host, so one death (a rank's or a host's) never loses one:
                // counted among the ranks dead when the run failed, not the plan's (seed 132, trial 0 lost a copy
                // with one death, its second planned one still to come, and passed)
                boolean lost = cause instanceof RunFailedException f && f.kind() == RunFailedException.Kind.CHECKPOINT_LOST
                        && deathsAmong(plan.config(), f.deadRanks()) >= 2;
                outcome = lost ? Outcome.UNRECOVERABLE : Outcome.ERROR;
                detail = lost ? cause.getMessage() : String.valueOf(cause);
                rankStuck = cause instanceof RunFailedException f && f.kind() == RunFailedException.Kind.RANK_STUCK;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return result(plan, Outcome.ERROR, start, 0, "interrupted", List.of(), replay, names(ports.seen()));
            }
            ports.close();
            afterRun.accept(config);
            List<String> left = leftBehind(children, ports, config, sysfsBefore);
            if (!left.isEmpty()) {
                // a wrong result or an error says more than what it left behind: both are told
                outcome = outcome.passes() ? Outcome.LEFTOVER : outcome;
                left.add(0, detail);
                detail = String.join("; ", left.stream().filter(x -> !x.isEmpty()).toList());
            }
            return new TrialResult(plan, outcome, (System.nanoTime() - start) / 1_000_000, work, detail, violations, replay,
                    names(ports.seen()), recoveries);
        } finally {
            ports.close();
            executor.shutdownNow();
            if (fakeSysfs != null) {
                deleteQuietly(fakeSysfs);
            }
        }
    }

    /** What the run left behind: rank processes, listening ports, sysfs files not restored, journals. */
    private static List<String> leftBehind(Map<Integer, ProcessHandle> children, PortWatch ports, RunConfig config,
                                           SysfsSnapshot sysfsBefore) {
        List<String> out = new ArrayList<>();
        List<Integer> alive = leftovers(children);
        if (!alive.isEmpty()) {
            out.add("rank processes " + alive + " still alive " + REAP_MILLIS + " ms after the run");
        }
        List<String> listening = ports.stillListening(PORT_RELEASE_MILLIS);
        if (!listening.isEmpty()) {
            out.add("ports still listening " + PORT_RELEASE_MILLIS + " ms after the run: " + String.join(", ", listening));
        }
        if (sysfsBefore != null) {
            out.addAll(sysfsBefore.changesIn(SysfsSnapshot.of(sysfsBefore.root())));
            if (Files.isDirectory(config.journal())) {
                try (Stream<Path> journals = Files.list(config.journal())) {
                    journals.forEach(j -> out.add("restore journal " + j.getFileName() + " left"));
                } catch (IOException e) {
                    out.add("cannot list the restore journals: " + e.getMessage());
                }
            }
        }
        return out;
    }

    private static List<String> names(Set<ListeningPorts.Endpoint> endpoints) {
        return endpoints.stream().map(ListeningPorts.Endpoint::toString).toList();
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // a temporary directory: the system cleans it eventually
                }
            });
        } catch (IOException e) {
            // same
        }
    }

    private RunReport run(RunConfig config, Replacement replacement, Map<Integer, ProcessHandle> children) {
        // a fresh cluster per trial, whose heartbeat timeout the pauses were drawn against
        ClusterSettings settings = replacement.applyTo(new ClusterSettings()
                .maxNoHeartbeatMillis(Math.toIntExact(heartbeatTimeoutMillis))
                .checkpointBackups(checkpointBackups)
                .checkpointReplication(checkpointReplication));
        if (config.mode() == Mode.PROCESSES) {
            return new ProcessLauncher(settings).jvmOptions(rankJvmOptions)
                    .runTimeoutMillis(trialBoundMillis)
                    .listener(new RankProcessListener() {
                        @Override
                        public void started(int rank, ProcessHandle process) {
                            children.put(rank, process);
                            rankProcessListener.started(rank, process);
                        }
                    })
                    .run(config);
        }
        return new Runner(settings).run(config);
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
                                      List<String> violations, String replay, List<String> ports) {
        return new TrialResult(plan, outcome, (System.nanoTime() - startNanos) / 1_000_000, work, detail, violations,
                replay, ports);
    }

    /**
     * The deaths among {@code dead}, the ranks that had died when the run failed: a failed host is one death, whichever
     * of its ranks died, and so is a rank the plan kills on its own, unless it is on a failed host and its own kill
     * comes no earlier than the host's (it died with the host) or it was to die in a recovery (its host's came first);
     * a rank dead without a plan (killed from outside) is one death too. Counted low when unsure: a lost checkpoint
     * after one death must show as an ERROR.
     */
    static int deathsAmong(RunConfig config, Collection<Integer> dead) {
        Map<Integer, Integer> ownKill = new HashMap<>();
        config.kills().stream().filter(k -> k.point().isDeath())
                .forEach(k -> ownKill.merge(k.rank(), k.iteration(), Math::min));
        Map<Integer, Integer> hostFailure = new HashMap<>();
        config.hostFailures().forEach(h -> hostFailure.merge(h.rank(), h.iteration(), Math::min));
        RunSpec spec = config.runSpec();
        Set<Death> deaths = new HashSet<>();
        for (int r : dead) {
            Integer host = r < spec.memberCount() ? spec.hostOf(r) : null;
            Integer hostAt = host == null ? null : hostFailure.get(host);
            Integer own = ownKill.get(r);
            boolean alone = hostAt == null || own != null && own < hostAt;
            // a rank to die in a recovery, on a failed host, went with its host (it has no own kill to compare)
            deaths.add(alone ? new Death(false, r) : new Death(true, host));
        }
        return deaths.size();
    }

    /** One death: a host's, or a rank's on its own. */
    private record Death(boolean host, int id) {
    }
}
