package org.dfr.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.dfr.cli.logging.RankLogFiles;
import org.dfr.cli.options.CheckpointCopiesMixin;
import org.dfr.cli.options.CliFiles;
import org.dfr.cli.options.KernelMixin;
import org.dfr.cli.options.Ranges;
import org.dfr.cli.options.Sizes;
import org.dfr.cli.options.SizesConverter;
import org.dfr.harness.Campaign;
import org.dfr.harness.KernelJars;
import org.dfr.harness.Mode;
import org.dfr.harness.Replacement;
import org.dfr.harness.RunConfig;
import org.dfr.harness.campaign.CampaignFiles;
import org.dfr.harness.campaign.CampaignRunner;
import org.dfr.harness.campaign.FaultKind;
import org.dfr.harness.campaign.Outcome;
import org.dfr.harness.campaign.TrialDraw;
import org.dfr.harness.campaign.TrialPlan;
import org.dfr.harness.campaign.TrialResult;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.kernel.KernelChoice;
import org.dfr.runtime.kernel.KernelProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code dfr campaign}: a seeded randomized fault-injection campaign that checks every trial: the digest
 * against the sequential reference, the report against the analyzer's cone, the time bound, and what a
 * trial left behind (rank processes, listening ports, fake sysfs files not restored). Failing trials come with the command that replays them.
 */
@Command(name = "campaign", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs randomized failure trials (seeded) and checks each: digest = sequential reference, report"
                + " well-formed with every recovery's cone = the analyzer's, no recovery after a mere pause, within"
                + " its time bound, no rank process, listening port or changed fake sysfs file left.",
                "Exit code 1 if any trial is WRONG, ERROR, HUNG or LEFTOVER."},
        footer = {"", "Examples:", "  dfr campaign --trials 1000 --seed 7 --max-seconds 7200",
                "  dfr campaign --kernel any --faults all --trials 200 --report campaign.json",
                "  dfr campaign --mode processes --kernel any --faults all --trials 20",
                "  dfr campaign --kernel any --faults all --seed 7 --replay 13     (one trial again)",
                "  dfr campaign --mode processes --faults all --seed 7 --replay 3 --replacement adopt"})
public final class CampaignCommand implements Callable<Integer> {

    /** {@code --kernel any}: every trial draws one of the installed kernels. */
    public static final String ANY_KERNEL = "any";

    /** Which failure kinds trials draw. */
    public enum Faults {
        /** Deaths at the start of an iteration only. */
        CLASSIC,
        /**
         * Every kind: start, reduction, after the checkpoint write, during recovery, host, coordinator, root,
         * halo exchange, agreement and pauses; spares and capping on a fake sysfs tree in some trials.
         */
        ALL
    }

    @Spec
    CommandSpec spec;

    @Mixin
    KernelMixin kernel;

