package org.dfr.power.timeline;

import org.dfr.power.energy.Phase;

/**
 * A host's mean power over one sampling interval ending at {@code epochMillis}.
 *
 * @param epochMillis  wall-clock time of the end of the interval (milliseconds since 1970, UTC)
 * @param seconds      monotonic seconds since the run was launched
 * @param host         the host ({@code host0}, ... for simulated hosts; the machine's name for a measured meter)
 * @param phase        the phase that took most of the interval
 * @param watts        mean power over the interval, {@code null} when nothing is measured
 * @param source       {@code rapl}, {@code perf}, {@code model} or {@code none}
 * @param sourceDetail the RAPL domain, or the model's constants
 */
public record TimelineSample(long epochMillis, double seconds, String host, Phase phase, Double watts,
                             String source, String sourceDetail) {
}
