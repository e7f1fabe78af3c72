package org.dfr.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The control-board marker of the last committed checkpoint ({@link #KEY}), written by the root once
 * every rank is known to have written every partition of it.
 *
 * @param epoch the epoch in which it was committed
 * @param iteration the checkpoint's iteration
 */
public record CommittedCheckpoint(int epoch, int iteration) {

    /** Control-board key of the marker; its value is {@link #toJson}. */
    public static final String KEY = "checkpoint/committed";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The board value: {@code {"epoch":E,"iteration":I}}. */
    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads a board value written by {@link #toJson}; null for null. */
    public static CommittedCheckpoint fromJson(String json) {
        if (json == null) {
            return null;
        }
        try {
            return JSON.readValue(json, CommittedCheckpoint.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a committed-checkpoint marker: " + json, e);
        }
    }
}
