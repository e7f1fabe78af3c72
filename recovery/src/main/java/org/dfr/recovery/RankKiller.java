package org.dfr.recovery;

import java.io.IOException;
import org.dfr.runtime.RankNode;

/** How a rank dies: abruptly, never politely. */
public interface RankKiller {

    /**
     * Kills the rank; does not return normally.
     */
    RuntimeException kill(RankNode node);

    /** In-JVM members: {@code LifecycleService.terminate()}, sockets closed, the rank's thread unwinds. */
    RankKiller TERMINATE_MEMBER = RankNode::killAbruptly;

    /** A member in its own JVM: SIGKILL to this very process. */
    RankKiller SIGKILL_PROCESS = node -> {
        long pid = ProcessHandle.current().pid();
        try {
            new ProcessBuilder("kill", "-9", Long.toString(pid)).inheritIO().start().waitFor();
            // SIGKILL cannot be caught: we never get here unless kill failed
            throw new IllegalStateException("kill -9 " + pid + " returned");
        } catch (IOException e) {
            throw new IllegalStateException("cannot SIGKILL process " + pid + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while being killed", e);
        }
    };
}
