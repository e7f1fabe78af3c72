package org.dfr.power.freq;

import java.util.List;
import java.util.Objects;

/**
 * The controller for a machine that cannot be capped (no cpufreq, as in a VM or container, or no
 * permission). Every operation does nothing and says why.
 */
public final class NoOpFrequencyController implements FrequencyController {

    private final FrequencyCapabilities capabilities;

    public NoOpFrequencyController(FrequencyCapabilities capabilities) {
        this.capabilities = Objects.requireNonNull(capabilities, "capabilities");
    }

    /** @return a controller that only knows the reason (e.g. capping was not requested) */
    public static NoOpFrequencyController because(String reason) {
        return new NoOpFrequencyController(new FrequencyCapabilities("", false, reason, "none",
                List.of(), List.of(), null));
    }

    /** @return why this machine cannot be capped */
    public String reason() {
        return capabilities.reason();
    }

    @Override
    public FrequencyCapabilities capabilities() {
        return capabilities;
    }

    @Override
    public boolean canCap() {
        return false;
    }

    @Override
    public CapOutcome capToMinimum() {
        return CapOutcome.nothing("frequency capping is a no-op: " + reason());
    }

    @Override
    public RestoreOutcome restore() {
        return RestoreOutcome.nothing("nothing to restore: frequency capping is a no-op: " + reason());
    }

    @Override
    public RestoreOutcome restoreLeftoverJournal() {
        return restore();
    }

    @Override
    public boolean isCapped() {
        return false;
    }

    @Override
    public String toString() {
        return "NoOpFrequencyController[" + reason() + "]";
    }
}
