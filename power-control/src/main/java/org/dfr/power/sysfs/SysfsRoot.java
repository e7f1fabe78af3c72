package org.dfr.power.sysfs;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where the sysfs tree lives: {@code /} on a real machine, any directory holding a fake tree otherwise.
 * Relative sysfs paths such as {@code sys/devices/system/cpu/cpufreq} are resolved against it.
 *
 * @param path the absolute, normalised root directory
 */
public record SysfsRoot(Path path) {

    /** The real root of the machine. */
    public static final SysfsRoot SYSTEM = new SysfsRoot(Path.of("/"));

    public SysfsRoot {
        Objects.requireNonNull(path, "path");
        path = path.toAbsolutePath().normalize();
    }

    /** @return a root at {@code path} */
    public static SysfsRoot of(Path path) {
        return new SysfsRoot(path);
    }

    /** @return whether this is the machine's real root {@code /} */
    public boolean isSystem() {
        return path.getParent() == null;
    }

    /**
     * @param relative a path such as {@code sys/class/powercap}; a leading {@code /} is ignored
     * @return the absolute path under this root
     */
    public Path resolve(String relative) {
        String stripped = relative;
        while (stripped.startsWith("/")) {
            stripped = stripped.substring(1);
        }
        return stripped.isEmpty() ? path : path.resolve(stripped);
    }

    /** @return how a relative path is shown to users: absolute on a real root, root-prefixed otherwise */
    public String display(String relative) {
        return resolve(relative).toString();
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
