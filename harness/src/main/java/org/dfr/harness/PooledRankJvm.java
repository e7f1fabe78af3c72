package org.dfr.harness;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A rank JVM claimed from a {@link RankJvmPool}: its output and input are the claim's connection, and since this
 * launcher is not its parent, its exit code is the one it wrote to the claim's exit file before exiting; a JVM that
 * is gone without one ran out of memory if it left its {@link RankJvmPool#outOfMemoryFile} (its exit code was then
 * {@value RankProcessMain#EXIT_OUT_OF_MEMORY}), else was killed, and counts as
 * {@value ProcessLauncher#SIGKILL_EXIT_CODE}.
 */
final class PooledRankJvm implements RankJvm {

    /** How long a JVM whose connection ended may take to be gone from the process table. */
    static final long GONE_TIMEOUT_MILLIS = 5_000;
    static final long GONE_POLL_MILLIS = 2;

    private final Socket socket;
    private final InputStream output;
    private final OutputStream input;
    private final ProcessHandle handle;
    private final Path exitFile;
    private final Path outOfMemoryFile;
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    private final AtomicBoolean ended = new AtomicBoolean();

    /**
     * @param socket the claim's connection, after the pooled JVM acknowledged the claim
     * @param in the connection's input stream, as far as it was read
     */
    PooledRankJvm(Socket socket, InputStream in, long pid, Path exitFile, Path outOfMemoryFile) throws IOException {
        this.socket = socket;
        this.exitFile = exitFile;
        this.outOfMemoryFile = outOfMemoryFile;
        this.input = socket.getOutputStream();
        this.handle = ProcessHandle.of(pid).orElseThrow(() -> new IOException("pooled JVM " + pid + " is gone"));
        this.output = new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                return ended(() -> super.read());
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return ended(() -> super.read(b, off, len));
            }
        };
        // a JVM that ends without its connection ending (it cannot) would still be seen, within seconds
        handle.onExit().thenRun(this::connectionEnded);
    }

    private interface Read {
        int read() throws IOException;
    }

    private int ended(Read read) throws IOException {
        try {
            int n = read.read();
            if (n < 0) {
                connectionEnded();
            }
            return n;
        } catch (IOException e) {
            connectionEnded();
            throw e;
        }
    }

    /** The connection ended, so the JVM is exiting: its code once it is gone. */
    private void connectionEnded() {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        Thread reaper = new Thread(() -> {
            // polled: the JDK polls a process that is not its child from 300 ms on
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GONE_TIMEOUT_MILLIS);
            while (handle.isAlive() && System.nanoTime() < deadline) {
                try {
                    Thread.sleep(GONE_POLL_MILLIS);
                } catch (InterruptedException e) {
                    break; // read the exit file anyway: a JVM that wrote it is done
                }
            }
            try {
                socket.close();
            } catch (IOException e) {
                // closing only
            }
            try {
                exit.complete(exitCode(exitFile, outOfMemoryFile));
            } catch (RuntimeException e) {
                exit.completeExceptionally(e); // an unreadable exit file fails the run rather than leave it waiting
            }
        }, "dfr-pooled-rank-exit");
        reaper.setDaemon(true);
        reaper.start();
    }

    /**
     * The exit code of a pooled JVM that is gone: the one in {@code exitFile}; else
     * {@value RankProcessMain#EXIT_OUT_OF_MEMORY} when it left {@code outOfMemoryFile} (deleted here: the pid may be
     * another JVM's later); else {@value ProcessLauncher#SIGKILL_EXIT_CODE}.
     */
    static int exitCode(Path exitFile, Path outOfMemoryFile) {
        Optional<Integer> written = exitCode(exitFile);
        if (written.isPresent()) {
            return written.get();
        }
        try {
            return Files.deleteIfExists(outOfMemoryFile) ? RankProcessMain.EXIT_OUT_OF_MEMORY
                    : ProcessLauncher.SIGKILL_EXIT_CODE;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete a pooled rank's out-of-memory file " + outOfMemoryFile, e);
        }
    }

    /** The exit code in {@code file}, empty when there is none (the JVM was killed before it wrote one). */
    private static Optional<Integer> exitCode(Path file) {
        try {
            return Optional.of(Integer.parseInt(Files.readString(file).strip()));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read a pooled rank's exit code in " + file, e);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public InputStream output() {
        return output;
    }

    @Override
    public OutputStream input() {
        return input;
    }

    @Override
    public ProcessHandle handle() {
        return handle;
    }

    @Override
    public CompletableFuture<Integer> exit() {
        return exit;
    }

    @Override
    public void kill() {
        handle.destroyForcibly();
    }
}
