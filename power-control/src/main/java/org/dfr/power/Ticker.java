package org.dfr.power;

/**
 * A source of monotonic nanoseconds, injected wherever timing matters so tests can drive time by hand
 * (as Caffeine's {@code Ticker}). Values are only meaningful as differences.
 */
@FunctionalInterface
public interface Ticker {

    /** @return the current monotonic time in nanoseconds */
    long read();

    /** @return the JVM's monotonic clock, {@link System#nanoTime()} */
    static Ticker system() {
        return System::nanoTime;
    }
}
