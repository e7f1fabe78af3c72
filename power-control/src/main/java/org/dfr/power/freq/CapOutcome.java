package org.dfr.power.freq;

import java.util.List;

/**
 * What {@link FrequencyController#capToMinimum()} did.
 *
 * @param applied whether the host is now capped by this controller
 * @param changes the attributes written, in order
 * @param message a sentence for users, saying why nothing happened when nothing did
 */
public record CapOutcome(boolean applied, List<FrequencyChange> changes, String message) {

    public CapOutcome {
        changes = List.copyOf(changes);
    }

    static CapOutcome nothing(String message) {
        return new CapOutcome(false, List.of(), message);
    }
}
