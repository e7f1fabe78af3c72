package org.dfr.power.energy;

import org.dfr.power.meter.EnergySource;

/**
 * One reading of the meter.
 *
 * @param epochMillis     wall-clock time of the reading (the baseline's wall clock plus the monotonic time since)
 * @param elapsedSeconds  monotonic time since the sampler's baseline reading
 * @param host            the host
 * @param source          where the figures come from
 * @param sourceDetail    the source with its constants for a model, e.g. {@code model(P_idle=40.0 W; P_busy=120.0 W)}
 * @param phase           the phase in force at the reading
 * @param energyJoules    energy since the baseline, {@code null} when nothing is measured or the read failed
 * @param intervalJoules  energy since the previous reading, {@code null} likewise
 * @param powerWatts      mean power since the previous reading, {@code null} likewise
 */
public record PowerSample(long epochMillis, double elapsedSeconds, String host, EnergySource source, String sourceDetail, Phase phase,
                          Double energyJoules, Double intervalJoules, Double powerWatts) {
}
