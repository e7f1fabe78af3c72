package org.dfr.analysis;

/**
 * The one rule for a commit lag, the iterations between a checkpoint and its commit: {@code 0..K-1} for a
 * checkpoint interval of {@code K}, so that a checkpoint is committed before the next one is written (a
 * rank holds at most two). {@code dfr run}, {@code plan}, {@code simulate} and the expected-cost model
 * check it here and word their messages with {@link #allowed}.
 */
public final class CommitLag {

    private CommitLag() {
    }

    /** Whether {@code lag} is a commit lag for a checkpoint interval of {@code checkpointInterval} iterations. */
    public static boolean isAllowed(int lag, int checkpointInterval) {
        return lag >= 0 && lag < checkpointInterval;
    }

    /**
     * The nearest allowed lag to {@code requested} with {@code checkpointInterval}: for the runtime, where a
     * run's interval may change ({@code --checkpoint-every auto}) after its lag was checked against the
     * first one.
     */
    public static int clamp(int requested, int checkpointInterval) {
        return Math.max(0, Math.min(requested, checkpointInterval - 1));
    }

    /** What is allowed with {@code checkpointInterval}, for a message: {@code "0..K-1 (why)"}. */
    public static String allowed(int checkpointInterval) {
        return "0.." + (checkpointInterval - 1) + " (a checkpoint is committed before the next one is written)";
    }
}
