package org.dfr.recovery;

/**
 * An injected death, recorded in the run's {@link org.dfr.runtime.FailureLog} just before it happens, so
 * that detection latency can be measured.
 *
 * @param rank the rank that dies
 * @param iteration the iteration it dies in, or -1 when it dies during a recovery
 * @param point where in the iteration: a {@link FaultPlan.Point} name, or a description for a death
 *        during a recovery
 * @param killedAtMillis wall-clock time of the death
 */
public record FailureRecord(int rank, int iteration, String point, long killedAtMillis) {

    /** The board value. */
    public String toJson() {
        return ProtocolJson.write(this);
    }

    /** Reads a board value written by {@link #toJson}. */
    public static FailureRecord fromJson(String json) {
        return ProtocolJson.read(json, FailureRecord.class);
    }
}
