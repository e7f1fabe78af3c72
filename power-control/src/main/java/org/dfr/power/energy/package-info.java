/**
 * Energy per host and per phase. The runtime marks {@link org.dfr.power.energy.Phase phases} on a
 * {@link org.dfr.power.energy.PhaseRecorder}; a {@link org.dfr.power.energy.PowerSampler} reads the
 * chosen {@link org.dfr.power.meter.PowerMeter} periodically (default every 100 ms) with monotonic
 * timestamps; an {@link org.dfr.power.energy.EnergyAccount} splits each interval's energy among the
 * phases in force during it, in proportion to their time (power is taken as constant within an
 * interval). Results are a CSV of samples and an {@link org.dfr.power.energy.EnergyReport}, the run
 * report's {@code energy} object, whose {@code source} says where the figures come from.
 */
package org.dfr.power.energy;
