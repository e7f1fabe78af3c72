package org.dfr.jacobi.bench;

/** A source of monotonic nanoseconds, injectable so timing code can be tested without real time. */
@FunctionalInterface
public interface NanoClock {

    /** The JVM's monotonic clock, {@link System#nanoTime()}. */
    NanoClock SYSTEM = System::nanoTime;

    /** Current time in nanoseconds; only differences are meaningful. */
    long nanoTime();
}
