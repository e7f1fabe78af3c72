/**
 * CPU frequency capping through cpufreq sysfs, made safe to leave: a {@link
 * org.dfr.power.freq.FrequencyController} caps every policy of the host to its minimum and restores it,
 * journaling the original limits atomically in a {@link org.dfr.power.freq.RestoreJournal} before the
 * first write, so a later process (or {@code dfr power restore}) can undo a cap left by a crash.
 * {@link org.dfr.power.freq.FrequencyControllers#probe} chooses the implementation; when the machine has
 * no cpufreq or no permission the controller is a {@link org.dfr.power.freq.NoOpFrequencyController}
 * that says exactly why. {@link org.dfr.power.freq.HostCapArbiter} caps a host only while every rank on
 * it is idle.
 *
 * <p>Kernel rules this package relies on: values are kHz; out-of-range writes are clamped silently to
 * {@code [cpuinfo_min_freq, cpuinfo_max_freq]}; writing {@code scaling_max_freq} below {@code
 * scaling_min_freq} drags the minimum down, so restoring writes the maximum first, then the minimum;
 * intel_pstate's {@code max_perf_pct} is a percentage of the maximum turbo frequency; writes need root.
 */
package org.dfr.power.freq;
