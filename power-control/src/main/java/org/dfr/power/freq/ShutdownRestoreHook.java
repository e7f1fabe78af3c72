package org.dfr.power.freq;

import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JVM shutdown hook that lifts a cap left in place when the process exits (normally, by
 * {@code System.exit}, or on SIGTERM/SIGINT). A SIGKILL runs no hook: the journal covers that case at the
 * next start. {@link #close()} removes the hook once the owner has restored by itself.
 */
public final class ShutdownRestoreHook implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ShutdownRestoreHook.class);

    private final Thread thread;

    private ShutdownRestoreHook(FrequencyController controller) {
        Objects.requireNonNull(controller, "controller");
        this.thread = new Thread(() -> restoreQuietly(controller), "dfr-frequency-restore");
    }

    /** Registers a hook that restores {@code controller} at JVM shutdown if it is still capped. */
    public static ShutdownRestoreHook install(FrequencyController controller) {
        ShutdownRestoreHook hook = new ShutdownRestoreHook(controller);
        Runtime.getRuntime().addShutdownHook(hook.thread);
        return hook;
    }

    static void restoreQuietly(FrequencyController controller) {
        if (!controller.isCapped()) {
            return;
        }
        try {
            RestoreOutcome outcome = controller.restore();
            LOG.warn("shutdown: {}", outcome.message());
        } catch (FrequencyControlException | RuntimeException e) {
            // a shutdown hook must not throw; the journal stays for `dfr power restore`
            LOG.error("shutdown: could not restore the CPU frequency limits: {}", e.getMessage());
        }
    }

    /** Unregisters the hook; harmless during shutdown. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(thread);
        } catch (IllegalStateException shuttingDown) {
            // the hook is already running or has run
        }
    }
}
