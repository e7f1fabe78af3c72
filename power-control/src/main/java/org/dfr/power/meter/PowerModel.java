package org.dfr.power.meter;

import java.util.Locale;

/**
 * The load model
 * {@code P = P_idle * (1 - s + s * r^alpha) + (P_busy - P_idle) * load * r^alpha} with {@code r = f / f_max}.
 *
 * <p>{@code load} is the busy fraction of the CPUs (0..1); {@code r} the frequency the CPUs may run at over
 * the hardware maximum, read from cpufreq, so a capped host's {@code r} is {@code cpuinfo_min_freq /
 * cpuinfo_max_freq}. {@code alpha} is how dynamic power scales with the clock ({@code 1}: proportional to
 * the frequency at a fixed voltage; with DVFS, where the voltage falls with the frequency, {@code P_dyn ~ f V^2}
 * gives up to {@code 3}). {@code s} is the share of the idle power that follows the clock (uncore, clock tree,
 * shallow C-states); {@code s = 0} means an idle host draws {@code P_idle} at any frequency, and capping an idle
 * host then saves nothing. With {@code alpha = 1} and {@code s = 0} this is the original
 * {@code P_idle + (P_busy - P_idle) * load * (f / f_max)}.
 *
 * <p>Its figures are estimates, and every report built on it is labelled {@code model} together with these
 * constants.
 *
 * @param idlePowerWatts  the host's power when idle at the maximum frequency
 * @param busyPowerWatts  the host's power with every CPU busy at the maximum frequency
 * @param alpha           exponent of {@code f / f_max}, at least 0
 * @param idleClockShare  {@code s}, the share of {@code P_idle} that scales with {@code (f / f_max)^alpha}, 0..1
 */
public record PowerModel(double idlePowerWatts, double busyPowerWatts, double alpha, double idleClockShare) {

    /** The formula, as reports print it. */
    public static final String FORMULA =
            "P = P_idle * (1 - s + s * (f/f_max)^alpha) + (P_busy - P_idle) * load * (f/f_max)^alpha";

    public PowerModel {
        if (!Double.isFinite(idlePowerWatts) || idlePowerWatts < 0) {
            throw new IllegalArgumentException("idle power must be a finite number >= 0 W, was " + idlePowerWatts);
        }
        if (!Double.isFinite(busyPowerWatts) || busyPowerWatts < idlePowerWatts) {
            throw new IllegalArgumentException("busy power must be finite and >= idle power (" + idlePowerWatts
                    + " W), was " + busyPowerWatts);
        }
        if (!Double.isFinite(alpha) || alpha < 0) {
            throw new IllegalArgumentException("the frequency exponent alpha must be a finite number >= 0, was "
                    + alpha);
        }
        if (!(idleClockShare >= 0 && idleClockShare <= 1)) {
            throw new IllegalArgumentException("the clock-dependent share s of the idle power must be in 0..1, was "
                    + idleClockShare);
        }
    }

    /** The original model: {@code alpha = 1}, {@code s = 0}. */
    public PowerModel(double idlePowerWatts, double busyPowerWatts) {
        this(idlePowerWatts, busyPowerWatts, 1.0, 0.0);
    }

    /**
     * @param load           the busy fraction of all CPUs, 0..1
     * @param frequencyRatio {@code f / f_max}, 0..1
     * @return the modelled power in W
     */
    public double watts(double load, double frequencyRatio) {
        double scale = Math.pow(frequencyRatio, alpha);
        return idlePowerWatts * (1 - idleClockShare + idleClockShare * scale)
                + (busyPowerWatts - idlePowerWatts) * load * scale;
    }

    /** @return whether {@code alpha} and {@code s} have their original values (1 and 0) */
    public boolean isOriginal() {
        return alpha == 1.0 && idleClockShare == 0.0;
    }

    /**
     * @return the constants as a label, e.g. {@code model(P_idle=40.0 W; P_busy=120.0 W)} or, with the
     *     frequency terms, {@code model(P_idle=40.0 W; P_busy=120.0 W; alpha=1.0; s=0.25)}
     */
    public String label() {
        return "model(P_idle=" + idlePowerWatts + " W; P_busy=" + busyPowerWatts + " W"
                + (isOriginal() ? "" : "; alpha=" + alpha + "; s=" + idleClockShare) + ")";
    }

    /** @return the constants in one line for figure titles */
    public String shortLabel() {
        return String.format(Locale.ROOT, "model: P_idle=%.1f W, P_busy=%.1f W, alpha=%.2f, s=%.2f",
                idlePowerWatts, busyPowerWatts, alpha, idleClockShare);
    }
}
