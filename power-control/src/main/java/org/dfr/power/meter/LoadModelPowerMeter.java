package org.dfr.power.meter;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import org.dfr.power.Ticker;

/**
 * Estimated energy: the {@link PowerModel} applied to the CPU load and the frequency ratio of each
 * interval between readings, integrated over time. Labelled {@code model}; never a measurement.
 */
public final class LoadModelPowerMeter implements PowerMeter {

    private final PowerModel model;
    private final CpuLoadSource load;
    private final FrequencyRatioSource frequency;
    private final Ticker ticker;
    private long lastNanos;
    private double totalJoules;

    public LoadModelPowerMeter(PowerModel model, CpuLoadSource load, FrequencyRatioSource frequency, Ticker ticker) {
        this.model = Objects.requireNonNull(model, "model");
        this.load = Objects.requireNonNull(load, "load");
        this.frequency = Objects.requireNonNull(frequency, "frequency");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.lastNanos = ticker.read();
    }

    public PowerModel model() {
        return model;
    }

    @Override
    public EnergySource source() {
        return EnergySource.MODEL;
    }

    @Override
    public String description() {
        return "model (an estimate, not a measurement): " + PowerModel.FORMULA + " with P_idle="
                + model.idlePowerWatts() + " W, P_busy=" + model.busyPowerWatts() + " W, alpha=" + model.alpha() + ", s="
                + model.idleClockShare() + ", load from OSHI ticks, "
                + frequency.description();
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("formula", PowerModel.FORMULA);
        parameters.put("idlePowerWatts", model.idlePowerWatts());
        parameters.put("busyPowerWatts", model.busyPowerWatts());
        parameters.put("alpha", model.alpha());
        parameters.put("idleClockShare", model.idleClockShare());
        parameters.put("frequencyRatio", frequency.description());
        return parameters;
    }

    @Override
    public synchronized OptionalDouble readEnergyJoules() {
        long now = ticker.read();
        double watts = model.watts(load.loadSinceLastCall(), frequency.ratio());
        totalJoules += watts * (now - lastNanos) / 1e9;
        lastNanos = now;
        return OptionalDouble.of(totalJoules);
    }
}
