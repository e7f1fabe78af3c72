package org.dfr.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.dfr.cli.bench.SizePair;
import org.dfr.jacobi.JacobiProblem;
import org.dfr.jacobi.SequentialJacobi;
import org.dfr.jacobi.run.JacobiRunConfig;
import org.dfr.jacobi.run.JacobiRunner;
import org.dfr.jacobi.run.Mode;
import org.dfr.jacobi.run.RunReport;
import org.dfr.jacobi.run.RunReports;
import org.dfr.power.meter.PowerModel;
import org.dfr.recovery.FaultPlan;
import org.dfr.recovery.Strategy;
import org.dfr.runtime.RunFailedException;
import org.dfr.runtime.RunSpec;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code dfr run}: the 2D Jacobi solver on ranks that are Hazelcast members, with optional fault
 * injection and recovery. Prints the field digest (equal to the sequential one, whatever failed),
 * the final residual and throughput, and writes the run report.
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs the 2D Jacobi solver on ranks that are Hazelcast members, optionally killing ranks",
                "and recovering by global or data-flow rollback. Prints the field digest (SHA-256 of the interior)."},
        footer = {"", "Examples:",
                "  dfr run --ranks-grid 2x4 --cells 256x256 --iterations 10 --checkpoint-every 10 --fail 1@4",
                "  dfr run --ranks-grid 2x4 --cells 256x256 --iterations 10 --strategy global --fail 1@4 --report r.json",
                "  dfr run --cells 256x256 --iterations 10 --reference",
                "", "Exit codes: 0 success, 1 the run failed (message says why), 2 bad arguments."})
