package org.dfr.cli.power;

import org.dfr.power.meter.PowerModel;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** The constants of the load model; the model is used only when both are given. */
public final class ModelOptions {

    @Option(names = "--idle-power-watts", paramLabel = "W",
            description = "Model: the host's power when idle. With --busy-power-watts, enables the load model"
                    + " P = P_idle + (P_busy - P_idle) * load * (f / f_max) when no counter exists.")
    Double idlePowerWatts;

    @Option(names = "--busy-power-watts", paramLabel = "W",
            description = "Model: the host's power with every CPU busy at full frequency.")
    Double busyPowerWatts;

    /** @return the configured model, or {@code null} when none is configured */
    PowerModel model(CommandLine commandLine) {
        if (idlePowerWatts == null && busyPowerWatts == null) {
            return null;
        }
        if (idlePowerWatts == null || busyPowerWatts == null) {
            throw new CommandLine.ParameterException(commandLine,
                    "the power model needs both --idle-power-watts and --busy-power-watts (got only "
                            + (idlePowerWatts == null ? "--busy-power-watts" : "--idle-power-watts") + ")");
        }
        try {
            return new PowerModel(idlePowerWatts, busyPowerWatts);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(commandLine, "--idle-power-watts " + idlePowerWatts
                    + " --busy-power-watts " + busyPowerWatts + ": " + e.getMessage());
        }
    }
}
