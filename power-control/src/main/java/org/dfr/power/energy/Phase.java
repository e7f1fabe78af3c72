package org.dfr.power.energy;

import com.fasterxml.jackson.annotation.JsonValue;

/** What a host is doing, as marked by the runtime; the label is what reports and CSV files say. */
public enum Phase {
    /** Before the runtime marked anything (e.g. {@code dfr power sample}). */
    UNMARKED("unmarked"),
    /** Normal iterations. */
    COMPUTE("compute"),
    /** Recovery, with at least one rank of the host recomputing. */
    RECOVERY_ACTIVE("recovery-active"),
    /** Recovery, with every rank of the host idle and the frequency not capped. */
    RECOVERY_IDLE("recovery-idle"),
    /** Recovery, with every rank of the host idle and the frequency capped. */
    CAPPED("capped");

    private final String label;

    Phase(String label) {
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
