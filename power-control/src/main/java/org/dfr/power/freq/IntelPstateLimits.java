package org.dfr.power.freq;

/**
 * The global limits of the intel_pstate driver ({@code sys/devices/system/cpu/intel_pstate}). They apply
 * on top of each policy's {@code scaling_max_freq}: the effective maximum is the lower of the two.
 *
 * @param status          {@code active}, {@code passive} or {@code off}
 * @param maxPerfPct      {@code max_perf_pct}: a percentage of the maximum turbo frequency, -1 if absent
 * @param minPerfPct      {@code min_perf_pct}, -1 if absent
 * @param noTurbo         whether {@code no_turbo} is 1
 * @param maxPerfKHz      {@code max_perf_pct} converted to kHz of the highest {@code cpuinfo_max_freq}
 *                        (the maximum turbo frequency while turbo is enabled), -1 if unknown
 */
public record IntelPstateLimits(String status, int maxPerfPct, int minPerfPct, boolean noTurbo, long maxPerfKHz) {

    /** @return the frequency {@code pct} percent of {@code maxTurboKHz} stands for, as intel_pstate computes it */
    public static long percentToKHz(int pct, long maxTurboKHz) {
        return maxTurboKHz * pct / 100;
    }
}
