package org.dfr.cli;

import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The one line a command prints when SIGINT or SIGTERM (Ctrl-C, {@code kill}) ends it before its work is done.
 *
 * <p>A JVM stopped by a signal runs its shutdown hooks and halts: the main thread may never reach a message of
 * its own (an embedded {@code dfr run} exited 130 without a word). So the line is printed from a shutdown hook,
 * installed for the work's duration and removed after it. Where the main thread can also tell of the
 * interruption (a processes run's launcher fails with "interrupted"), it asks {@link #shuttingDown()} and
 * calls {@link #sayOnce()}: the line is printed once, by whichever comes first.
 */
final class InterruptNotice implements AutoCloseable {

    private final PrintWriter err;
    private final Supplier<String> line;
    private final AtomicBoolean said = new AtomicBoolean();
    private final Thread hook;
    private volatile boolean shuttingDown;

    private InterruptNotice(PrintWriter err, Supplier<String> line) {
        this.err = err;
        this.line = line;
        this.hook = new Thread(this::onShutdown, "dfr-interrupt-notice");
    }

    /** Installs the notice: from now until {@link #close()}, a shutdown prints {@code line}'s text to {@code err}. */
    static InterruptNotice install(PrintWriter err, Supplier<String> line) {
        InterruptNotice notice = new InterruptNotice(err, line);
        Runtime.getRuntime().addShutdownHook(notice.hook);
        return notice;
    }

    /** What the shutdown hook does (a test calls it: a real shutdown would end the test's JVM). */
    void onShutdown() {
        shuttingDown = true;
        sayOnce();
    }

    /** Whether the JVM began shutting down (a signal) while the notice was installed. */
    boolean shuttingDown() {
        return shuttingDown;
    }

    /** Prints the line unless it was printed already. */
    void sayOnce() {
        if (said.compareAndSet(false, true)) {
            err.println(line.get());
            err.flush();
        }
    }

    /** The work is done (or failed on its own): a later shutdown is no interruption of it. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDownAlready) {
            // the hook runs or is about to: it says what happened
        }
    }
}
