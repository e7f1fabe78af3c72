package org.dfr.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.dfr.cli.options.KernelMixin;
import org.dfr.cli.options.Sizes;
import org.dfr.cli.options.SizesConverter;
import org.dfr.harness.Campaign;
import org.dfr.harness.KernelJars;
import org.dfr.harness.RunConfig;
import org.dfr.harness.Runner;
import org.dfr.runtime.kernel.KernelChoice;
import org.dfr.runtime.kernel.KernelProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code dfr campaign}: a seeded randomized fault-injection campaign (random rank, iteration and
 * strategy, one or two failures per trial; with {@code --kernel any}, a random installed kernel), every
 * digest checked against the sequential reference.
 */
@Command(name = "campaign", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs randomized failure trials (seeded) and checks every field digest against the",
                "sequential reference. Exit code 1 if any trial gives a wrong digest or an unexpected error."},
        footer = {"", "Examples:", "  dfr campaign --trials 1000 --seed 7 --max-seconds 7200",
                "  dfr campaign --kernel any --trials 200     (each trial draws an installed kernel)",
                "  dfr campaign --kernel heat3d7 --cells 12x10x9 --ranks-grid 2x2x2"})
public final class CampaignCommand implements Callable<Integer> {

    /** {@code --kernel any}: every trial draws one of the installed kernels. */
    public static final String ANY_KERNEL = "any";

    @Spec
    CommandSpec spec;

    @Mixin
    KernelMixin kernel;

    @Option(names = "--trials", defaultValue = "50", description = "Number of trials. Default: ${DEFAULT-VALUE}.")
    int trials;

    @Option(names = "--seed", defaultValue = "1", description = "Random seed. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--max-seconds", defaultValue = "3600",
            description = "Stop starting new trials after this long. Default: ${DEFAULT-VALUE}.")
    long maxSeconds;

    @Option(names = "--ranks-grid", paramLabel = "PX[xPY[xPZ]]", converter = SizesConverter.class,
            description = "Partitions per axis. Default: 8, 2x4 or 2x2x2 by the kernel's axes.")
    Sizes ranksGrid;

    @Option(names = "--cells", paramLabel = "NX[xNY[xNZ]]", converter = SizesConverter.class,
            description = "Cells per axis. Default: 101, 37x29 or 9x7x6 by the kernel's axes.")
    Sizes cells;

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
        List<RunConfig> bases;
        try {
            bases = bases();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        Campaign.Result result = new Campaign(bases, new Runner()).run(seed, trials, maxSeconds * 1000, t -> {
            out.printf(Locale.ROOT, "trial %4d  %-12s %-6s kills %-40s %-13s work %4d  %5d ms %s%n", t.index(),
                    t.kernel(), t.strategy().label(), t.kills().stream().map(k -> k.rank() + "@" + k.iteration()).toList(),
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

    private List<RunConfig> bases() {
        List<KernelProvider> providers = new ArrayList<>();
        if (ANY_KERNEL.equals(kernel.choice().name())) {
            if (cells != null || ranksGrid != null || !kernel.choice().options().isEmpty()) {
                throw new IllegalArgumentException("--kernel any draws kernels of 1 to 3 axes with their default options:"
                        + " leave out --cells, --ranks-grid and --kernel-option, or name one kernel");
            }
            providers.addAll(KernelJars.catalog(kernel.jars()).providers());
        } else {
            providers.add(KernelJars.catalog(kernel.jars()).get(kernel.choice().name()));
        }
        List<RunConfig> out = new ArrayList<>();
        for (KernelProvider p : providers) {
            KernelChoice choice = ANY_KERNEL.equals(kernel.choice().name()) ? KernelChoice.of(p.name()) : kernel.choice();
            Sizes c = cells != null ? cells : defaultCells(p.dimensions());
            Sizes g = ranksGrid != null ? ranksGrid : RunCommand.defaultGrid(c);
            out.add(RunConfig.of(choice, kernel.jars(), c.values(), g.values(), iterations, checkpointEvery));
        }
        return out;
    }

    /** Small odd sizes whose blocks split unevenly: 101, 37x29, 9x7x6. */
    static Sizes defaultCells(int axes) {
        return new Sizes(Campaign.smallCells(axes));
    }
}
