package org.dfr.power.freq;

import java.util.List;

/**
 * What a restore did.
 *
 * @param restored whether a journal was found and replayed (and then removed)
 * @param changes  the attributes written, in order (empty when every value was already the original)
 * @param message  a sentence for users
 */
public record RestoreOutcome(boolean restored, List<FrequencyChange> changes, String message) {

    public RestoreOutcome {
        changes = List.copyOf(changes);
    }

    static RestoreOutcome nothing(String message) {
        return new RestoreOutcome(false, List.of(), message);
    }
}
