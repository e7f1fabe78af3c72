package org.dfr.harness.experiment;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import org.dfr.recovery.Strategy;

/** One way to recover: the paper's three. */
public enum Variant {
    /** Global rollback: every rank reloads the checkpoint. */
    GLOBAL("global", Strategy.GLOBAL, false),
    /** Data-flow rollback: only the cone recomputes. */
    DFR("dfr", Strategy.DFR, false),
    /** Data-flow rollback, idle hosts capped to their minimum frequency. */
    DFR_CAPPING("dfr+capping", Strategy.DFR, true);

    private final String label;
    private final Strategy strategy;
    private final boolean capping;

    Variant(String label, Strategy strategy, boolean capping) {
        this.label = label;
        this.strategy = strategy;
        this.capping = capping;
    }

    @JsonValue
    public String label() {
        return label;
    }

    public Strategy strategy() {
        return strategy;
    }

    public boolean capping() {
        return capping;
    }

    @JsonCreator
    public static Variant parse(String text) {
        for (Variant v : values()) {
            if (v.label.equalsIgnoreCase(text.trim())) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown variant '" + text + "': use global, dfr or dfr+capping");
    }

    @Override
    public String toString() {
        return label;
    }
}
