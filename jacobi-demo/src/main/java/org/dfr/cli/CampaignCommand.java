package org.dfr.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.dfr.cli.bench.SizePair;
import org.dfr.jacobi.run.Campaign;
import org.dfr.jacobi.run.JacobiRunConfig;
import org.dfr.jacobi.run.JacobiRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code dfr campaign}: a seeded randomized fault-injection campaign (random rank, iteration and
 * strategy, one or two failures per trial), every digest checked against the sequential reference.
 */
@Command(name = "campaign", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs randomized failure trials (seeded) and checks every field digest against the",
                "sequential reference. Exit code 1 if any trial gives a wrong digest or an unexpected error."},
        footer = {"", "Example:", "  dfr campaign --trials 1000 --seed 7 --max-seconds 7200"})
public final class CampaignCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--trials", defaultValue = "50", description = "Number of trials. Default: ${DEFAULT-VALUE}.")
    int trials;

    @Option(names = "--seed", defaultValue = "1", description = "Random seed. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--max-seconds", defaultValue = "3600",
            description = "Stop starting new trials after this long. Default: ${DEFAULT-VALUE}.")
    long maxSeconds;

    @Option(names = "--ranks-grid", defaultValue = "2x4", description = "Ranks PXxPY. Default: ${DEFAULT-VALUE}.")
    String ranksGrid;

    @Option(names = "--cells", defaultValue = "37x29", description = "Cells NXxNY. Default: ${DEFAULT-VALUE}.")
    String cells;

    @Option(names = "--iterations", defaultValue = "12", description = "Iterations per trial. Default: ${DEFAULT-VALUE}.")
    int iterations;

    @Option(names = "--checkpoint-every", defaultValue = "4", description = "Checkpoint interval. Default: ${DEFAULT-VALUE}.")
    int checkpointEvery;

    @Override
    public Integer call() {
        if (trials < 1) {
            throw new ParameterException(spec.commandLine(), "--trials must be >= 1, got " + trials);
        }
        if (maxSeconds < 1) {
            throw new ParameterException(spec.commandLine(), "--max-seconds must be >= 1, got " + maxSeconds);
        }
        SizePair grid = RunCommand.parsePair(spec, "--ranks-grid", ranksGrid, "PXxPY");
        SizePair size = RunCommand.parsePair(spec, "--cells", cells, "NXxNY");
        JacobiRunConfig base;
        try {
            base = JacobiRunConfig.of(grid.first(), grid.second(), size.first(), size.second(), iterations, checkpointEvery);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        Campaign.Result result = new Campaign(base, new JacobiRunner()).run(seed, trials, maxSeconds * 1000, t -> {
            out.printf(Locale.ROOT, "trial %4d  %-6s kills %-40s %-13s work %4d  %5d ms %s%n", t.index(),
                    t.strategy().label(), t.kills().stream().map(k -> k.rank() + "@" + k.iteration()).toList(),
                    t.outcome(), t.recomputedPartitionIterations(), t.millis(), t.detail());
            out.flush();
        });
        out.printf(Locale.ROOT, "campaign seed %d: %d trials, %d ok, %d unrecoverable (clear error), %d wrong, %d errors%s%n",
                seed, result.trials().size(), result.count(Campaign.Outcome.OK),
                result.count(Campaign.Outcome.UNRECOVERABLE), result.count(Campaign.Outcome.WRONG),
                result.count(Campaign.Outcome.ERROR), result.stoppedByTimeBudget() ? " (stopped by --max-seconds)" : "");
        out.flush();
        return result.passed() ? 0 : 1;
    }
}
