package org.dfr.cli.options;

import org.dfr.power.meter.PowerModel;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The constants of the load model ({@link PowerModel}), the same options in every command that measures
 * power ({@code run}, {@code experiment}, {@code power sample}, {@code power status}). The model is used
 * only when both powers are given; alpha and s default to the original model's 1 and 0.
 */
public final class PowerModelOptions {

    @Option(names = "--idle-power-watts", paramLabel = "W",
            description = "Load model: the host's power when idle at full frequency. With --busy-power-watts,"
                    + " enables the model (used only when the machine has no energy counter): " + PowerModel.FORMULA)
    Double idlePowerWatts;

    @Option(names = "--busy-power-watts", paramLabel = "W",
            description = "Load model: the host's power with every CPU busy at full frequency.")
    Double busyPowerWatts;

    @Option(names = "--model-alpha", paramLabel = "A",
            description = "Load model: exponent of f/f_max, >= 0 (1: power proportional to the clock; up to 3 with"
                    + " DVFS). Default: 1.")
    Double modelAlpha;

    @Option(names = "--model-idle-clock-share", paramLabel = "S",
            description = "Load model: share of the idle power that follows the clock, 0..1 (0: capping an idle"
                    + " host saves nothing). Default: 0.")
    Double modelIdleClockShare;

    /** @return the idle power as given, or null */
    public Double idlePowerWatts() {
        return idlePowerWatts;
    }

    /** @return the busy power as given, or null */
    public Double busyPowerWatts() {
        return busyPowerWatts;
    }

    /** @return alpha as given, or null */
    public Double modelAlpha() {
        return modelAlpha;
    }

    /** @return s as given, or null */
    public Double modelIdleClockShare() {
        return modelIdleClockShare;
    }

    /**
     * @param commandLine the command, for the one-line error
     * @return the configured model, or {@code null} when neither power is given
     * @throws CommandLine.ParameterException when only one power is given, alpha or s without powers, or a bad value
     */
    public PowerModel model(CommandLine commandLine) {
        if (idlePowerWatts == null && busyPowerWatts == null) {
            if (modelAlpha != null || modelIdleClockShare != null) {
                throw new CommandLine.ParameterException(commandLine, (modelAlpha != null ? "--model-alpha"
                        : "--model-idle-clock-share") + " needs the load model: give --idle-power-watts and"
                        + " --busy-power-watts too");
            }
            return null;
        }
        if (idlePowerWatts == null || busyPowerWatts == null) {
            throw new CommandLine.ParameterException(commandLine,
                    "--idle-power-watts and --busy-power-watts go together: give both or neither (got only "
                            + (idlePowerWatts == null ? "--busy-power-watts" : "--idle-power-watts") + ")");
        }
        try {
            return new PowerModel(idlePowerWatts, busyPowerWatts, modelAlpha == null ? 1.0 : modelAlpha,
                    modelIdleClockShare == null ? 0.0 : modelIdleClockShare);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(commandLine, "--idle-power-watts " + idlePowerWatts
                    + " --busy-power-watts " + busyPowerWatts
                    + (modelAlpha == null ? "" : " --model-alpha " + modelAlpha)
                    + (modelIdleClockShare == null ? "" : " --model-idle-clock-share " + modelIdleClockShare)
                    + ": " + e.getMessage());
        }
    }
}
