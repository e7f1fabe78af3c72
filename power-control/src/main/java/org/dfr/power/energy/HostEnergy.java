package org.dfr.power.energy;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.dfr.power.meter.EnergySource;

/**
 * The energy account of one host.
 *
 * @param host            the host name
 * @param source          where its figures come from
 * @param seconds         sampled time
 * @param joules          energy over the sampled time, {@code null} for source {@code none}
 * @param meanWatts       mean power, {@code null} for source {@code none}
 * @param samples         readings taken after the baseline
 * @param missedIntervals intervals whose reading failed; their time counts, their energy is missing
 * @param phases          per phase label, in phase order, only phases that took time
 */
public record HostEnergy(String host, EnergySource source, double seconds, Double joules, Double meanWatts,
                         int samples, int missedIntervals, Map<String, PhaseEnergy> phases) {

    public HostEnergy {
        phases = Collections.unmodifiableMap(new LinkedHashMap<>(phases));
    }
}
