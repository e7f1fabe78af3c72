package org.dfr.power.freq;

/**
 * One cpufreq policy as read from sysfs. Frequencies are kHz, as the kernel writes them.
 *
 * @param dir                the policy directory relative to the sysfs root
 * @param name               {@code policyN}, or {@code cpuN} in the per-CPU fallback layout
 * @param affectedCpus       the CPUs the policy governs, as the kernel lists them
 * @param driver             {@code scaling_driver}, e.g. {@code intel_pstate}, {@code acpi-cpufreq}
 * @param governor           {@code scaling_governor}
 * @param cpuinfoMinKHz      the hardware minimum, {@code cpuinfo_min_freq}
 * @param cpuinfoMaxKHz      the hardware maximum (max turbo where turbo exists), {@code cpuinfo_max_freq}
 * @param scalingMinKHz      the current lower limit, {@code scaling_min_freq}
 * @param scalingMaxKHz      the current upper limit, {@code scaling_max_freq}
 * @param currentKHz         {@code scaling_cur_freq}, or -1 when the driver does not report it
 * @param writable           whether this process may write the limits
 * @param notWritableReason  why not, or the empty string when writable
 */
public record CpufreqPolicy(String dir, String name, String affectedCpus, String driver, String governor,
                            long cpuinfoMinKHz, long cpuinfoMaxKHz, long scalingMinKHz, long scalingMaxKHz,
                            long currentKHz, boolean writable, String notWritableReason) {

    /** @return {@code value} clamped as the kernel clamps a limit to the hardware range */
    public long clampToHardware(long valueKHz) {
        return Math.max(cpuinfoMinKHz, Math.min(cpuinfoMaxKHz, valueKHz));
    }

    /** @return whether the upper limit is already at the hardware minimum */
    public boolean isAtMinimum() {
        return scalingMaxKHz <= cpuinfoMinKHz;
    }
}
