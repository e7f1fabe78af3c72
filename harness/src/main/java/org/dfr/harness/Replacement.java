package org.dfr.harness;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.dfr.runtime.ClusterSettings;

/**
 * Who takes over the partitions of a dead rank ({@code --replacement}).
 *
 * <ul>
 *   <li>{@link #SPARE}: a hot spare rank, idle since the start, adopts them ({@code --spares S}); once the
 *       spares are used up, a survivor does.</li>
 *   <li>{@link #ADOPT}: the least loaded survivor adopts them (the job shrinks).</li>
 *   <li>{@link #RESPAWN}: the launcher starts a fresh rank process in place of each dead one, on its
 *       host; it joins the cluster and adopts the lost partitions (as ULFM's spawn or Reinit++ do), and
 *       the recovery waits for it ({@link ClusterSettings#respawnWaitMillis}). Processes mode only.</li>
 * </ul>
 */
public enum Replacement {
    SPARE, ADOPT, RESPAWN;

    /** The replacement of a run that names none: its spares when it has some, otherwise adoption. */
    public static Replacement defaultFor(int spares) {
        return spares > 0 ? SPARE : ADOPT;
    }

    /** The command-line spelling, e.g. {@code respawn}. */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses {@code spare}, {@code adopt} or {@code respawn}.
     *
     * @throws IllegalArgumentException naming the value and the allowed ones
     */
    public static Replacement parse(String value) {
        for (Replacement r : values()) {
            if (r.optionValue().equals(value)) {
                return r;
            }
        }
        throw new IllegalArgumentException("--replacement " + value + " is not allowed: " + allowed());
    }

    static String allowed() {
        return Arrays.stream(values()).map(Replacement::optionValue).collect(Collectors.joining("|"));
    }

    /**
     * What is wrong with this replacement for a run with {@code spares} spares in {@code mode}, in one
     * line; null when nothing is.
     *
     * @param overSsh whether the ranks are started over ssh ({@code --hosts}), where no launcher can respawn
     */
    public String problem(int spares, Mode mode, boolean overSsh) {
        return switch (this) {
            case SPARE -> spares < 1 ? "--replacement spare needs spare ranks: give --spares S (S >= 1)" : null;
            case ADOPT -> spares > 0 ? "--replacement adopt cannot be combined with --spares " + spares
                    + ": survivors adopt, spares would wait for nothing" : null;
            case RESPAWN -> mode != Mode.PROCESSES
                    ? "--replacement respawn needs --mode processes: a fresh rank is a new process"
                    : spares > 0 ? "--replacement respawn cannot be combined with --spares " + spares
                            + ": fresh processes replace the dead ranks"
                    : overSsh ? "--replacement respawn cannot be combined with --hosts: only the local launcher"
                            + " starts fresh rank processes" : null;
        };
    }

    /** Configures the cluster for this replacement: a respawn makes the recovery wait for the fresh ranks. */
    public ClusterSettings applyTo(ClusterSettings settings) {
        return settings.respawnWaitMillis(this == RESPAWN ? ClusterSettings.DEFAULT_RESPAWN_WAIT_MILLIS : 0);
    }
}
