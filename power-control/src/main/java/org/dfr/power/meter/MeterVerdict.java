package org.dfr.power.meter;

/**
 * Why one candidate source was or was not used.
 *
 * @param source    the candidate
 * @param available whether this machine offers it
 * @param chosen    whether it is the meter in use
 * @param reason    what was found, or what is missing
 */
public record MeterVerdict(EnergySource source, boolean available, boolean chosen, String reason) {

    @Override
    public String toString() {
        return source + ": " + (chosen ? "chosen" : available ? "available, not chosen" : "not available")
                + " - " + reason;
    }
}
