package org.dfr.power.meter;

/**
 * The load model {@code P = P_idle + (P_busy - P_idle) * load * (f / f_max)}. Its figures are estimates,
 * and every report built on it is labelled {@code model} together with these constants.
 *
 * @param idlePowerWatts the host's power when idle
 * @param busyPowerWatts the host's power with every CPU busy at the maximum frequency
 */
public record PowerModel(double idlePowerWatts, double busyPowerWatts) {

    /** The formula, as reports print it. */
    public static final String FORMULA = "P = P_idle + (P_busy - P_idle) * load * (f / f_max)";

    public PowerModel {
        if (!Double.isFinite(idlePowerWatts) || idlePowerWatts < 0) {
            throw new IllegalArgumentException("idle power must be a finite number >= 0 W, was " + idlePowerWatts);
        }
        if (!Double.isFinite(busyPowerWatts) || busyPowerWatts < idlePowerWatts) {
            throw new IllegalArgumentException("busy power must be finite and >= idle power (" + idlePowerWatts
                    + " W), was " + busyPowerWatts);
        }
    }

    /**
     * @param load           the busy fraction of all CPUs, 0..1
     * @param frequencyRatio {@code f / f_max}, 0..1
     * @return the modelled power in W
     */
    public double watts(double load, double frequencyRatio) {
        return idlePowerWatts + (busyPowerWatts - idlePowerWatts) * load * frequencyRatio;
    }

    /** @return the constants as a label, e.g. {@code model(P_idle=40.0 W; P_busy=120.0 W)} */
    public String label() {
        return "model(P_idle=" + idlePowerWatts + " W; P_busy=" + busyPowerWatts + " W)";
    }
}
