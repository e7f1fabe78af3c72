package org.dfr.power.meter;

import java.io.IOException;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * A source of this host's energy. Readings are cumulative since the meter was opened, corrected for
 * counter wrap-around, so any two readings give the energy of the interval between them.
 */
public interface PowerMeter extends AutoCloseable {

    /** @return where the energy comes from */
    EnergySource source();

    /** @return one line saying exactly what is read, e.g. the RAPL zones or the model's constants */
    String description();

    /** @return the settings the figures depend on (model constants, zones); empty for none */
    Map<String, Object> parameters();

    /**
     * @return joules used since the meter was opened; empty when this meter measures nothing
     * @throws IOException when the counter cannot be read now
     */
    OptionalDouble readEnergyJoules() throws IOException;

    /** Releases what the meter holds (a perf process); never throws. */
    @Override
    default void close() {
    }
}
