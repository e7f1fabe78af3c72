package org.dfr.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One started rank process seen from the launcher: its output is pumped line by line to the
 * launcher's log with a {@code [rank r] } prefix (the last lines are kept for error messages), and
 * the lines the rank prints at its milestones complete futures.
 */
final class RankProcess {

    private static final Logger LOG = LoggerFactory.getLogger(RankProcess.class);

    private final int rank;
    private final RankJvm process;
    private final int tailLines;
    private final Deque<String> tail = new ArrayDeque<>();
    private final CompletableFuture<Long> up = new CompletableFuture<>();
    private final CompletableFuture<Long> formed = new CompletableFuture<>();
    private final CompletableFuture<Long> loopStarted = new CompletableFuture<>();
    private final CompletableFuture<Long> iterating = new CompletableFuture<>();
    private final Thread pump;
    private final CappingRelay capping;

    private final Set<String> failuresSaid;

    /** What a JVM started with the vector module prints first. */
    static final String INCUBATOR_NOTICE = "WARNING: Using incubator modules";

    private RankProcess(int rank, RankJvm process, PrintStream log, int tailLines, CappingRelay capping,
                        Set<String> failuresSaid) {
        this.rank = rank;
        this.failuresSaid = failuresSaid;
        this.process = process;
        this.tailLines = tailLines;
        this.capping = capping;
        this.pump = new Thread(() -> pump(log), "dfr-rank" + rank + "-log");
        pump.setDaemon(true);
        pump.start();
    }

    /**
     * Starts the process, stdout and stderr merged.
     *
     * @param capping where its {@link CappingLines} go (a local launcher always has one; null: they are printed)
     * @param failuresSaid the run-failed lines some rank of the run already relayed (shared by the run's ranks):
     *                     eight ranks giving the same reason are one line to read
     * @throws UncheckedIOException when the JVM cannot be started
     */
    static RankProcess start(int rank, List<String> command, PrintStream log, int tailLines, CappingRelay capping,
                             Set<String> failuresSaid) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            return new RankProcess(rank, RankJvm.child(p), log, tailLines, capping, failuresSaid);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the process of rank " + rank + ": " + e.getMessage(), e);
        }
    }

    /** As {@link #start}, for a JVM claimed from a pool: it runs already. */
    static RankProcess of(int rank, RankJvm jvm, PrintStream log, int tailLines, CappingRelay capping,
                          Set<String> failuresSaid) {
        return new RankProcess(rank, jvm, log, tailLines, capping, failuresSaid);
    }

    private void pump(PrintStream log) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.output(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (capping != null && line.startsWith(CappingLines.PREFIX)) {
                    try {
                        capping.onLine(rank, line, process.input());
                    } catch (RuntimeException e) {
                        // the pump must go on: a rank whose output is no longer read blocks on its next line
                        LOG.warn("rank {}: capping line '{}' not handled: {}", rank, line, e.toString());
                    }
                    continue;
                }
                // markers for the launcher (which prints one "cluster formed" line of its own), not news for people:
                // 16 of them per run filled a campaign's or an experiment's console; kept in the tail for a failure
                boolean marker = true;
                if (line.startsWith(RankProcessMain.MEMBER_UP_LINE)) {
                    up.complete(System.nanoTime());
                } else if (line.startsWith(RankProcessMain.CLUSTER_FORMED_LINE)) {
                    formed.complete(System.nanoTime());
                } else if (line.startsWith(RankProcessMain.LOOP_STARTED_LINE)) {
                    loopStarted.complete(System.nanoTime());
                    continue;
                } else if (line.startsWith(RankProcessMain.ITERATING_LINE)) {
                    iterating.complete(System.nanoTime());
                    continue;
                } else if (line.startsWith(RankProcessMain.RESULT_LINE)) {
                    continue; // the launcher prints the report's figures itself
                } else {
                    marker = false;
                }
                synchronized (tail) {
                    if (tail.size() == tailLines) {
                        tail.removeFirst();
                    }
                    tail.addLast(line);
                }
                boolean saidBefore = line.startsWith(RankProcessMain.RUN_FAILED_LINE) && !failuresSaid.add(line);
                // the JVM's own notice, the same from every rank JVM: the launcher's JVM printed it already
                boolean jvmNotice = line.startsWith(INCUBATOR_NOTICE);
                if (!marker && !saidBefore && !jvmNotice) {
                    log.println("[rank " + rank + "] " + line);
                }
            }
        } catch (IOException e) {
            // the stream closes when the process dies; nothing is lost that matters
        }
    }

    int rank() {
        return rank;
    }

    ProcessHandle handle() {
        return process.handle();
    }

    CompletableFuture<Integer> onExit() {
        return process.exit();
    }

    /** Whether the JVM's exit was not seen yet. */
    boolean isAlive() {
        return !process.exit().isDone();
    }

    /** The exit code; only once {@link #onExit} completed. */
    int exitValue() {
        return process.exit().join();
    }

    /** System.nanoTime() at which the rank reported that it enters the iteration loop, if it did. */
    CompletableFuture<Long> loopStarted() {
        return loopStarted;
    }

    /** System.nanoTime() at which the rank reported its first iteration begun (checkpoint 0 taken), if it did. */
    CompletableFuture<Long> iterating() {
        return iterating;
    }

    /** System.nanoTime() at which the rank reported that its cluster has formed, if it did. */
    CompletableFuture<Long> formed() {
        return formed;
    }

    /**
     * Waits until the member is up or the process exited.
     *
     * @return true if the member is up; false if the process exited first
     * @throws TimeoutException if neither happened within the timeout
     */
    boolean awaitUp(long timeoutMillis) throws TimeoutException, InterruptedException {
        try {
            CompletableFuture.anyOf(up, process.exit()).get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        return up.isDone();
    }

    void kill() {
        process.kill();
    }

    /** Waits for the process to exit; true if it did. */
    boolean awaitExit(long timeoutMillis) throws InterruptedException {
        try {
            process.exit().get(timeoutMillis, TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true;
        }
    }

    /** The last lines the process printed (waits briefly for the pump to drain a dead process). */
    List<String> lastLines() {
        if (!isAlive()) {
            try {
                pump.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (tail) {
            return new ArrayList<>(tail);
        }
    }
}
