package org.dfr.simulator;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The rollback strategies the simulator compares on the same failures. */
public enum Strategy {
    /** Every partition reloads the last checkpoint and recomputes the {@code m} lost iterations. */
    GLOBAL("global"),
    /** Data-flow rollback: only the exact cone of {@link org.dfr.analysis.ConeAnalyzer} recomputes, level by level. */
    DFR("dfr"),
    /**
     * Message-log recovery (Gamell et al.): only the lost partitions replay the {@code m} iterations from
     * messages their neighbours logged; survivors recompute nothing, but every message costs a log copy.
     */
    MESSAGE_LOG("message-log");

    private final String cliName;

    Strategy(String cliName) {
        this.cliName = cliName;
    }

    /** The lower-case name used on the command line and in CSV files: {@code global}, {@code dfr}, {@code message-log}. */
    public String cliName() {
        return cliName;
    }

    /**
     * The strategy named {@code name} ({@link #cliName()} or the enum name, any case).
     *
     * @throws IllegalArgumentException naming the bad value and the allowed ones
     */
    public static Strategy parse(String name) {
        for (Strategy s : values()) {
            if (s.cliName.equalsIgnoreCase(name) || s.name().equalsIgnoreCase(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("strategy '" + name + "' is unknown; allowed: "
                + Arrays.stream(values()).map(Strategy::cliName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return cliName.toLowerCase(Locale.ROOT);
    }
}