    @Option(names = "--trials", paramLabel = "N", defaultValue = "50", description = "Number of trials. Default: ${DEFAULT-VALUE}.")
    int trials;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "1", description = "Random seed. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--mode", paramLabel = "embedded|processes", defaultValue = "embedded",
            description = "Ranks as members in this JVM, or one JVM per rank killed with SIGKILL. Default: ${DEFAULT-VALUE}.")
    Mode mode;

    @Option(names = "--faults", paramLabel = "classic|all", defaultValue = "classic",
            description = "Failure kinds to draw: classic (start of an iteration) or all. Default: ${DEFAULT-VALUE}.")
    Faults faults;

    @Option(names = "--max-failures", paramLabel = "F", defaultValue = "2",
            description = "Failures per trial, 1..3 (drawn uniformly from 1..F). Default: ${DEFAULT-VALUE}.")
    int maxFailures;

    @Option(names = "--max-seconds", paramLabel = "S", defaultValue = "3600",
            description = "Stop starting new trials after this long. Default: ${DEFAULT-VALUE}.")
    long maxSeconds;

    @Option(names = "--trial-seconds", paramLabel = "S",
            description = "A trial taking longer is HUNG and ends the campaign. Default: " + EMBEDDED_TRIAL_SECONDS
                    + " in embedded mode, " + PROCESSES_TRIAL_SECONDS + " in processes mode.")
    Long trialSeconds;

    /** The trial bound in embedded mode. */
    static final long EMBEDDED_TRIAL_SECONDS = 180;
    /**
     * The trial bound in processes mode: a trial may form its cluster twice, each up to the 60 s join limit, with 8
     * or more JVMs starting on 2 cores; at a load of 46 a formation took 116 s and the second did not fit in 180 s
     * (campaign seed 132, session 30), and later processes campaigns ran with 400.
     */
    static final long PROCESSES_TRIAL_SECONDS = 400;

    @Option(names = "--ranks-grid", paramLabel = "PX[xPY[xPZ]]", converter = SizesConverter.class,
            description = "Partitions per axis. Default: 8, 2x4 or 2x2x2 by the kernel's axes.")
    Sizes ranksGrid;

    @Option(names = "--cells", paramLabel = "NX[xNY[xNZ]]", converter = SizesConverter.class,
            description = "Cells per axis. Default: 101, 37x29 or 9x7x6 by the kernel's axes.")
    Sizes cells;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "12", converter = Ranges.AtLeastOne.class, description = "Iterations per trial. Default: ${DEFAULT-VALUE}.")
    int iterations;

    @Option(names = "--checkpoint-every", paramLabel = "K", defaultValue = "4", description = "Checkpoint interval. Default: ${DEFAULT-VALUE}.")
    int checkpointEvery;

    @Option(names = "--heartbeat-timeout-millis", paramLabel = "MS", converter = Ranges.HeartbeatMillis.class,
            defaultValue = "" + ClusterSettings.DEFAULT_MAX_NO_HEARTBEAT_MILLIS,
            description = "Heartbeat timeout of every trial's cluster (>= 1000, whole seconds); pauses last 20-50 %%"
                    + " of it and must not trigger a recovery. Default: ${DEFAULT-VALUE}.")
    long heartbeatTimeoutMillis;

    @Mixin
    CheckpointCopiesMixin checkpointCopies;

    @Option(names = "--replay", paramLabel = "N", description = "Run only trial N of this seed (a failing trial's line says how).")
    Integer replay;

    @Option(names = "--replacement", paramLabel = "spare|adopt|respawn",
            description = {"With --replay: run the trial with this replacement (default: the one drawn, which a",
                    "failing trial's replay line names). Trials draw theirs: spare with a spare rank, else adopt or",
                    "(processes mode) respawn."})
    String replacement;

    @Option(names = "--report", paramLabel = "FILE.json",
            description = "Write every trial (JSON) to FILE and a CSV row per trial next to it (FILE.csv).")
    Path report;

    @Option(names = "--trial-log-dir", paramLabel = "DIR",
            description = "Where a failing trial's log is written (campaign-SEED-trial-N.log): this JVM's own log"
                    + " (org.dfr at DEBUG; in embedded mode every rank's), kept in memory while the trial runs, and in"
                    + " processes mode every rank process's own log after it. Default: the --report file's directory,"
                    + " else the temporary directory.")
    Path trialLogDir;

    @Override
    public Integer call() {
        if (checkpointEvery < 1) {
            throw new ParameterException(spec.commandLine(), "--checkpoint-every " + checkpointEvery
                    + " is not allowed: give a number of iterations >= 1");
        }
        if (trials < 1) {
            throw new ParameterException(spec.commandLine(), "--trials must be >= 1, got " + trials);
        }
        if (maxSeconds < 1) {
            throw new ParameterException(spec.commandLine(), "--max-seconds must be >= 1, got " + maxSeconds);
        }
        if (trialSeconds == null) {
            trialSeconds = mode == Mode.PROCESSES ? PROCESSES_TRIAL_SECONDS : EMBEDDED_TRIAL_SECONDS;
        }
        if (trialSeconds < 1) {
            throw new ParameterException(spec.commandLine(), "--trial-seconds must be >= 1, got " + trialSeconds);
        }
        if (replay != null && replay < 0) {
            throw new ParameterException(spec.commandLine(), "--replay " + replay + ": trials are numbered from 0");
        }
        if (replay != null && spec.commandLine().getParseResult().hasMatchedOption("--trials")) {
            throw new ParameterException(spec.commandLine(), "--trials " + trials + " is not used with --replay "
                    + replay + ", which runs that one trial: leave out one of them");
        }
        int backups = checkpointCopies.validated(spec);
        if (replacement != null && replay == null) {
            throw new ParameterException(spec.commandLine(), "--replacement " + replacement
                    + " needs --replay N: a campaign draws each trial's replacement");
        }
        CliFiles.requireWritableTarget(spec, "--report", report);
        Path logDir = trialLogDir != null ? trialLogDir
                : report != null ? report.toAbsolutePath().getParent() : Path.of(System.getProperty("java.io.tmpdir"));
        CliFiles.requireWritableTarget(spec, "--trial-log-dir", logDir.resolve(TrialLog.fileName(seed, 0)));
        List<TrialPlan> plans;
        try {
            TrialDraw draw = new TrialDraw(bases(), faults == Faults.ALL ? FaultKind.ALL : FaultKind.CLASSIC,
                    maxFailures, faults == Faults.ALL, mode)
                    .heartbeatTimeoutMillis(heartbeatTimeoutMillis).capping(faults == Faults.ALL)
                    .endOfRunDeaths(faults == Faults.ALL);
            int count = replay == null ? trials : replay + 1;
            plans = draw.draw(seed, count);
            if (replay != null) {
                plans = plans.subList(replay, replay + 1);
                if (replacement != null) {
                    plans = List.of(replayed(plans.get(0)));
                }
            }
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        PrintWriter out = spec.commandLine().getOut();
        // in processes mode the ranks log on their own: their files go with a failing trial's log
        Path rankLogs = mode == Mode.PROCESSES ? rankLogDirectory() : null;
        CampaignRunner runner = new CampaignRunner(trialSeconds * 1000, replayPrefix(),
                rankLogs == null ? List.of() : RankLogFiles.jvmOptions(rankLogs))
                .heartbeatTimeoutMillis(heartbeatTimeoutMillis).checkpointBackups(backups)
                .checkpointReplication(checkpointCopies.replication());
        CampaignRunner.Result result;
        // Ctrl-C an hour into a campaign: the finished trials are written as a report stopped early, not lost
        List<TrialResult> finished = new CopyOnWriteArrayList<>();
        try (ProgressBar bar = progressBar(plans.size());
             TrialLog log = TrialLog.recording(logDir, TrialLog.DEFAULT_MAX_LINES);
             InterruptNotice interrupted = InterruptNotice.install(spec.commandLine().getErr(),
                     () -> interruptedLine(finished))) {
            result = runner.run(plans, maxSeconds * 1000, t -> {
                finished.add(t);
                printTrial(out, t);
                Path kept = t.outcome().passes() ? null : log.keep(seed, t.plan().index(), rankLogsIn(rankLogs));
                if (kept != null) {
                    out.println("            log: " + kept);
                    out.flush();
                }
                log.clear();
                deleteRankLogs(rankLogs);
                bar.step();
                bar.setExtraMessage(t.outcome().passes() ? "" : "not ok: trial " + t.plan().index());
            });
        } finally {
            if (rankLogs != null) {
                deleteRankLogs(rankLogs);
                deleteQuietly(rankLogs);
            }
        }
        out.printf(Locale.ROOT, "campaign seed %d (%s, %s faults): %d trial%s, %d ok, %d unrecoverable (clear error),"
                        + " %d wrong, %d errors, %d hung, %d leftovers%s%n",
                seed, mode.name().toLowerCase(Locale.ROOT), faults.name().toLowerCase(Locale.ROOT), result.trials().size(),
                result.trials().size() == 1 ? "" : "s",
                result.count(Outcome.OK), result.count(Outcome.UNRECOVERABLE), result.count(Outcome.WRONG),
                result.count(Outcome.ERROR), result.count(Outcome.HUNG), result.count(Outcome.LEFTOVER),
                result.stoppedEarly() ? " (stopped: " + result.stopReason() + ")" : "");
        if (report != null) {
            CampaignFiles.write(report, seed, replayPrefix(), mode.name().toLowerCase(Locale.ROOT), result);
            out.println("report: " + report + " and " + CampaignFiles.csvOf(report));
        }
        out.flush();
        return result.passed() ? 0 : 1;
    }

    /**
     * What an interrupted campaign says, after it wrote the trials it finished as its report (stopped early,
     * "interrupted"), when it has one: the trial under way when the signal came is not in it.
     */
    private String interruptedLine(List<TrialResult> finished) {
        CampaignRunner.Result sofar = new CampaignRunner.Result(List.copyOf(finished), true,
                "interrupted (SIGINT or SIGTERM)");
        String written = "";
        if (report != null) {
            try {
                CampaignFiles.write(report, seed, replayPrefix(), mode.name().toLowerCase(Locale.ROOT), sofar);
                written = "; they are in " + report + " and " + CampaignFiles.csvOf(report);
            } catch (RuntimeException e) {
                written = "; the report could not be written: " + e.getMessage();
            }
        }
        return String.format(Locale.ROOT, "dfr campaign: interrupted (SIGINT or SIGTERM) after %d finished trial%s"
                        + " (%d ok, %d not)%s; the trial under way is not counted", sofar.trials().size(),
                sofar.trials().size() == 1 ? "" : "s", sofar.count(Outcome.OK),
                sofar.trials().stream().filter(t -> !t.outcome().passes()).count(), written);
    }

    /** A fresh directory for the rank processes' logs of one trial at a time. */
    private static Path rankLogDirectory() {
        try {
            return Files.createTempDirectory("dfr-campaign-rank-logs");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a directory for the rank processes' logs: " + e.getMessage(), e);
        }
    }

    private static List<Path> rankLogsIn(Path directory) {
        if (directory == null) {
            return List.of();
        }
        try {
            return RankLogFiles.in(directory);
        } catch (IOException e) {
            return List.of(); // the trial's own log is still kept
        }
    }

    private static void deleteRankLogs(Path directory) {
        if (directory != null) {
            try {
                RankLogFiles.deleteIn(directory);
            } catch (IOException e) {
                // a temporary directory: the next trial's lines are appended, and its log says so by their times
            }
        }
    }

    private static void deleteQuietly(Path directory) {
        try {
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            // a temporary directory: the system cleans it eventually
        }
    }

    /** Trial {@code --replay N} with {@code --replacement R} instead of the drawn one, when it fits. */
    private TrialPlan replayed(TrialPlan plan) {
        Replacement r = Replacement.parse(replacement);
        try {
            return plan.withReplacement(r);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--replay " + plan.index() + " (" + plan.describe() + "): "
                    + e.getMessage(), e);
        }
    }

    private static void printTrial(PrintWriter out, TrialResult t) {
        // the trial's description last but its problems: a long one (three faults with their windows) pushed the
        // figures out of their columns
        String problems = String.join("; ", problems(t));
        out.printf(Locale.ROOT, "trial %4d  %-14s %6d ms  work %4d  %s%s%n", t.plan().index(), t.outcome(), t.millis(),
                t.recomputedPartitionIterations(), t.plan().describe(), problems.isEmpty() ? "" : ": " + problems);
        if (!t.outcome().passes()) {
            out.println("            replay: " + t.replay());
        }
        out.flush();
    }

    private static List<String> problems(TrialResult t) {
        List<String> all = new ArrayList<>();
        if (!t.detail().isEmpty()) {
            all.add(t.detail());
        }
        all.addAll(t.violations());
        return all;
    }

    /** A progress bar with ETA on a terminal; plain lines (one per 10 %) when the output is not one. */
    private static ProgressBar progressBar(int total) {
        ProgressBarBuilder b = new ProgressBarBuilder().setTaskName("campaign").setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII).showSpeed();
        if (System.console() == null) {
            b.setConsumer(new DelegatingProgressBarConsumer(line -> { }))
                    .setUpdateIntervalMillis(Integer.MAX_VALUE);
        }
        return b.build();
    }

    /** The options that decide which trials a seed draws, so that {@code --replay N} finds the same trial. */
    private String replayPrefix() {
        StringBuilder b = new StringBuilder("dfr campaign --seed ").append(seed)
                .append(" --mode ").append(mode.name().toLowerCase(Locale.ROOT))
                .append(" --faults ").append(faults.name().toLowerCase(Locale.ROOT))
                .append(" --max-failures ").append(maxFailures)
                .append(" --kernel ").append(kernel.choice().name())
                .append(" --iterations ").append(iterations).append(" --checkpoint-every ").append(checkpointEvery);
        if (heartbeatTimeoutMillis != ClusterSettings.DEFAULT_MAX_NO_HEARTBEAT_MILLIS) {
            // pauses are drawn against it
            b.append(" --heartbeat-timeout-millis ").append(heartbeatTimeoutMillis);
        }
        if (checkpointCopies.validated(spec) != ClusterSettings.DEFAULT_CHECKPOINT_BACKUPS) {
            b.append(" --checkpoint-backups ").append(checkpointCopies.validated(spec));
        }
        if (checkpointCopies.replication() != ClusterSettings.DEFAULT_CHECKPOINT_REPLICATION) {
            b.append(" --checkpoint-replication ").append(checkpointCopies.replication().optionValue());
        }
        kernel.choice().options().forEach((k, v) -> b.append(" --kernel-option ").append(k).append('=').append(v));
        kernel.jars().forEach(j -> b.append(" --kernel-jar ").append(j));
        if (cells != null) {
            b.append(" --cells ").append(cells);
        }
        if (ranksGrid != null) {
            b.append(" --ranks-grid ").append(ranksGrid);
        }
        return b.toString();
    }

    private List<RunConfig> bases() {
        List<KernelProvider> providers = new ArrayList<>();
        if (ANY_KERNEL.equals(kernel.choice().name())) {
            if (cells != null || ranksGrid != null || !kernel.choice().options().isEmpty()) {
                throw new IllegalArgumentException("--kernel any draws kernels of 1 to 3 axes with their default options:"
                        + " leave out --cells, --ranks-grid and --kernel-option, or name one kernel");
            }
            providers.addAll(KernelJars.catalog(kernel.jars()).providers());
        } else {
            try {
                providers.add(KernelJars.catalog(kernel.jars()).get(kernel.choice().name()));
            } catch (IllegalArgumentException e) {
                // the catalog lists what is installed; the campaign also takes "any"
                throw new IllegalArgumentException(e.getMessage() + "; or --kernel " + ANY_KERNEL
                        + " for a kernel drawn per trial", e);
            }
        }
        List<RunConfig> out = new ArrayList<>();
        for (KernelProvider p : providers) {
            KernelChoice choice = ANY_KERNEL.equals(kernel.choice().name()) ? KernelChoice.of(p.name()) : kernel.choice();
            Sizes c = cells != null ? cells : defaultCells(p.dimensions());
            Sizes g = ranksGrid != null ? ranksGrid : Sizes.defaultRanksGrid(c.axes());
            out.add(RunConfig.of(choice, kernel.jars(), c.values(), g.values(), iterations, checkpointEvery));
        }
        return out;
    }

    /** Small odd sizes whose blocks split unevenly: 101, 37x29, 9x7x6. */
    static Sizes defaultCells(int axes) {
        return new Sizes(Campaign.smallCells(axes));
    }
}
