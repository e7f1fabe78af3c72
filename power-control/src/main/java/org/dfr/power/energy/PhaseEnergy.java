package org.dfr.power.energy;

/**
 * Time and energy of one phase.
 *
 * @param seconds   time spent in the phase
 * @param joules    energy used in it, {@code null} when the source is {@code none}
 * @param meanWatts {@code joules / seconds} over the measured time, {@code null} when unknown
 */
public record PhaseEnergy(double seconds, Double joules, Double meanWatts) {
}
