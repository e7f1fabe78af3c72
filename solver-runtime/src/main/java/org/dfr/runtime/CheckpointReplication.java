package org.dfr.runtime;

/**
 * Which path carries the replicated copies of checkpoints ({@link ClusterSettings#checkpointReplication}).
 */
public enum CheckpointReplication {
    /**
     * The checkpoint map: the primary on the writing member, {@link ClusterSettings#checkpointBackups}
     * synchronous backups on other hosts; Hazelcast restores the backups after a loss
     * ({@link HazelcastReplicas}).
     */
    HAZELCAST("hazelcast"),
    /**
     * Holder ranks on other hosts, over the data plane, in 1 MiB slices; no serialisation and no map
     * entry per copy; the recovery after a holder's death places its copies again ({@link DataPlaneReplicas}).
     */
    DATA_PLANE("data-plane");

    private final String optionValue;

    CheckpointReplication(String optionValue) {
        this.optionValue = optionValue;
    }

    /** The name on the command line and in reports. */
    public String optionValue() {
        return optionValue;
    }

    /** The replication named {@code value} on the command line. */
    public static CheckpointReplication ofOptionValue(String value) {
        for (CheckpointReplication r : values()) {
            if (r.optionValue.equals(value)) {
                return r;
            }
        }
        throw new IllegalArgumentException("checkpoint replication must be hazelcast or data-plane, got '" + value + "'");
    }

    @Override
    public String toString() {
        return optionValue;
    }
}
