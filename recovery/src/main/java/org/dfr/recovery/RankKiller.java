package org.dfr.recovery;

import java.io.IOException;
import org.dfr.runtime.RankContext;

/** How a rank dies: abruptly, never politely. */
public interface RankKiller {

    /**
     * Kills the rank; does not return normally.
     */
    RuntimeException kill(RankContext node);

    /** In-JVM members: {@code LifecycleService.terminate()}, sockets closed, the rank's thread unwinds. */
    RankKiller TERMINATE_MEMBER = RankContext::killAbruptly;

    /** A member in its own JVM: SIGKILL to this very process. */
    RankKiller SIGKILL_PROCESS = new SigkillSelf();

    /** Called once before the run, so that killing later is immediate. */
    default void prepare() {
    }

    /**
     * SIGKILL through a shell started in advance: {@code kill} is a shell builtin, so the death
     * costs one pipe write instead of forking this (large) JVM at the moment of the failure, which
     * would add tens of milliseconds to the measured detection latency.
     */
    final class SigkillSelf implements RankKiller {
        private Process shell;

        @Override
        public synchronized void prepare() {
            if (shell == null) {
                try {
                    shell = new ProcessBuilder("sh").redirectErrorStream(true)
                            .redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
                } catch (IOException e) {
                    throw new IllegalStateException("cannot start the shell that SIGKILLs this rank: " + e.getMessage(), e);
                }
            }
        }

        @Override
        public synchronized RuntimeException kill(RankContext node) {
            long pid = ProcessHandle.current().pid();
            prepare();
            try {
                shell.getOutputStream().write(("kill -9 " + pid + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                shell.getOutputStream().flush();
                shell.waitFor();
                // SIGKILL cannot be caught: we never get here unless kill failed
                throw new IllegalStateException("kill -9 " + pid + " returned");
            } catch (IOException e) {
                throw new IllegalStateException("cannot SIGKILL process " + pid + ": " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while being killed", e);
            }
        }
    }
}
