package org.dfr.power.meter;

import com.fasterxml.jackson.annotation.JsonValue;

/** Where energy figures come from; the label is what reports and CSV files say. */
public enum EnergySource {
    /** Hardware counters read through powercap ({@code sys/class/powercap/intel-rapl:*}). */
    RAPL("rapl"),
    /** The perf event {@code power/energy-pkg/} (the same hardware counter through perf). */
    PERF("perf"),
    /** Not a measurement: a model of CPU load with configured constants. */
    MODEL("model"),
    /** Nothing measured. */
    NONE("none");

    private final String label;

    EnergySource(String label) {
        this.label = label;
    }

    @JsonValue
    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }
}
