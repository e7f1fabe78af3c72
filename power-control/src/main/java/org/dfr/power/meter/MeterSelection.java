package org.dfr.power.meter;

import java.util.List;

/**
 * The meter {@link PowerMeterSelector} chose and the verdict on every candidate, in order of preference.
 *
 * @param meter    the chosen meter (a {@link NoPowerMeter} when nothing is available); the caller closes it
 * @param verdicts one per candidate: rapl, perf, model, none
 */
public record MeterSelection(PowerMeter meter, List<MeterVerdict> verdicts) {

    public MeterSelection {
        verdicts = List.copyOf(verdicts);
    }

    public EnergySource source() {
        return meter.source();
    }
}
