package org.dfr.power.sysfs;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Test double: real files underneath, with the kernel's cpufreq rules applied on write, so a plain
 * directory tree behaves like sysfs. Writes to {@code scaling_max_freq} are clamped to
 * {@code [cpuinfo_min_freq, cpuinfo_max_freq]} (and to a simulated firmware limit) and drag
 * {@code scaling_min_freq} down; writes to {@code scaling_min_freq} are clamped to the current maximum;
 * governors must be listed as available. Paths can be made unwritable or unreadable (tests run as root,
 * for whom file modes deny nothing). Every write is logged.
 */
public final class KernelRulesFileSystem implements SysfsFileSystem {

    private final Path root;
    private final SysfsFileSystem files = SysfsFileSystem.real();
    private final List<String> writeLog = new ArrayList<>();
    private final Set<Path> notWritable = new HashSet<>();
    private final Set<Path> failingWrites = new HashSet<>();
    private final Set<Path> unreadable = new HashSet<>();
    private final Map<Path, Long> firmwareMaxLimit = new HashMap<>();

    public KernelRulesFileSystem(Path root) {
        this.root = root;
    }

    /** {@code access(W_OK)} says no and writes fail with EACCES, as for a non-root user. */
    public synchronized void denyWrite(String relative) {
        notWritable.add(root.resolve(relative));
    }

    /** {@code access(W_OK)} says yes but writes fail with EACCES (e.g. an LSM policy). */
    public synchronized void failWrites(String relative) {
        failingWrites.add(root.resolve(relative));
    }

    /** Reads fail with EACCES, as RAPL {@code energy_uj} for non-root since Linux 5.10. */
    public synchronized void denyRead(String relative) {
        unreadable.add(root.resolve(relative));
    }

    /** Simulates a platform limit (thermal, BIOS) under which {@code scaling_max_freq} cannot rise. */
    public synchronized void limitMaximum(String policyDir, long kHz) {
        firmwareMaxLimit.put(root.resolve(policyDir), kHz);
    }

    /** @return every write so far as {@code relative/path=value}, in order */
    public synchronized List<String> writeLog() {
        return List.copyOf(writeLog);
    }

    @Override
    public boolean exists(Path path) {
        return files.exists(path);
    }

    @Override
    public boolean isDirectory(Path path) {
        return files.isDirectory(path);
    }

    @Override
    public List<String> list(Path dir) throws IOException {
        return files.list(dir);
    }

    @Override
    public synchronized String read(Path path) throws IOException {
        if (unreadable.contains(path)) {
            throw new AccessDeniedException(path.toString());
        }
        return files.read(path);
    }

    @Override
    public synchronized void write(Path path, String value) throws IOException {
        if (notWritable.contains(path) || failingWrites.contains(path)) {
            throw new AccessDeniedException(path.toString());
        }
        writeLog.add(root.relativize(path) + "=" + value);
        Path dir = path.getParent();
        switch (path.getFileName().toString()) {
            case "scaling_max_freq" -> writeMax(dir, parse(path, value));
            case "scaling_min_freq" -> writeMin(dir, parse(path, value));
            case "scaling_governor" -> writeGovernor(dir, path, value);
            default -> files.write(path, value);
        }
    }

    private void writeMax(Path dir, long value) throws IOException {
        long hwMax = Math.min(get(dir, "cpuinfo_max_freq"), firmwareMaxLimit.getOrDefault(dir, Long.MAX_VALUE));
        long max = Math.max(get(dir, "cpuinfo_min_freq"), Math.min(hwMax, value));
        set(dir, "scaling_max_freq", max);
        if (get(dir, "scaling_min_freq") > max) {
            set(dir, "scaling_min_freq", max);
        }
        followCurrent(dir);
    }

    private void writeMin(Path dir, long value) throws IOException {
        long min = Math.max(get(dir, "cpuinfo_min_freq"), Math.min(get(dir, "cpuinfo_max_freq"), value));
        set(dir, "scaling_min_freq", Math.min(min, get(dir, "scaling_max_freq")));
        followCurrent(dir);
    }

    private void writeGovernor(Path dir, Path path, String value) throws IOException {
        List<String> available = Arrays.asList(files.read(dir.resolve("scaling_available_governors")).split("\\s+"));
        if (!available.contains(value)) {
            throw new IOException(path + ": Invalid argument");
        }
        files.write(path, value);
    }

    private void followCurrent(Path dir) throws IOException {
        if (files.exists(dir.resolve("scaling_cur_freq"))) {
            long cur = get(dir, "scaling_cur_freq");
            set(dir, "scaling_cur_freq",
                    Math.max(get(dir, "scaling_min_freq"), Math.min(get(dir, "scaling_max_freq"), cur)));
        }
    }

    private static long parse(Path path, String value) throws IOException {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new IOException(path + ": Invalid argument");
        }
    }

    private long get(Path dir, String file) throws IOException {
        return Long.parseLong(files.read(dir.resolve(file)));
    }

    private void set(Path dir, String file, long value) throws IOException {
        files.write(dir.resolve(file), Long.toString(value));
    }

    @Override
    public synchronized boolean isWritable(Path path) {
        return !notWritable.contains(path) && files.isWritable(path);
    }

    @Override
    public synchronized boolean isReadable(Path path) {
        return !unreadable.contains(path) && files.isReadable(path);
    }
}
