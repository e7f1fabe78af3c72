package org.dfr.recovery;

/** The rollback strategies a run can use. */
public enum Strategy {
    /** Every partition reloads the last checkpoint and recomputes every lost iteration. */
    GLOBAL("global"),
    /** Only the data-flow cone of the lost partitions recomputes, on duplicate buffers. */
    DFR("dfr");

    private final String label;

    Strategy(String label) {
        this.label = label;
    }

    /** The name used on the command line and in reports. */
    public String label() {
        return label;
    }

    public static Strategy parse(String text) {
        for (Strategy s : values()) {
            if (s.label.equalsIgnoreCase(text)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown strategy '" + text + "': allowed are global, dfr");
    }
}
