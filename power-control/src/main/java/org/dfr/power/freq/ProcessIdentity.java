package org.dfr.power.freq;

import java.nio.file.Files;
import java.nio.file.Path;

/** Who this process runs as, to explain why a sysfs attribute is not writable. */
final class ProcessIdentity {

    private ProcessIdentity() {
    }

    static boolean isRoot() {
        try {
            // /proc/self belongs to the process's effective uid
            Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            return Integer.valueOf(0).equals(uid);
        } catch (Exception e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    static String notWritableReason(String displayPath) {
        if (isRoot()) {
            return displayPath + " is not writable although this process runs as root:"
                    + " sysfs is mounted read-only (a container?)";
        }
        return displayPath + " is not writable: cpufreq writes need root (this process runs as '"
                + System.getProperty("user.name") + "')";
    }
}
