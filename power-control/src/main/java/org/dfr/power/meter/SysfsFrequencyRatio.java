package org.dfr.power.meter;

import java.io.IOException;
import java.util.List;
import org.dfr.power.freq.CpufreqPolicy;
import org.dfr.power.freq.FrequencyCapabilities;
import org.dfr.power.freq.FrequencyControllers;
import org.dfr.power.sysfs.Sysfs;

/**
 * {@code f / f_max} from cpufreq: the mean over policies of {@code scaling_cur_freq / cpuinfo_max_freq}.
 * {@code f_max} is the hardware maximum read from sysfs, not OSHI's "max frequency", which follows
 * {@code scaling_max_freq} and so would report a capped host as running at full speed.
 */
public final class SysfsFrequencyRatio implements FrequencyRatioSource {

    private final Sysfs sysfs;
    private final List<CpufreqPolicy> policies;
    private final boolean hasCurrent;

    private SysfsFrequencyRatio(Sysfs sysfs, List<CpufreqPolicy> policies) {
        this.sysfs = sysfs;
        this.policies = List.copyOf(policies);
        this.hasCurrent = policies.stream().allMatch(p -> p.currentKHz() >= 0);
    }

    /** @return the ratio read from {@code sysfs}, or the constant 1.0 with the reason when there is no cpufreq */
    public static FrequencyRatioSource probe(Sysfs sysfs) {
        FrequencyCapabilities caps = FrequencyControllers.inspect(sysfs);
        if (caps.policies().isEmpty()) {
            String why = caps.reason().isEmpty() ? "no cpufreq policy could be read" : caps.reason();
            return FrequencyRatioSource.constant(1.0, why);
        }
        return new SysfsFrequencyRatio(sysfs, caps.policies());
    }

    @Override
    public double ratio() {
        double sum = 0;
        for (CpufreqPolicy policy : policies) {
            try {
                // the current frequency never exceeds the limit; a tree where it does (a fake one, or a
                // driver slow to report) is read at the limit, so a cap always shows
                long limit = sysfs.readLong(policy.dir() + "/scaling_max_freq");
                long khz = hasCurrent ? Math.min(limit, sysfs.readLong(policy.dir() + "/scaling_cur_freq")) : limit;
                sum += Math.min(1.0, (double) khz / policy.cpuinfoMaxKHz());
            } catch (IOException e) {
                sum += 1.0;
            }
        }
        return sum / policies.size();
    }

    @Override
    public String description() {
        return "f/f_max = mean of " + (hasCurrent ? "min(scaling_cur_freq, scaling_max_freq)" : "scaling_max_freq (an upper bound: the"
                + " driver reports no scaling_cur_freq)") + " / cpuinfo_max_freq over " + policies.size()
                + " cpufreq policies";
    }
}