public final class RunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--ranks-grid", paramLabel = "PXxPY", defaultValue = "2x4",
            description = "Ranks along x and y (one partition each). Default: ${DEFAULT-VALUE}.")
    String ranksGrid;

    @Option(names = "--cells", paramLabel = "NXxNY", required = true, description = "Interior cells along x and y.")
    String cells;

    @Option(names = "--iterations", paramLabel = "N", required = true, description = "Jacobi iterations (>= 1).")
    int iterations;

    @Option(names = "--checkpoint-every", paramLabel = "K", defaultValue = "10",
            description = "Checkpoint every K iterations (and at 0). Default: ${DEFAULT-VALUE}.")
    int checkpointEvery;

    @Option(names = "--mode", paramLabel = "embedded|processes", defaultValue = "embedded",
            description = "Ranks as members in this JVM, or one JVM per rank. Default: ${DEFAULT-VALUE}.")
    String mode;

    @Option(names = "--ranks-per-host", paramLabel = "H", defaultValue = "" + RunSpec.DEFAULT_RANKS_PER_HOST,
            description = "Ranks grouped per host (for host failures and capping). Default: ${DEFAULT-VALUE}.")
    int ranksPerHost;

    @Option(names = "--spares", paramLabel = "S", defaultValue = "0",
            description = "Hot spare ranks that adopt lost partitions. Default: ${DEFAULT-VALUE}.")
    int spares;

    @Option(names = "--strategy", paramLabel = "global|dfr", defaultValue = "dfr",
            description = "Rollback strategy after a failure. Default: ${DEFAULT-VALUE}.")
    String strategy;

    @Option(names = "--fail", paramLabel = "RANK@ITER",
            description = "Kill RANK at the start of ITER (repeatable; same ITER = simultaneous).")
    List<String> fail = new ArrayList<>();

    @Option(names = "--fail-host", paramLabel = "HOST@ITER", description = "Kill every rank of HOST at the start of ITER.")
    List<String> failHost = new ArrayList<>();

    @Option(names = "--fail-during-recovery", paramLabel = "RANK",
            description = "RANK dies after the first recomputed level of the next recovery.")
    List<Integer> failDuringRecovery = new ArrayList<>();

    @Option(names = "--cap-idle-hosts", description = "Cap the CPU frequency of hosts whose ranks are all idle during recovery.")
    boolean capIdleHosts;

    @Option(names = "--sysfs-root", paramLabel = "DIR", description = "Root of the sysfs tree for frequency capping. Default: /.")
    Path sysfsRoot;

    @Option(names = "--idle-power-watts", paramLabel = "W",
            description = "Idle power of the load model, used only when the machine has no energy counter.")
    Double idlePowerWatts;

    @Option(names = "--busy-power-watts", paramLabel = "W",
            description = "Busy power of the load model (with --idle-power-watts).")
    Double busyPowerWatts;

    @Option(names = "--report", paramLabel = "FILE.json", description = "Write the run report (JSON) to FILE.")
    Path report;

    @Option(names = "--reference", description = "Run the plain sequential implementation instead and print its digest.")
    boolean reference;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        SizePair cellSize = parsePair("--cells", cells, "NXxNY");
        if (iterations < 1) {
            throw new ParameterException(spec.commandLine(), "--iterations must be >= 1, got " + iterations);
        }
        if (reference) {
            return runReference(out, cellSize);
        }
        SizePair grid = parsePair("--ranks-grid", ranksGrid, "PXxPY");
        JacobiRunConfig config;
        try {
            List<FaultPlan.Kill> kills = new ArrayList<>();
            for (String f : fail) {
                kills.add(FaultPlan.parseKill(f));
            }
            List<FaultPlan.Kill> hosts = new ArrayList<>();
            for (String f : failHost) {
                hosts.add(FaultPlan.parseKill(f.replace("HOST", "")));
            }
            config = new JacobiRunConfig(grid.first(), grid.second(), cellSize.first(), cellSize.second(), iterations,
                    checkpointEvery, parseMode(), ranksPerHost, spares, Strategy.parse(strategy), kills, hosts,
                    new TreeSet<>(failDuringRecovery), capIdleHosts, sysfsRoot, null, null);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        PowerModel model = null;
        if (idlePowerWatts != null || busyPowerWatts != null) {
            if (idlePowerWatts == null || busyPowerWatts == null) {
                throw new ParameterException(spec.commandLine(),
                        "--idle-power-watts and --busy-power-watts go together: give both or neither");
            }
            try {
                model = new PowerModel(idlePowerWatts, busyPowerWatts);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        RunReport result;
        try {
            result = new JacobiRunner().powerModel(model).run(config);
        } catch (RunFailedException e) {
            spec.commandLine().getErr().println("dfr run: the run failed: " + e.getMessage());
            return 1;
        }
        printSummary(out, result);
        if (report != null) {
            RunReports.write(result, report);
            out.println("report:          " + report);
        }
        out.flush();
        return 0;
    }

    private Mode parseMode() {
        try {
            return Mode.valueOf(mode.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--mode '" + mode + "' is not allowed: use embedded or processes");
        }
    }

    private int runReference(PrintWriter out, SizePair cellSize) {
        JacobiProblem problem;
        try {
            problem = new JacobiProblem(cellSize.first(), cellSize.second());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        SequentialJacobi seq = new SequentialJacobi(problem);
        long start = System.nanoTime();
        double residual = seq.iterate(iterations);
        double seconds = Math.max(System.nanoTime() - start, 1) / 1e9;
        out.printf(Locale.ROOT, "reference:       sequential, %dx%d cells, %d iterations%n", cellSize.first(), cellSize.second(),
                iterations);
        out.println("field sha256:    " + seq.digest());
        out.printf(Locale.ROOT, "final residual:  %.17g%n", residual);
        out.printf(Locale.ROOT, "iterations/s:    %.1f%n", iterations / seconds);
        out.printf(Locale.ROOT, "cell updates/s:  %.3e%n", (double) cellSize.product() * iterations / seconds);
        out.flush();
        return 0;
    }

    static void printSummary(PrintWriter out, RunReport r) {
        out.printf(Locale.ROOT, "run:             %s, %dx%d ranks, %dx%d cells, %d iterations, checkpoint every %d, %s mode%n",
                r.strategy(), r.ranksGrid().get(0), r.ranksGrid().get(1), r.cells().get(0), r.cells().get(1),
                r.iterations(), r.checkpointEvery(), r.mode());
        for (RunReport.Recovery rec : r.recoveries()) {
            out.printf(Locale.ROOT, "recovery %d:      ranks %s died at iteration %d; lost partitions %s; checkpoint %d; "
                            + "m = %d%n", rec.epoch(), rec.deadRanks(), rec.failureIteration(), rec.lostPartitions(),
                    rec.checkpointIteration(), rec.lostIterations());
            out.printf(Locale.ROOT, "                 %s%s: recomputed %d partition-iterations; participating ranks %s; "
                            + "idle ranks %s; adoptions %s%n", rec.effectiveStrategy(),
                    rec.coversEverything() && "dfr".equals(rec.strategy()) ? " (the cone covers everything: global rollback)" : "",
                    rec.recomputedPartitionIterations(), rec.participatingRanks(), rec.idleRanks(), rec.adoptions());
            out.printf(Locale.ROOT, "                 detection %s ms, agreement %s ms, replacement (checkpoint load) %s ms,"
                            + " recovery at the ranks %s ms, recovery wall %s ms%n",
                    orDash(rec.detectionMillis()), orDash(rec.agreementMillis()), orDash(rec.replacementMillis()),
                    orDash(rec.recomputeMillis()), orDash(rec.wallMillis()));
        }
        out.println("field sha256:    " + r.fieldSha256());
        out.printf(Locale.ROOT, "final residual:  %.17g%n", r.finalResidual());
        out.printf(Locale.ROOT, "wall time:       %d ms%n", r.wallMillis());
        out.printf(Locale.ROOT, "iterations/s:    %.1f%n", r.iterationsPerSecond());
        out.printf(Locale.ROOT, "cell updates/s:  %.3e%n", r.cellUpdatesPerSecond());
        if (r.energy() != null) {
            out.println("energy source:   " + r.energy().get("source"));
        }
    }

    private static String orDash(Long value) {
        return value == null ? "-" : value.toString();
    }

    private SizePair parsePair(String option, String text, String form) {
        return parsePair(spec, option, text, form);
    }

    /** Parses {@code AxB} with both sizes >= 1, or throws a usage error naming the option. */
    static SizePair parsePair(CommandSpec spec, String option, String text, String form) {
        try {
            return SizePair.parse(option, text, form);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }
}
