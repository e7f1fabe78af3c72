package org.dfr.power.freq;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.dfr.power.sysfs.Sysfs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Probes a sysfs tree and chooses the {@link FrequencyController}: cpufreq policies under
 * {@code sys/devices/system/cpu/cpufreq/policy*}, falling back to {@code sys/devices/system/cpu/cpu*}
 * {@code /cpufreq} on old kernels; a {@link NoOpFrequencyController} with the reason otherwise.
 */
public final class FrequencyControllers {

    /** Where current kernels put one directory per policy. */
    public static final String POLICY_BASE = "sys/devices/system/cpu/cpufreq";
    /** The per-CPU directories, holding {@code cpufreq} on kernels without policy directories. */
    public static final String CPU_BASE = "sys/devices/system/cpu";
    /** intel_pstate's global attributes. */
    public static final String INTEL_PSTATE = "sys/devices/system/cpu/intel_pstate";

    private static final Logger LOG = LoggerFactory.getLogger(FrequencyControllers.class);
    private static final Pattern POLICY = Pattern.compile("policy\\d+");
    private static final Pattern CPU = Pattern.compile("cpu\\d+");

    private FrequencyControllers() {
    }

    /**
     * @return the cpufreq controller when at least one policy is writable, else a no-op with the reason;
     *         either way the choice is logged
     */
    public static FrequencyController probe(Sysfs sysfs, RestoreJournal journal) {
        FrequencyCapabilities caps = inspect(sysfs);
        LOG.info(caps.summary());
        caps.problems().forEach(p -> LOG.info("cpufreq: {}", p));
        if (!caps.controllable()) {
            if (journal.exists()) {
                LOG.warn("a frequency journal {} exists but {} cannot be written: {}", journal.file(),
                        sysfs.root(), caps.reason());
            }
            return new NoOpFrequencyController(caps);
        }
        return new CpufreqFrequencyController(sysfs, journal);
    }

    /** @return what {@code sysfs} offers for frequency control, and why not */
    public static FrequencyCapabilities inspect(Sysfs sysfs) {
        String root = sysfs.root().toString();
        if (!sysfs.isDirectory("")) {
            return unavailable(root, "sysfs root " + root + " is not a directory", "none", List.of(), List.of());
        }
        String layout = "policy";
        List<String> dirs = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        try {
            for (String name : sysfs.list(POLICY_BASE)) {
                if (POLICY.matcher(name).matches()) {
                    dirs.add(POLICY_BASE + "/" + name);
                }
            }
            if (dirs.isEmpty()) {
                layout = "per-cpu";
                for (String name : sysfs.list(CPU_BASE)) {
                    if (CPU.matcher(name).matches() && sysfs.isDirectory(CPU_BASE + "/" + name + "/cpufreq")) {
                        dirs.add(CPU_BASE + "/" + name + "/cpufreq");
                    }
                }
            }
        } catch (IOException e) {
            return unavailable(root, "cannot list " + sysfs.display(CPU_BASE) + ": " + e.getMessage(), "none",
                    List.of(), List.of());
        }
        if (dirs.isEmpty()) {
            return unavailable(root, noCpufreqReason(sysfs), "none", List.of(), List.of());
        }
        List<CpufreqPolicy> policies = new ArrayList<>();
        for (String dir : dirs) {
            try {
                CpufreqPolicy policy = readPolicy(sysfs, dir);
                policies.add(policy);
                if (!policy.writable()) {
                    problems.add(policy.notWritableReason());
                }
            } catch (IOException e) {
                problems.add("cannot read " + sysfs.display(dir) + ": " + KernelWrites.describe(e));
            }
        }
        IntelPstateLimits pstate = readIntelPstate(sysfs, policies);
        if (policies.stream().noneMatch(CpufreqPolicy::writable)) {
            String reason = policies.isEmpty()
                    ? "no cpufreq policy could be read: " + String.join("; ", problems)
                    : "no cpufreq policy is writable: " + problems.get(0);
            return new FrequencyCapabilities(root, false, reason, layout, policies, problems, pstate);
        }
        return new FrequencyCapabilities(root, true, "", layout, policies, problems, pstate);
    }

