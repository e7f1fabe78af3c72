package org.dfr.harness;

/**
 * Told about every rank process a {@link ProcessLauncher} starts (tests record the pids to check
 * that none outlives the run). Calls come from the launcher's threads and must return quickly.
 */
@FunctionalInterface
public interface RankProcessListener {

    /** Listens to nothing. */
    RankProcessListener NONE = (rank, process) -> {
    };

    /** The process of {@code rank} was just started (called on the thread running the launcher). */
    void started(int rank, ProcessHandle process);

    /**
     * The process of {@code rank} exited by itself with {@code exitCode} (0: it ended the run, 137: SIGKILL). Not
     * called for processes the launcher kills when it gives up or after the run's grace period.
     */
    default void exited(int rank, int exitCode) {
    }

    /**
     * Every rank process reported that it sees the whole cluster, {@code millis} after the launcher
     * started the first one (JVM start-up included).
     */
    default void clusterFormed(int members, long millis) {
    }

    /**
     * The first rank process entered the iteration loop (start-up and warm-up done), {@code millis}
     * after the launcher started the first one.
     */
    default void firstIteration(long millis) {
    }

    /**
     * The first rank process began its first iteration, checkpoint 0 taken and committed (so every partition has its
     * replicated copy), {@code millis} after the launcher started the first one.
     */
    default void iterating(long millis) {
    }

    /**
     * The rank processes did not form their cluster before any computed ({@code reason}, the failing
     * rank's message); every one was stopped and attempt {@code attempt} starts them afresh
     * ({@link ProcessLauncher#FORMATION_ATTEMPTS}).
     */
    default void formationRetried(int attempt, String reason) {
    }
}
