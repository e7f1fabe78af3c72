package org.dfr.recovery;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import org.dfr.runtime.RankContext;

/** How a rank dies: abruptly, never politely. */
public interface RankKiller {

    /**
     * Kills the rank; does not return normally.
     */
    RuntimeException kill(RankContext node);

    /**
     * {@link #kill}, for a death planned at the same point as those of {@code together} (other ranks): where they
     * share a JVM, they die as one ({@link RankContext#killAbruptlyWith}). By default the rank dies at once.
     */
    default RuntimeException killWith(RankContext node, Collection<Integer> together) {
        return kill(node);
    }

    /**
     * In-JVM members: {@code LifecycleService.terminate()}, the other ranks of the JVM told at once, the rank's
     * thread unwinds; ranks planned to die at the same point die together.
     */
    RankKiller TERMINATE_MEMBER = new RankKiller() {
        @Override
        public RuntimeException kill(RankContext node) {
            return node.killAbruptly();
        }

        @Override
        public RuntimeException killWith(RankContext node, Collection<Integer> together) {
            return node.killAbruptlyWith(together);
        }
    };

    /** A member in its own JVM: SIGKILL to this very process. */
    RankKiller SIGKILL_PROCESS = new SigkillSelf();

    /** Called once before the run, so that killing later is immediate. */
    default void prepare() {
    }

    /**
     * Stops the rank for {@code millis} and lets it go on, as a stopped and continued process would. In-JVM
     * members: the calling (iteration) thread blocks, the member's other threads (heartbeats) go on.
     */
    default void pause(RankContext node, long millis) {
        parkFor(millis);
    }

    /**
     * Blocks the calling thread for the whole {@code millis}: one {@code parkNanos} returns early when the
     * thread holds a permit (an earlier {@code unpark}, as a completed future or a queue hands the thread),
     * and a campaign trial's pause was then cut short, the run ending before the pause's length (CI, session
     * 32). An interrupt ends it (the run is being stopped) and stays set for the caller.
     */
    static void parkFor(long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        for (long left = millis * 1_000_000L; left > 0 && !Thread.currentThread().isInterrupted();
             left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
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

        /**
         * SIGSTOP to this very process, and SIGCONT {@code millis} later from a child of the shell (a
         * stopped JVM cannot wake itself): every thread of the rank stops, heartbeats included.
         */
        @Override
        public void pause(RankContext node, long millis) {
            long pid = ProcessHandle.current().pid();
            String seconds = String.format(Locale.ROOT, "%d.%03d", millis / 1000, millis % 1000);
            synchronized (this) {
                prepare();
                try {
                    shell.getOutputStream().write(("(sleep " + seconds + "; kill -CONT " + pid + ") & kill -STOP "
                            + pid + "\n").getBytes(StandardCharsets.US_ASCII));
                    shell.getOutputStream().flush();
                } catch (IOException e) {
                    throw new IllegalStateException("cannot SIGSTOP process " + pid + ": " + e.getMessage(), e);
                }
            }
            // the stop lands within microseconds; once continued, this deadline has passed
            RankKiller.parkFor(millis);
        }

        @Override
        public synchronized RuntimeException kill(RankContext node) {
            long pid = ProcessHandle.current().pid();
            prepare();
            try {
                shell.getOutputStream().write(("kill -9 " + pid + "\n").getBytes(StandardCharsets.US_ASCII));
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
