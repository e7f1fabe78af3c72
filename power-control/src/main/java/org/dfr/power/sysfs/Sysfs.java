package org.dfr.power.sysfs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A sysfs tree: a {@link SysfsRoot} plus the {@link SysfsFileSystem} that reaches it. All paths given to
 * it are relative to the root, e.g. {@code sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq}.
 */
public final class Sysfs {

    private final SysfsRoot root;
    private final SysfsFileSystem fs;

    public Sysfs(SysfsRoot root, SysfsFileSystem fs) {
        this.root = Objects.requireNonNull(root, "root");
        this.fs = Objects.requireNonNull(fs, "fs");
    }

    /** @return the tree at {@code root} reached through real files */
    public static Sysfs at(SysfsRoot root) {
        return new Sysfs(root, SysfsFileSystem.real());
    }

    /** @return the machine's real tree at {@code /} */
    public static Sysfs system() {
        return at(SysfsRoot.SYSTEM);
    }

    public SysfsRoot root() {
        return root;
    }

    public SysfsFileSystem fileSystem() {
        return fs;
    }

    /** @return the absolute path of {@code relative} */
    public Path path(String relative) {
        return root.resolve(relative);
    }

    /** @return the absolute path of {@code relative} as text, for messages */
    public String display(String relative) {
        return root.display(relative);
    }

    public boolean exists(String relative) {
        return fs.exists(path(relative));
    }

    public boolean isDirectory(String relative) {
        return fs.isDirectory(path(relative));
    }

    /** @return sorted entry names of a directory, empty when it does not exist */
    public List<String> list(String relativeDir) throws IOException {
        return fs.list(path(relativeDir));
    }

    /** @return the stripped content of an attribute */
    public String read(String relative) throws IOException {
        return fs.read(path(relative));
    }

    /**
     * @return the attribute parsed as a decimal long
     * @throws IOException when it cannot be read or does not hold a number
     */
    public long readLong(String relative) throws IOException {
        String text = read(relative);
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IOException(display(relative) + " holds '" + text + "', not a whole number", e);
        }
    }

    public void write(String relative, String value) throws IOException {
        fs.write(path(relative), value);
    }

    public boolean isWritable(String relative) {
        return fs.isWritable(path(relative));
    }

    public boolean isReadable(String relative) {
        return fs.isReadable(path(relative));
    }

    @Override
    public String toString() {
        return "Sysfs[" + root + "]";
    }
}
