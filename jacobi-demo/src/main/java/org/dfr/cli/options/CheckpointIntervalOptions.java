package org.dfr.cli.options;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code --checkpoint-every K|auto}, {@code --mtbf-seconds T} and {@code --commit-lag-iterations L} of
 * {@code dfr run}: when checkpoints are taken, and when they count as committed.
 */
public final class CheckpointIntervalOptions {

    /** {@code --checkpoint-every} of a run whose interval is chosen during the run. */
    public static final String AUTO = "auto";

    @Option(names = "--checkpoint-every", paramLabel = "K|auto", defaultValue = "10",
            description = "Checkpoint every K iterations (and at 0), or auto: Daly's interval for --mtbf-seconds and the"
                    + " checkpoint cost measured in the run. Default: ${DEFAULT-VALUE}.")
    String checkpointEvery;

    @Option(names = "--mtbf-seconds", paramLabel = "T",
            description = "With --checkpoint-every auto: the mean time between failures of the whole run, seconds (> 0).")
    Double mtbfSeconds;

    @Option(names = "--commit-lag-iterations", paramLabel = "L",
            description = "Iterations between a checkpoint and its commit, 0..K-1 (with a fixed --checkpoint-every K):"
                    + " a checkpoint's replication overlaps L iterations before a rank waits for it; a failure before"
                    + " the commit recovers from the checkpoint before. Default: 1 (0 with K = 1).")
    Integer commitLagIterations;

    /** Whether the interval is chosen during the run ({@code --checkpoint-every auto}). */
    public boolean auto() {
        return AUTO.equals(checkpointEvery);
    }

    /**
     * The interval to start with: K, or with {@code auto} the whole run (the run shortens it once it
     * measured a checkpoint); checks {@code --mtbf-seconds} against it.
     *
     * @throws ParameterException (exit code 2) naming the value and what is allowed
     */
    public int interval(CommandSpec spec, int iterations) {
        int interval = auto() ? iterations : fixedInterval(spec);
        checkMtbf(spec);
        return interval;
    }

    /** {@code --mtbf-seconds} for the run: given with {@code auto}, else null. */
    public Double mtbfSeconds() {
        return auto() ? mtbfSeconds : null;
    }

    /** {@code --commit-lag-iterations}, or null for the default. */
    public Integer commitLagIterations() {
        return commitLagIterations;
    }

    /** {@code --checkpoint-every K}: K, at least 1. */
    private int fixedInterval(CommandSpec spec) {
        int k;
        try {
            k = Integer.parseInt(checkpointEvery);
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(), "--checkpoint-every " + checkpointEvery
                    + " is not allowed: give a number of iterations K >= 1, or auto");
        }
        if (k < 1) {
            throw new ParameterException(spec.commandLine(), "--checkpoint-every " + k
                    + " is not allowed: give a number of iterations K >= 1, or auto");
        }
        return k;
    }

    /** {@code --mtbf-seconds}: given exactly with {@code auto}, and above 0. */
    private void checkMtbf(CommandSpec spec) {
        if (auto() && mtbfSeconds == null) {
            throw new ParameterException(spec.commandLine(), "--checkpoint-every auto needs --mtbf-seconds T: the mean"
                    + " time between failures of the whole run, seconds > 0");
        }
        if (!auto() && mtbfSeconds != null) {
            throw new ParameterException(spec.commandLine(), "--mtbf-seconds is only used with --checkpoint-every auto"
                    + " (given: --checkpoint-every " + checkpointEvery + ")");
        }
        if (mtbfSeconds != null && !(mtbfSeconds > 0 && Double.isFinite(mtbfSeconds))) {
            throw new ParameterException(spec.commandLine(), "--mtbf-seconds " + mtbfSeconds
                    + " is not allowed: give a number of seconds > 0");
        }
    }
}
