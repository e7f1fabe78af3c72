package org.dfr.power.freq;

/**
 * The original limits of one policy, as journaled before the first write.
 *
 * @param dir           the policy directory relative to the sysfs root
 * @param scalingMinKHz the original {@code scaling_min_freq}
 * @param scalingMaxKHz the original {@code scaling_max_freq}
 * @param governor      the original {@code scaling_governor}, or the empty string if unreadable
 */
public record PolicyLimits(String dir, long scalingMinKHz, long scalingMaxKHz, String governor) {

    static PolicyLimits of(CpufreqPolicy policy) {
        return new PolicyLimits(policy.dir(), policy.scalingMinKHz(), policy.scalingMaxKHz(), policy.governor());
    }
}
