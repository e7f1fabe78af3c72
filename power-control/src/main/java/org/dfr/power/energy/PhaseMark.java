package org.dfr.power.energy;

/**
 * The host entered {@code phase} at {@code atNanos} on the recorder's ticker.
 *
 * @param atNanos monotonic time of the mark
 * @param phase   the phase from then on
 */
public record PhaseMark(long atNanos, Phase phase) {
}
