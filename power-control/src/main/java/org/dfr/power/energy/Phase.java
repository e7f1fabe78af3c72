package org.dfr.power.energy;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What a host is doing on the run's own timeline; the label is what reports and CSV files say.
 * Declaration order is the order of reports.
 */
public enum Phase {
    /** Before the runtime marked anything (e.g. {@code dfr power sample}). */
    UNMARKED("unmarked"),
    /** From the launch of the run until its iteration loop starts (cluster formation, warm-up). */
    START_UP("start-up"),
    /** Normal iterations. */
    COMPUTE("compute"),
    /** Writing a checkpoint. */
    CHECKPOINT("checkpoint"),
    /** From a rank's death until the first survivor stopped (failure detection). */
    DETECTION("detection"),
    /** From detection until the recovery plan is decided. */
    AGREEMENT("agreement"),
    /** Recovery, with at least one rank of the host recomputing. */
    RECOVERY_ACTIVE("recovery-active"),
    /** Recovery, with every rank of the host idle and the frequency not capped. */
    RECOVERY_IDLE("recovery-idle"),
    /** Recovery, with every rank of the host idle and the frequency capped. */
    CAPPED("capped"),
    /** After the iteration loop: collecting the result and stopping the cluster. */
    FINISH("finish");

    private final String label;

    Phase(String label) {
        this.label = label;
    }

    @JsonValue
    public String label() {
        return label;
    }

    /** @return the phase with this label */
    public static Phase ofLabel(String label) {
        for (Phase p : values()) {
            if (p.label.equals(label)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown phase '" + label + "'");
    }

    /** @return whether the phase belongs to a recovery (detection to resume) */
    public boolean isRecovery() {
        return this == DETECTION || this == AGREEMENT || this == RECOVERY_ACTIVE || this == RECOVERY_IDLE
                || this == CAPPED;
    }

    @Override
    public String toString() {
        return label;
    }
}
