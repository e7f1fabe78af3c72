package org.dfr.power.meter;

import java.util.List;

/**
 * What {@link RaplPowercapMeter#probe} found.
 *
 * @param zones             the zones whose counters are added, in order
 * @param notes             zones seen but not added, and why
 * @param unavailableReason why RAPL cannot be used (empty when it can)
 */
public record RaplProbe(List<RaplZone> zones, List<String> notes, String unavailableReason) {

    public RaplProbe {
        zones = List.copyOf(zones);
        notes = List.copyOf(notes);
    }

    static RaplProbe unavailable(String reason) {
        return new RaplProbe(List.of(), List.of(), reason);
    }

    public boolean available() {
        return !zones.isEmpty();
    }
}
