package org.dfr.power.sysfs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Builds sysfs-like trees in a temporary directory: the cpufreq layouts of intel_pstate, acpi-cpufreq,
 * amd-pstate and old per-CPU kernels, RAPL powercap zones with counters that advance and wrap, and the
 * perf power event. {@link #sysfs()} reaches the tree through a {@link KernelRulesFileSystem}.
 */
public final class FakeSysfs {

    /** Original limits of one policy in a layout. */
    public record Limits(long cpuinfoMin, long cpuinfoMax, long scalingMin, long scalingMax, String governor) {
    }

    public static final Limits INTEL = new Limits(800_000, 4_200_000, 800_000, 4_200_000, "powersave");
    public static final Limits ACPI = new Limits(1_200_000, 2_600_000, 1_600_000, 2_600_000, "ondemand");
    public static final Limits AMD = new Limits(400_000, 4_000_000, 1_000_000, 3_500_000, "powersave");

    public static final String CPU = "sys/devices/system/cpu";
    public static final String POLICIES = CPU + "/cpufreq";
    public static final String POWERCAP = "sys/class/powercap";

    private final Path root;
    private final KernelRulesFileSystem fs;

    private FakeSysfs(Path root, int cpus) {
        this.root = root;
        this.fs = new KernelRulesFileSystem(root);
        for (int cpu = 0; cpu < cpus; cpu++) {
            file(CPU + "/cpu" + cpu + "/online", "1");
        }
        file(CPU + "/online", "0-" + (cpus - 1));
        dir(POLICIES);
    }

    /** A machine like this VM: CPUs, an empty cpufreq directory, no powercap. */
    public static FakeSysfs withoutCpufreq(Path root, int cpus) {
        return new FakeSysfs(root, cpus);
    }

    public static FakeSysfs intelPstate(Path root, int cpus) {
        FakeSysfs fake = new FakeSysfs(root, cpus);
        for (int cpu = 0; cpu < cpus; cpu++) {
            String dir = fake.policy(cpu, INTEL, "intel_pstate", "performance powersave");
            fake.file(dir + "/energy_performance_preference", "balance_performance");
            fake.file(dir + "/base_frequency", "2600000");
        }
        fake.file(CPU + "/intel_pstate/status", "active");
        fake.file(CPU + "/intel_pstate/max_perf_pct", "100");
        fake.file(CPU + "/intel_pstate/min_perf_pct", "19");
        fake.file(CPU + "/intel_pstate/no_turbo", "0");
        return fake;
    }

    public static FakeSysfs acpiCpufreq(Path root, int cpus) {
        FakeSysfs fake = new FakeSysfs(root, cpus);
        for (int cpu = 0; cpu < cpus; cpu++) {
            String dir = fake.policy(cpu, ACPI, "acpi-cpufreq",
                    "conservative ondemand userspace powersave performance schedutil");
            fake.file(dir + "/scaling_available_frequencies", "2600000 2000000 1600000 1200000");
        }
        return fake;
    }

    public static FakeSysfs amdPstate(Path root, int cpus) {
        FakeSysfs fake = new FakeSysfs(root, cpus);
        for (int cpu = 0; cpu < cpus; cpu++) {
            String dir = fake.policy(cpu, AMD, "amd-pstate-epp", "performance powersave");
            fake.file(dir + "/amd_pstate_max_freq", "4000000");
            fake.file(dir + "/amd_pstate_lowest_nonlinear_freq", "1100000");
            fake.file(dir + "/energy_performance_preference", "balance_performance");
        }
        return fake;
    }

    /** An old kernel without policy directories: {@code cpuN/cpufreq} are real directories. */
    public static FakeSysfs perCpuAcpi(Path root, int cpus) {
        FakeSysfs fake = new FakeSysfs(root, cpus);
        for (int cpu = 0; cpu < cpus; cpu++) {
            fake.limits(CPU + "/cpu" + cpu + "/cpufreq", cpu, ACPI, "acpi-cpufreq", "ondemand performance");
        }
        return fake;
    }

    private String policy(int cpu, Limits limits, String driver, String governors) {
        String dir = POLICIES + "/policy" + cpu;
        limits(dir, cpu, limits, driver, governors);
        try {
            Files.createSymbolicLink(root.resolve(CPU + "/cpu" + cpu + "/cpufreq"), Path.of("../cpufreq/policy" + cpu));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }

    private void limits(String dir, int cpu, Limits limits, String driver, String governors) {
        file(dir + "/affected_cpus", Integer.toString(cpu));
        file(dir + "/related_cpus", Integer.toString(cpu));
        file(dir + "/cpuinfo_min_freq", Long.toString(limits.cpuinfoMin()));
        file(dir + "/cpuinfo_max_freq", Long.toString(limits.cpuinfoMax()));
        file(dir + "/scaling_min_freq", Long.toString(limits.scalingMin()));
        file(dir + "/scaling_max_freq", Long.toString(limits.scalingMax()));
        file(dir + "/scaling_cur_freq", Long.toString(limits.scalingMax()));
        file(dir + "/scaling_driver", driver);
        file(dir + "/scaling_governor", limits.governor());
        file(dir + "/scaling_available_governors", governors);
    }

    /**
     * Adds RAPL package zones {@code intel-rapl:N} (name {@code package-N}) with a {@code core} subzone
     * and, if asked, a {@code dram} subzone, all counters at 0.
     */
    public FakeSysfs withRapl(int packages, long maxEnergyRangeMicroJoules, boolean dram) {
        file(POWERCAP + "/intel-rapl/enabled", "1");
        for (int p = 0; p < packages; p++) {
            String zone = POWERCAP + "/intel-rapl:" + p;
            counter(zone, "package-" + p, maxEnergyRangeMicroJoules);
            counter(zone + "/intel-rapl:" + p + ":0", "core", maxEnergyRangeMicroJoules);
            if (dram) {
                counter(zone + "/intel-rapl:" + p + ":1", "dram", maxEnergyRangeMicroJoules);
            }
        }
        return this;
    }

    /** Adds the platform zone {@code psys}, which overlaps the packages. */
    public FakeSysfs withPsys(int index, long maxEnergyRangeMicroJoules) {
        counter(POWERCAP + "/intel-rapl:" + index, "psys", maxEnergyRangeMicroJoules);
        return this;
    }

    private void counter(String zone, String name, long max) {
        file(zone + "/name", name);
        file(zone + "/energy_uj", "0");
        file(zone + "/max_energy_range_uj", Long.toString(max));
        file(zone + "/enabled", "1");
    }

    /** Advances a zone's counter by {@code microJoules}, wrapping past {@code max_energy_range_uj} to 0. */
    public void advanceEnergy(String zoneDir, long microJoules) {
        long max = readLong(zoneDir + "/max_energy_range_uj");
        long value = readLong(zoneDir + "/energy_uj");
        file(zoneDir + "/energy_uj", Long.toString(Math.floorMod(value + microJoules, max + 1)));
    }

    /** Adds the perf power PMU's {@code energy-pkg} event description. */
    public FakeSysfs withPerfEvent() {
        file("sys/bus/event_source/devices/power/events/energy-pkg", "event=0x02");
        file("sys/bus/event_source/devices/power/events/energy-pkg.scale", "2.3283064365386962890625e-10");
        file("sys/bus/event_source/devices/power/events/energy-pkg.unit", "Joules");
        return this;
    }

    public Path root() {
        return root;
    }

    public KernelRulesFileSystem fs() {
        return fs;
    }

    /** @return the tree, reached through the kernel-rules file system */
    public Sysfs sysfs() {
        return new Sysfs(SysfsRoot.of(root), fs);
    }

    public long readLong(String relative) {
        return Long.parseLong(read(relative));
    }

    public String read(String relative) {
        try {
            return Files.readString(root.resolve(relative), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes a file directly, bypassing the kernel rules (the test plays the kernel or the firmware). */
    public void file(String relative, String content) {
        try {
            Path path = root.resolve(relative);
            Files.createDirectories(path.getParent());
            Files.writeString(path, content + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void dir(String relative) {
        try {
            Files.createDirectories(root.resolve(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
