package org.dfr.harness;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;

/**
 * A rank's JVM as its launcher sees it: a child process it started ({@link #child}), or a warm JVM it claimed
 * from a {@link RankJvmPool} ({@link PooledRankJvm}).
 */
interface RankJvm {

    /** The rank's stdout and stderr, merged; ends when the JVM is gone. */
    InputStream output();

    /** The rank's stdin (the launcher's capping replies). */
    OutputStream input();

    ProcessHandle handle();

    /** Completes with the exit code once the JVM is gone ({@value ProcessLauncher#SIGKILL_EXIT_CODE}: killed). */
    CompletableFuture<Integer> exit();

    /** SIGKILL. */
    void kill();

    /** A started child process. */
    static RankJvm child(Process process) {
        CompletableFuture<Integer> exit = process.onExit().thenApply(Process::exitValue);
        return new RankJvm() {
            @Override
            public InputStream output() {
                return process.getInputStream();
            }

            @Override
            public OutputStream input() {
                return process.getOutputStream();
            }

            @Override
            public ProcessHandle handle() {
                return process.toHandle();
            }

            @Override
            public CompletableFuture<Integer> exit() {
                return exit;
            }

            @Override
            public void kill() {
                process.destroyForcibly();
            }
        };
    }
}
