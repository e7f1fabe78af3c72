package org.dfr.power.freq;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What this machine offers for frequency control, and why not when it does not.
 *
 * @param sysfsRoot    the root that was probed
 * @param controllable whether at least one policy can be capped
 * @param reason       why capping is impossible (empty when controllable)
 * @param layout       {@code policy} ({@code cpufreq/policy*}), {@code per-cpu} ({@code cpu*}/{@code cpufreq})
 *                     or {@code none}
 * @param policies     every policy that could be read
 * @param problems     policies that could not be read or written, one sentence each
 * @param intelPstate  intel_pstate's global limits, or {@code null} when that driver is absent
 */
public record FrequencyCapabilities(String sysfsRoot, boolean controllable, String reason, String layout,
                                    List<CpufreqPolicy> policies, List<String> problems,
                                    IntelPstateLimits intelPstate) {

    public FrequencyCapabilities {
        policies = List.copyOf(policies);
        problems = List.copyOf(problems);
    }

    /** @return the distinct scaling drivers, comma separated, or {@code none} */
    public String drivers() {
        String drivers = policies.stream().map(CpufreqPolicy::driver).distinct().collect(Collectors.joining(","));
        return drivers.isEmpty() ? "none" : drivers;
    }

    /** @return the policies this process may write */
    public List<CpufreqPolicy> writablePolicies() {
        return policies.stream().filter(CpufreqPolicy::writable).toList();
    }

    /** @return one line for logs */
    public String summary() {
        if (!controllable) {
            return "frequency control unavailable under " + sysfsRoot + ": " + reason;
        }
        return "frequency control: " + writablePolicies().size() + " of " + policies.size()
                + " cpufreq policies writable, driver " + drivers();
    }
}
