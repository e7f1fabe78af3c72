package org.dfr.power.meter;

/**
 * A powercap RAPL zone whose counter is added to the host's energy.
 *
 * @param dir                        the zone directory relative to the sysfs root
 * @param name                       the zone's {@code name}, e.g. {@code package-0} or {@code dram}
 * @param maxEnergyRangeMicroJoules  {@code max_energy_range_uj}: the counter runs from 0 to this value
 *                                   inclusive, then wraps to 0
 */
public record RaplZone(String dir, String name, long maxEnergyRangeMicroJoules) {
}
