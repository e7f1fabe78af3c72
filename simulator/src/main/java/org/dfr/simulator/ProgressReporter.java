package org.dfr.simulator;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Tells a listener now and then how far a long simulation has come: a million partitions under frequent
 * failures can take minutes per seed, and a command that prints nothing meanwhile looks hung. The engine asks
 * {@link #at} once per level and once per recovery attempt; only when the period has passed on the injected
 * ticker does the listener hear of it. {@link #none()} is the disabled implementation, not a flag the engine
 * checks.
 */
public abstract class ProgressReporter {

    /** What a simulation reports. */
    @FunctionalInterface
    public interface Listener {
        /**
         * @param iterationsDone iterations every partition has completed
         * @param iterations     the run's iterations
         * @param failures       failures so far
         * @param elapsedNanos   since the simulation started, on the reporter's ticker
         */
        void progress(int iterationsDone, int iterations, long failures, long elapsedNanos);
    }

    /** Reports nothing. */
    public static ProgressReporter none() {
        return None.INSTANCE;
    }

    /**
     * Reports to {@code listener} whenever {@code period} has passed on {@code ticker} since the last report
     * (or the start).
     *
     * @param ticker nanoseconds, as {@link System#nanoTime}
     */
    public static ProgressReporter every(Duration period, LongSupplier ticker, Listener listener) {
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("the progress period must be > 0, got " + period);
        }
        return new Periodic(period.toNanos(), ticker, listener);
    }

    /** A fresh reporter with the same settings, for the next simulation (a reporter remembers its start). */
    abstract ProgressReporter start();

    /** Where the simulation is now; reports it if the period has passed. */
    abstract void at(int iterationsDone, int iterations, long failures);

    private static final class None extends ProgressReporter {
        static final None INSTANCE = new None();

        @Override
        ProgressReporter start() {
            return this;
        }

        @Override
        void at(int iterationsDone, int iterations, long failures) {
            // disabled
        }
    }

    private static final class Periodic extends ProgressReporter {
        private final long periodNanos;
        private final LongSupplier ticker;
        private final Listener listener;
        private final long startedAt;
        private long nextAt;

        Periodic(long periodNanos, LongSupplier ticker, Listener listener) {
            this.periodNanos = periodNanos;
            this.ticker = ticker;
            this.listener = listener;
            this.startedAt = ticker.getAsLong();
            this.nextAt = startedAt + periodNanos;
        }

        @Override
        ProgressReporter start() {
            return new Periodic(periodNanos, ticker, listener);
        }

        @Override
        void at(int iterationsDone, int iterations, long failures) {
            long now = ticker.getAsLong();
            if (now - nextAt >= 0) {
                nextAt = now + periodNanos;
                listener.progress(iterationsDone, iterations, failures, now - startedAt);
            }
        }
    }
}
