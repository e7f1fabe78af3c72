package org.dfr.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The few facts about processes of this machine that {@link ExitWatch} reads from Linux's
 * {@code /proc}: whether a process exists, whether it is exiting, when it started, and which boot of
 * which machine this is. The root is a parameter so that tests can point it at a fake tree.
 *
 * <p>Why {@code /proc}: the kernel marks a process that received SIGKILL as exiting ({@code PF_EXITING}
 * in the flags of {@code /proc/PID/stat}) within a millisecond, but closes its sockets only after it
 * has freed its memory: 8 ms for 100 MB, 66 ms for 500 MB measured here. A peer on the same machine
 * can thus see a death long before its connections end.
 */
public final class ProcFs {

    /** Linux's {@code /proc}. */
    public static final Path DEFAULT_ROOT = Path.of("/proc");
    /** {@code PF_EXITING} of include/linux/sched.h: set as the process starts to exit. */
    static final long PF_EXITING = 0x4;

    private final Path root;
    /** Whether {@link #root} is a real proc file system, whose files show the process's state at every read. */
    private final boolean procfs;

    public ProcFs(Path root) {
        this.root = root;
        this.procfs = isProcFs(root);
    }

    private static boolean isProcFs(Path root) {
        try {
            return "proc".equals(Files.getFileStore(root).type());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * What {@code /proc/PID/stat} says of {@code pid}.
     *
     * @param exists   whether the process is there (a zombie still is)
     * @param exiting  whether it exits or has exited ({@code PF_EXITING}, zombie or dead state)
     * @param startTicks its start time in clock ticks after boot (tells a reused pid apart); -1 if gone
     */
    public record ProcessState(boolean exists, boolean exiting, long startTicks) {

        static final ProcessState GONE = new ProcessState(false, true, -1);
    }

    /** The state of process {@code pid}; {@link ProcessState#GONE} when it is not there. */
    public ProcessState stat(long pid) {
        String text;
        try {
            text = Files.readString(root.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            return ProcessState.GONE;
        } catch (IOException e) {
            // the process ended while its file was read
            return ProcessState.GONE;
        }
        return parse(text);
    }

    /**
     * The state of {@code pid}, read again and again: {@link ExitWatch} reads a peer's state hundreds of times a
     * second. On a real {@code /proc} the file stays open and each read is one {@code pread} of it, a quarter of
     * the CPU of opening, reading and closing it (measured here: 3.8 against 13 µs); the open file stays bound to
     * the process it was opened for, so a reused pid reads as gone, never as the new process. Elsewhere (a fake
     * tree in tests) each read opens the file again, as {@link #stat} does.
     *
     * <p>The file read is the main thread's, {@code /proc/PID/task/PID/stat}: the same state, flags and start time as
     * {@code /proc/PID/stat} (both show the thread group's leader), without the sums over every thread of the process
     * that the kernel makes for the latter. A rank JVM has about 70 threads: in a profile of 8 rank processes the
     * kernel's {@code do_task_stat} was a quarter of the exit watch's CPU; 3.3 against 7.8 µs a read for a JVM of 322
     * threads (session 48).
     */
    public StatFile open(long pid) {
        if (!procfs) {
            return new StatFile(null, pid);
        }
        try {
            String p = Long.toString(pid);
            return new StatFile(FileChannel.open(root.resolve(p).resolve("task").resolve(p).resolve("stat"),
                    StandardOpenOption.READ), pid);
        } catch (IOException e) {
            return new StatFile(null, -1); // gone already
        }
    }

    /** One process's {@code stat}, read repeatedly ({@link #open}); close it when done. */
    public final class StatFile implements AutoCloseable {

        private final FileChannel channel;
        private final long pid;
        private final ByteBuffer buffer;

        private StatFile(FileChannel channel, long pid) {
            this.channel = channel;
            this.pid = pid;
            this.buffer = channel == null ? null : ByteBuffer.allocate(1024);
        }

        /** The process's state now; {@link ProcessState#GONE} once it is gone. */
        public ProcessState read() {
            if (pid < 0) {
                return ProcessState.GONE;
            }
            if (channel == null) {
                return stat(pid);
            }
            try {
                buffer.clear();
                int n = channel.read(buffer, 0);
                if (n <= 0) {
                    return ProcessState.GONE;
                }
                return parse(new String(buffer.array(), 0, n, StandardCharsets.US_ASCII));
            } catch (IOException e) {
                return ProcessState.GONE; // ESRCH: the process was reaped
            }
        }

        /** Whether the process was there when this was opened (else every read says {@link ProcessState#GONE}). */
        boolean opened() {
            return pid >= 0;
        }

        /** Whether the file stays open between reads (a real {@code /proc}). */
        boolean keptOpen() {
            return channel != null;
        }

        @Override
        public void close() {
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException e) {
                    // a read-only file of /proc: nothing to lose
                }
            }
        }
    }

    /** Parses a {@code /proc/PID/stat} line (the command name may hold spaces and parentheses). */
    static ProcessState parse(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("not a /proc/PID/stat line: " + stat);
        }
        String[] f = stat.substring(close + 2).trim().split(" ");
        // f[0] is field 3 (state), f[6] field 9 (flags), f[19] field 22 (starttime)
        char state = f[0].charAt(0);
        long flags = Long.parseLong(f[6]);
        long start = Long.parseLong(f[19]);
        boolean exiting = (flags & PF_EXITING) != 0 || state == 'Z' || state == 'X' || state == 'x';
        return new ProcessState(true, exiting, start);
    }

    /** This machine's boot ({@code sys/kernel/random/boot_id}): the same string on every process of one boot. */
    public Optional<String> bootId() {
        try {
            return Optional.of(Files.readString(root.resolve("sys/kernel/random/boot_id"), StandardCharsets.US_ASCII)
                    .trim()).filter(s -> !s.isEmpty());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** This JVM's identity, or empty where {@code /proc} cannot tell it (not Linux, or hidden). */
    public Optional<ProcessIdentity> self() {
        long pid = ProcessHandle.current().pid();
        ProcessState state = stat(pid);
        if (!state.exists()) {
            return Optional.empty();
        }
        return bootId().map(boot -> new ProcessIdentity(boot, pid, state.startTicks()));
    }
}
