package org.dfr.runtime;

/**
 * What found a rank dead: the first of these to fire at a survivor is how the run learnt of a death, and the report
 * says which one it was ({@code recoveries[].detectedBy}), so that a resilience researcher can tell a death the
 * runtime saw in milliseconds from one it waited for Hazelcast's heartbeat to find.
 */
public enum Detector {
    /** {@link ExitWatch}: the rank's process on this machine was seen exited in {@code /proc}. */
    EXIT_WATCH("exit-watch"),
    /**
     * {@link DeathWatch}: the rank's data-plane connection ended without a goodbye and its listening socket refused a
     * new one.
     */
    DATA_PLANE("data-plane"),
    /** A peer's epoch-tagged {@code RANK_LOST} notice: that peer found the death first. */
    NOTICE("notice"),
    /** {@link InJvmDeaths}: a rank of this JVM (embedded mode) died, and every other rank of the JVM was told. */
    SAME_JVM("same-jvm"),
    /** Hazelcast removed the rank's member (its own connection failures or heartbeat): none of the above came first. */
    HAZELCAST("hazelcast");

    private final String label;

    Detector(String label) {
        this.label = label;
    }

    /** The name in reports. */
    public String label() {
        return label;
    }
}