    private static String noCpufreqReason(Sysfs sysfs) {
        if (sysfs.isDirectory(CPU_BASE.replaceFirst("^sys/", ""))) {
            // the root given was the sys directory itself (a common slip): say so rather than "usual in a VM"
            return "no cpufreq: " + sysfs.display(CPU_BASE) + " does not exist, but " + sysfs.display(
                    CPU_BASE.replaceFirst("^sys/", "")) + " does: the sysfs root is the directory that holds sys/,"
                    + " so give the parent of the one given";
        }
        String where = sysfs.isDirectory(POLICY_BASE)
                ? sysfs.display(POLICY_BASE) + " has no policy* directory"
                : sysfs.display(POLICY_BASE) + " does not exist";
        return "no cpufreq: " + where + " and no " + sysfs.display(CPU_BASE) + "/cpu*/cpufreq exists"
                + " (usual in a VM or container, where the hypervisor owns the CPU frequency)";
    }

    private static FrequencyCapabilities unavailable(String root, String reason, String layout,
                                                     List<CpufreqPolicy> policies, List<String> problems) {
        return new FrequencyCapabilities(root, false, reason, layout, policies, problems, null);
    }

    static CpufreqPolicy readPolicy(Sysfs sysfs, String dir) throws IOException {
        String name = dir.endsWith("/cpufreq")
                ? dir.substring(CPU_BASE.length() + 1, dir.length() - "/cpufreq".length())
                : dir.substring(dir.lastIndexOf('/') + 1);
        long hwMin = sysfs.readLong(dir + "/cpuinfo_min_freq");
        long hwMax = sysfs.readLong(dir + "/cpuinfo_max_freq");
        long min = sysfs.readLong(dir + "/scaling_min_freq");
        long max = sysfs.readLong(dir + "/scaling_max_freq");
        long cur = sysfs.exists(dir + "/scaling_cur_freq") ? sysfs.readLong(dir + "/scaling_cur_freq") : -1;
        String driver = readOr(sysfs, dir + "/scaling_driver", "unknown");
        String governor = readOr(sysfs, dir + "/scaling_governor", "");
        String cpus = readOr(sysfs, dir + "/affected_cpus", readOr(sysfs, dir + "/related_cpus", ""));
        String reason = "";
        // a cap writes cpuinfo_min_freq into scaling_max_freq: with min above max that would raise the limit
        if (hwMin <= 0) {
            reason = sysfs.display(dir) + ": cpuinfo_min_freq " + hwMin + " is not a frequency (not capped)";
        } else if (hwMin > hwMax) {
            reason = sysfs.display(dir) + ": cpuinfo_min_freq " + hwMin + " is above cpuinfo_max_freq " + hwMax
                    + " (an inconsistent tree: not capped)";
        } else if (hwMin == hwMax) {
            reason = sysfs.display(dir) + ": runs at one frequency, " + hwMin + " kHz: there is nothing to cap";
        }
        for (String file : List.of("scaling_max_freq", "scaling_min_freq")) {
            if (reason.isEmpty() && !sysfs.isWritable(dir + "/" + file)) {
                reason = ProcessIdentity.notWritableReason(sysfs.display(dir + "/" + file));
            }
        }
        return new CpufreqPolicy(dir, name, cpus, driver, governor, hwMin, hwMax, min, max, cur,
                reason.isEmpty(), reason);
    }

    private static IntelPstateLimits readIntelPstate(Sysfs sysfs, List<CpufreqPolicy> policies) {
        if (!sysfs.isDirectory(INTEL_PSTATE)) {
            return null;
        }
        int maxPct = (int) readLongOr(sysfs, INTEL_PSTATE + "/max_perf_pct", -1);
        int minPct = (int) readLongOr(sysfs, INTEL_PSTATE + "/min_perf_pct", -1);
        boolean noTurbo = readLongOr(sysfs, INTEL_PSTATE + "/no_turbo", 0) == 1;
        long maxTurbo = policies.stream().mapToLong(CpufreqPolicy::cpuinfoMaxKHz).max().orElse(-1);
        long maxPerfKHz = maxPct < 0 || maxTurbo < 0 ? -1 : IntelPstateLimits.percentToKHz(maxPct, maxTurbo);
        return new IntelPstateLimits(readOr(sysfs, INTEL_PSTATE + "/status", "unknown"), maxPct, minPct, noTurbo,
                maxPerfKHz);
    }

    private static String readOr(Sysfs sysfs, String file, String fallback) {
        try {
            return sysfs.exists(file) ? sysfs.read(file) : fallback;
        } catch (IOException e) {
            return fallback;
        }
    }

    private static long readLongOr(Sysfs sysfs, String file, long fallback) {
        try {
            return sysfs.exists(file) ? sysfs.readLong(file) : fallback;
        } catch (IOException e) {
            return fallback;
        }
    }
}
