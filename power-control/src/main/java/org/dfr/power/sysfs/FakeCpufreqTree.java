package org.dfr.power.sysfs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a fake cpufreq tree per simulated host ({@code root/host0}, {@code root/host1}, ...), each with one
 * acpi-cpufreq policy, for experiments on a machine whose frequency cannot be changed (a VM): capping then
 * writes {@code scaling_max_freq} of these files, and the load model reads the capped frequency back from
 * them. Nothing here touches the real {@code /sys}; every report that uses such a tree says so.
 */
public final class FakeCpufreqTree {

    /** The policy directory inside a host's tree. */
    public static final String POLICY = "sys/devices/system/cpu/cpufreq/policy0";

    private FakeCpufreqTree() {
    }

    /**
     * Creates (or resets) the trees of {@code hosts} hosts under {@code root}.
     *
     * @param minKHz {@code cpuinfo_min_freq}, the frequency a cap sets
     * @param maxKHz {@code cpuinfo_max_freq}
     * @return {@code root}
     */
    public static Path create(Path root, int hosts, long minKHz, long maxKHz) throws IOException {
        if (minKHz <= 0 || maxKHz < minKHz) {
            throw new IllegalArgumentException("need 0 < min <= max kHz, got " + minKHz + " and " + maxKHz);
        }
        for (int host = 0; host < hosts; host++) {
            Path hostRoot = root.resolve("host" + host);
            Path dir = hostRoot.resolve(POLICY);
            Files.createDirectories(dir);
            write(dir, "affected_cpus", "0");
            write(dir, "related_cpus", "0");
            write(dir, "cpuinfo_min_freq", Long.toString(minKHz));
            write(dir, "cpuinfo_max_freq", Long.toString(maxKHz));
            write(dir, "scaling_min_freq", Long.toString(minKHz));
            write(dir, "scaling_max_freq", Long.toString(maxKHz));
            write(dir, "scaling_cur_freq", Long.toString(maxKHz));
            write(dir, "scaling_driver", "acpi-cpufreq");
            write(dir, "scaling_governor", "ondemand");
            write(dir, "scaling_available_governors", "ondemand performance powersave");
            Files.createDirectories(hostRoot.resolve("sys/devices/system/cpu/cpu0"));
            write(hostRoot.resolve("sys/devices/system/cpu"), "online", "0");
        }
        return root;
    }

    private static void write(Path dir, String name, String value) throws IOException {
        Files.writeString(dir.resolve(name), value + "\n");
    }
}
