package org.dfr.harness;

import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.function.LongFunction;
import java.util.stream.Stream;
import org.dfr.power.AtomicFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pool of warm rank JVMs in a directory: JVMs started ahead of the runs ({@link #start}), each warmed up and then
 * waiting for one claim ({@link PooledRankMain}); a processes-mode run claims one per rank ({@link #claim}) instead of
 * starting a JVM, and so skips the 1.5-2 s of CPU a fresh rank JVM spends on class loading and Hazelcast's start-up
 * code, which 8 ranks on 2 cores pay in series (as Open MPI's persistent daemons or Gradle's daemon do for theirs).
 *
 * <p>A pooled JVM serves one run and exits with it: nothing of a run (static state, a member, threads) meets the
 * next one. A run uses the pool only when its rank JVMs would be started exactly as the pool's were
 * ({@link #incompatibility}): the same java, options and class path (so an external kernel's jar means fresh
 * JVMs), and a heap at least what the run needs; a rank that finds no JVM left in the pool starts a fresh one.
 *
 * <p>The directory holds the pool's {@value #MANIFEST} (how its JVMs were started), one {@code slot-PID.json} per
 * JVM ready for a claim (readable by its owner only: it holds the claim's token), and the JVMs' log.
 */
public final class RankJvmPool {

    private static final Logger LOG = LoggerFactory.getLogger(RankJvmPool.class);

    /** System property: the pool's directory (default {@code ~/.dfr/pool}). */
    public static final String DIRECTORY_PROPERTY = "dfr.poolDir";
    /** What a pooled JVM answers once it took a claim. */
    static final String CLAIMED_LINE = "claimed\n";
    static final String MANIFEST = "pool.json";
    static final String LOG_FILE = "pool.log";
    private static final String SLOT_PREFIX = "slot-";
    private static final String SLOT_SUFFIX = ".json";
    private static final String WARMING_PREFIX = "warming-";
    private static final String OUT_OF_MEMORY_PREFIX = "out-of-memory-";
    /** How long a claimant waits for a pooled JVM's connection and its answer. */
    static final int CLAIM_TIMEOUT_MILLIS = 2_000;

    /**
     * How the pool's JVMs were started.
     *
     * @param command the JVM's command as {@link #comparable} keeps it
     * @param heapMib their {@code -Xmx}
     * @param size how many JVMs the pool keeps ready
     * @param idleSeconds how long an unclaimed JVM waits before it exits
     * @param build {@link #buildOf} the class path of {@code command}: the same path holds another build after a
     *              rebuild, which the JVMs started before do not run
     * @param workingDirectory the JVMs' working directory, where a run's relative paths ({@code --checkpoint-dir},
     *                         a kernel option's file) lead them
     */
    public record Manifest(List<String> command, long heapMib, int size, long idleSeconds, String build,
                           String workingDirectory) {

        /** Whether JVMs started with {@code command} from this working directory would be this pool's. */
        boolean startedAs(List<String> jvmCommand) {
            return command.equals(comparable(jvmCommand)) && build.equals(buildOf(jvmCommand))
                    && workingDirectory().equals(RankJvmPool.workingDirectory());
        }
    }

    private final Path directory;

    public RankJvmPool(Path directory) {
        this.directory = directory.toAbsolutePath().normalize();
    }

    /** {@value #DIRECTORY_PROPERTY}, else {@code ~/.dfr/pool}. */
    public static Path defaultDirectory() {
        String dir = System.getProperty(DIRECTORY_PROPERTY);
        return dir != null && !dir.isBlank() ? Path.of(dir) : Path.of(System.getProperty("user.home"), ".dfr", "pool");
    }

    public Path directory() {
        return directory;
    }

    static Path slotFile(Path dir, long pid) {
        return dir.resolve(SLOT_PREFIX + pid + SLOT_SUFFIX);
    }

    /** The file a pooled JVM has while it warms up (gone once it is ready, or exited). */
    static Path warmingFile(Path dir, long pid) {
        return dir.resolve(WARMING_PREFIX + pid);
    }

    /**
     * The file pooled JVM {@code pid} leaves when its heap runs out: the JVM runs its {@code -XX:OnOutOfMemoryError}
     * command ({@link #outOfMemoryCommand}) and then exits with {@link RankProcessMain#EXIT_OUT_OF_MEMORY}, a code
     * nobody but its parent (not the launcher) could read. Without the file that exit would count as a kill.
     */
    static Path outOfMemoryFile(Path dir, long pid) {
        return dir.resolve(OUT_OF_MEMORY_PREFIX + pid);
    }

    /**
     * The {@code -XX:OnOutOfMemoryError} command that leaves {@link #outOfMemoryFile}: HotSpot runs it with
     * {@code /bin/sh -c} after replacing {@code %p} with the pid (and {@code %%} with {@code %}).
     */
    static String outOfMemoryCommand(Path dir) {
        String file = dir.toAbsolutePath().resolve(OUT_OF_MEMORY_PREFIX).toString().replace("%", "%%");
        return "touch '" + file.replace("'", "'\\''") + "%p'";
    }

    /**
     * The parts of a rank JVM's command that decide whether a pooled JVM can stand in for it: all but the heap size,
     * the rank id, the class data archive's options (a rank's own, and the same classes either way), when the JIT
     * compiles (a pooled JVM compiles early: its warm-up is not the run's time) and the main class.
     */
    static List<String> comparable(List<String> command) {
        return command.subList(0, command.size() - 1).stream()
                .filter(o -> !o.startsWith("-Xmx"))
                .filter(o -> !o.startsWith("-D" + ProcessLauncher.RANK_PROPERTY + "="))
                .filter(o -> !o.startsWith("-XX:SharedArchiveFile=") && !o.startsWith("-XX:ArchiveClassesAtExit=")
                        && !o.startsWith("-Xlog:cds") && !o.startsWith("-XX:CompileThresholdScaling="))
                .toList();
    }

    /** This JVM's working directory, which the pool's JVMs it starts inherit. */
    private static String workingDirectory() {
        return Path.of(System.getProperty("user.dir")).toAbsolutePath().normalize().toString();
    }

    /**
     * What the class path of {@code command} holds now: each entry's path, size and modification time (of the newest
     * file under it, for a directory of classes).
     */
    static String buildOf(List<String> command) {
        int cp = command.indexOf("-cp");
        if (cp < 0 || cp + 1 >= command.size()) {
            return "";
        }
        StringBuilder build = new StringBuilder();
        for (String entry : command.get(cp + 1).split(File.pathSeparator)) {
            Path p = Path.of(entry);
            build.append(entry).append('|');
            try {
                if (Files.isDirectory(p)) {
                    try (Stream<Path> files = Files.walk(p)) {
                        build.append(files.filter(Files::isRegularFile).mapToLong(RankJvmPool::modified).max()
                                .orElse(0));
                    }
                } else if (Files.exists(p)) {
                    build.append(Files.size(p)).append('@').append(modified(p));
                }
            } catch (IOException | UncheckedIOException e) {
                build.append("unreadable");
            }
            build.append(File.pathSeparator);
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(build.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            return build.toString(); // every JVM has SHA-256; the text itself would do as well
        }
    }

    private static long modified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** How the pool started last in this directory was started; empty when none was (or its file is unreadable). */
    public Optional<Manifest> manifest() {
        Path file = directory.resolve(MANIFEST);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(RunReports.JSON.readValue(file.toFile(), Manifest.class));
        } catch (IOException e) {
            LOG.warn("cannot read the rank JVM pool's {}: {}", file, e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * Why a run whose rank JVMs would be started with {@code command} cannot use this pool, or empty when it can.
     *
     * @param heapMib the heap the run's ranks need
     */
    Optional<String> incompatibility(List<String> command, long heapMib) {
        Optional<Manifest> manifest = manifest();
        if (manifest.isEmpty()) {
            return Optional.of("no pool was started in " + directory);
        }
        if (!manifest.get().build().equals(buildOf(command))) {
            return Optional.of("its JVMs run another build of the class path (`dfr pool start` again starts them anew)");
        }
        if (!workingDirectory().equals(manifest.get().workingDirectory())) {
            return Optional.of("its JVMs work in " + manifest.get().workingDirectory() + " and this run in "
                    + workingDirectory() + ": the run's relative paths would lead them elsewhere");
        }
        if (manifest.get().heapMib() < heapMib) {
            return Optional.of("its JVMs have a heap of " + manifest.get().heapMib() + " MiB and the run's ranks need "
                    + heapMib + " MiB (dfr pool start --heap-mib)");
        }
        List<String> mine = manifest.get().command();
        List<String> theirs = comparable(command);
        if (!mine.equals(theirs)) {
            List<String> onlyRun = new ArrayList<>(theirs);
            onlyRun.removeAll(mine);
            List<String> onlyPool = new ArrayList<>(mine);
            onlyPool.removeAll(theirs);
            return Optional.of("the run's rank JVMs would be started otherwise (the run only: " + onlyRun
                    + "; the pool only: " + onlyPool + ")");
        }
        return Optional.empty();
    }

    /**
     * Whether a pool started with {@code command} and {@code heapMib} is the one started last here (then more JVMs
     * join it; otherwise a new start replaces it).
     */
    public boolean startedWith(List<String> command, long heapMib) {
        return manifest().map(m -> m.heapMib() == heapMib && m.startedAs(command)).orElse(false);
    }

    /**
     * Starts, in the background, as many JVMs as the pool lacks of its size (after a run claimed some), with its own
     * heap, idle time and {@code commandOfHeap} of its heap ({@link ProcessLauncher#pooledJvmCommand}); nothing when
     * that command is not the pool's (a run that could not use the pool would replace it by refilling it).
     *
     * @return how many JVMs were started
     */
    public int refill(LongFunction<List<String>> commandOfHeap) {
        Optional<Manifest> manifest = manifest();
        if (manifest.isEmpty()) {
            return 0;
        }
        Manifest m = manifest.get();
        int missing = m.size() - unclaimed().size();
        if (missing <= 0) {
            return 0;
        }
        List<String> command = commandOfHeap.apply(m.heapMib());
        if (!m.startedAs(command)) {
            return 0;
        }
        start(command, m.heapMib(), m.size(), missing, m.idleSeconds());
        return missing;
    }

    /** The JVMs ready for a claim; files of JVMs that are gone are deleted. */
    public List<Long> readyPids() {
        return readySlots().stream().map(PoolSlot::pid).toList();
    }

    List<PoolSlot> readySlots() {
        List<PoolSlot> slots = new ArrayList<>();
        if (!Files.isDirectory(directory)) {
            return slots;
        }
        try (Stream<Path> files = Files.list(directory)) {
            for (Path f : files.sorted().toList()) {
                String name = f.getFileName().toString();
                if (!name.startsWith(SLOT_PREFIX) || !name.endsWith(SLOT_SUFFIX)) {
                    continue;
                }
                try {
                    PoolSlot slot = RunReports.JSON.readValue(f.toFile(), PoolSlot.class);
                    if (ProcessHandle.of(slot.pid()).map(ProcessHandle::isAlive).orElse(false)) {
                        slots.add(slot);
                    } else {
                        Files.deleteIfExists(f);
                    }
                } catch (IOException e) {
                    LOG.debug("skipping {}: {}", f, e.toString());
                }
            }
        } catch (IOException e) {
            LOG.warn("cannot list the rank JVM pool in {}: {}", directory, e.getMessage());
        }
        return slots;
    }

    /**
     * Claims a ready JVM for {@code claim}: it runs the rank at once, its output and input on the returned
     * {@link RankJvm}. Empty when no JVM of the pool took it (none left, or all taken by other runs meanwhile).
     */
    Optional<RankJvm> claim(PoolClaim claim) {
        for (PoolSlot slot : readySlots()) {
            Optional<RankJvm> jvm = claim(slot, claim);
            if (jvm.isPresent()) {
                return jvm;
            }
        }
        return Optional.empty();
    }

    private Optional<RankJvm> claim(PoolSlot slot, PoolClaim claim) {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), slot.port()), CLAIM_TIMEOUT_MILLIS);
            socket.setSoTimeout(CLAIM_TIMEOUT_MILLIS);
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            out.write((slot.token() + "\n" + RunReports.JSON.writer().without(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(claim) + "\n")
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            String answer = readLine(in, CLAIMED_LINE.length());
            if (!CLAIMED_LINE.strip().equals(answer)) {
                LOG.warn("pooled JVM {} refused the claim (it answered {})", slot.pid(), answer);
                socket.close();
                return Optional.empty();
            }
            socket.setSoTimeout(0);
            return Optional.of(new PooledRankJvm(socket, in, slot.pid(), Path.of(claim.exitFile()),
                    outOfMemoryFile(directory, slot.pid())));
        } catch (IOException e) {
            // taken by another run, or gone: the next one
            LOG.debug("pooled JVM {} not claimed: {}", slot.pid(), e.toString());
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing only
            }
            return Optional.empty();
        }
    }

    /**
     * One line, byte by byte: a buffering reader could take bytes that follow it, which are the rank's output or
     * input; null when the stream ends first or the line is longer than {@code maxBytes}.
     */
    static String readLine(InputStream in, int maxBytes) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0 || line.size() > maxBytes) {
                return null;
            }
            line.write(b);
        }
        return line.toString(StandardCharsets.UTF_8);
    }

    /**
     * Starts {@code count} pooled JVMs with {@code command} ({@link ProcessLauncher#pooledJvmCommand}, its main class
     * last, which is replaced) and records how in the manifest, with the {@code size} the pool keeps; they warm up in
     * the background.
     *
     * @return their process handles
     */
    public List<ProcessHandle> start(List<String> command, long heapMib, int size, int count, long idleSeconds) {
        try {
            Files.createDirectories(directory);
            try {
                Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
            } catch (UnsupportedOperationException noPosix) {
                // the slot files are private themselves
            }
            AtomicFiles.write(directory.resolve(MANIFEST),
                    tmp -> RunReports.JSON.writeValue(tmp.toFile(), new Manifest(comparable(command), heapMib, size, idleSeconds, buildOf(command),
                            workingDirectory())));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set up the rank JVM pool in " + directory + ": " + e.getMessage(), e);
        }
        List<String> cmd = new ArrayList<>();
        // its own session: a Ctrl-C in the terminal that started the pool is not for its JVMs
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            cmd.add("/usr/bin/setsid");
        }
        cmd.addAll(command.subList(0, command.size() - 1));
        // not part of the manifest's command: it names this pool's directory, which a run's command cannot
        cmd.add("-XX:OnOutOfMemoryError=" + outOfMemoryCommand(directory));
        cmd.addAll(List.of(PooledRankMain.class.getName(), "--dir", directory.toString(),
                "--idle-seconds", Long.toString(idleSeconds)));
        List<ProcessHandle> started = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            try {
                Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(directory.resolve(LOG_FILE).toFile()))
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
                // the JVM writes it too, once it runs: `stop` finds it from now on (by its command line once it is
                // a JVM, which takes a few milliseconds)
                Files.writeString(warmingFile(directory, p.pid()), "");
                started.add(p.toHandle());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start a pooled rank JVM: " + e.getMessage(), e);
            }
        }
        return started;
    }

    /**
     * Waits until {@code count} JVMs are ready, telling {@code progress} each new count.
     *
     * @return whether they are; false when the time ran out or too many JVMs of {@code starting} exited to reach it
     */
    public boolean awaitReady(int count, List<ProcessHandle> starting, long timeoutMillis, IntConsumer progress)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        int said = -1;
        while (true) {
            List<Long> readyNow = readyPids();
            int ready = readyNow.size();
            if (ready != said) {
                progress.accept(ready);
                said = ready;
            }
            if (ready >= count) {
                return true;
            }
            long stillWarming = starting.stream().filter(ProcessHandle::isAlive)
                    .filter(p -> !readyNow.contains(p.pid())).count();
            if (System.nanoTime() > deadline || readyNow.size() + stillWarming < count) {
                return false;
            }
            Thread.sleep(50);
        }
    }

    /**
     * The pool's JVMs that are not claimed: ready ones and those still warming up (a JVM of this pool by its command
     * line, with its file in the directory).
     */
    public List<ProcessHandle> unclaimed() {
        return ProcessHandle.allProcesses()
                .filter(p -> Files.exists(slotFile(directory, p.pid())) || Files.exists(warmingFile(directory, p.pid())))
                .filter(p -> isPooledJvmOf(commandLine(p), directory.toString()))
                .toList();
    }

    /**
     * The process's command line: from {@code /proc} where there is one ({@link ProcessHandle.Info#arguments} leaves
     * out the end of a long one, such as a test's class path followed by the main class).
     */
    private static List<String> commandLine(ProcessHandle p) {
        Path cmdline = Path.of("/proc", Long.toString(p.pid()), "cmdline");
        try {
            return List.of(Files.readString(cmdline, StandardCharsets.UTF_8).split("\0"));
        } catch (IOException | UncheckedIOException e) {
            return p.info().arguments().map(List::of).orElse(List.of());
        }
    }

    private static boolean isPooledJvmOf(List<String> args, String dir) {
        int main = args.indexOf(PooledRankMain.class.getName());
        int dirAt = args.indexOf("--dir");
        return main >= 0 && dirAt > main && dirAt + 1 < args.size() && args.get(dirAt + 1).equals(dir);
    }

    /**
     * Stops every JVM of the pool that waits for a claim or warms up (a claimed one belongs to its run) and deletes
     * their files.
     *
     * @return how many were stopped
     */
    public int stop() throws InterruptedException {
        List<ProcessHandle> all = unclaimed();
        all.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle p : all) {
            try {
                p.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                LOG.warn("pooled JVM {} did not exit within 10 s of SIGKILL", p.pid());
            }
        }
        for (ProcessHandle p : all) {
            try {
                Files.deleteIfExists(slotFile(directory, p.pid()));
                Files.deleteIfExists(warmingFile(directory, p.pid()));
                Files.deleteIfExists(outOfMemoryFile(directory, p.pid()));
            } catch (IOException e) {
                LOG.warn("cannot delete the files of pooled JVM {}: {}", p.pid(), e.getMessage());
            }
        }
        return all.size();
    }
}
