package org.dfr.analysis;

/**
 * How often to checkpoint, from the checkpoint's cost and the system's mean time between failures:
 * Young's first-order optimum {@code sqrt(2 C M)} and Daly's higher-order one
 * ({@code sqrt(2 C M) (1 + sqrt(C / 2M) / 3 + (C / 2M) / 9) - C} for {@code C < 2M}, else {@code M}).
 *
 * @param checkpointSeconds the cost of one checkpoint {@code C}, seconds of lost progress (> 0)
 * @param systemMtbfSeconds the mean time between failures of the whole system {@code M} (> 0)
 * @param iterationSeconds the duration of one iteration, to express the interval in iterations (> 0)
 */
public record CheckpointIntervalAdvice(double checkpointSeconds, double systemMtbfSeconds, double iterationSeconds) {

    public CheckpointIntervalAdvice {
        requirePositive("checkpoint cost (seconds)", checkpointSeconds);
        requirePositive("system MTBF (seconds)", systemMtbfSeconds);
        requirePositive("iteration time (seconds)", iterationSeconds);
    }

    private static void requirePositive(String what, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(what + " must be a finite number > 0, got " + value);
        }
    }

    /** Young's interval {@code sqrt(2 C M)}, in seconds. */
    public double youngSeconds() {
        return Math.sqrt(2 * checkpointSeconds * systemMtbfSeconds);
    }

    /** Daly's interval, in seconds. */
    public double dalySeconds() {
        double c = checkpointSeconds;
        double m = systemMtbfSeconds;
        if (c >= 2 * m) {
            return m;
        }
        double r = c / (2 * m);
        return Math.sqrt(2 * c * m) * (1 + Math.sqrt(r) / 3 + r / 9) - c;
    }

    /** Young's interval in whole iterations, at least 1. */
    public int youngIterations() {
        return toIterations(youngSeconds());
    }

    /** Daly's interval in whole iterations, at least 1. */
    public int dalyIterations() {
        return toIterations(dalySeconds());
    }

    private int toIterations(double seconds) {
        double k = Math.rint(seconds / iterationSeconds);
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, k));
    }
}
