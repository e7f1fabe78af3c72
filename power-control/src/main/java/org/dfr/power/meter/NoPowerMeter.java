package org.dfr.power.meter;

import java.util.Map;
import java.util.OptionalDouble;

/** The meter of a machine with no energy source: it measures nothing and says why. */
public final class NoPowerMeter implements PowerMeter {

    private final String reason;

    public NoPowerMeter(String reason) {
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }

    @Override
    public EnergySource source() {
        return EnergySource.NONE;
    }

    @Override
    public String description() {
        return "none: energy is not measured (" + reason + ")";
    }

    @Override
    public Map<String, Object> parameters() {
        return Map.of();
    }

    @Override
    public OptionalDouble readEnergyJoules() {
        return OptionalDouble.empty();
    }
}
