package org.dfr.harness;

import java.util.List;
import org.dfr.recovery.FailureRecord;

/**
 * Which injected kill a recovery answered, and so how long its detection took (death to the first survivor
 * knowing). Matched by rank and time, not by iteration: a rank killed during the recovery of an earlier kill
 * at the same iteration ({@code --fail-during-recovery}) is a later kill at the same iteration, and taking it
 * for the one the first recovery answered gave a negative time, shown as 0.
 *
 * <p>A kill is stamped by the dying rank's clock and a detection by a survivor's: on several hosts the two
 * clocks may differ by a little. A kill of one of the recovery's own dead ranks stamped up to
 * {@value #CLOCK_SKEW_MILLIS} ms after the detection still counts as the one it answered, with a detection
 * of 0 ms.
 */
final class KillDetections {

    /** How far a dying rank's clock may run ahead of a survivor's and its kill still be matched. */
    static final long CLOCK_SKEW_MILLIS = 1_000;

    /** A recovery as the matching needs it: the ranks it counted dead and when it learned of the first death. */
    record Detected(List<Integer> deadRanks, long detectedAtMillis) {
    }

    private KillDetections() {
    }

    /**
     * The detection of a recovery: its detection time minus the latest kill, before it (or within the clock skew
     * after it), of one of the ranks it counted dead; failing that, minus the latest kill of any rank before it (a
     * rank lost otherwise than by the fault plan); null when no kill came before it.
     */
    static Long ofRecovery(List<FailureRecord> kills, Detected recovery) {
        Long answered = latestKillBefore(kills, recovery, CLOCK_SKEW_MILLIS, true);
        if (answered == null) {
            answered = latestKillBefore(kills, recovery, 0, false);
        }
        return answered == null ? null : Math.max(0, recovery.detectedAtMillis() - answered);
    }

    /**
     * The detection of one kill: from it to the first recovery, detected after it (or within the clock skew
     * before it), that counted its rank dead; null when no recovery did (the run ended first, or the rank's death
     * needed none).
     */
    static Long ofKill(FailureRecord kill, List<Detected> recoveries) {
        Long first = null;
        for (Detected r : recoveries) {
            if (r.deadRanks().contains(kill.rank()) && r.detectedAtMillis() >= kill.killedAtMillis() - CLOCK_SKEW_MILLIS
                    && (first == null || r.detectedAtMillis() < first)) {
                first = r.detectedAtMillis();
            }
        }
        return first == null ? null : Math.max(0, first - kill.killedAtMillis());
    }

    private static Long latestKillBefore(List<FailureRecord> kills, Detected recovery, long skewMillis,
                                         boolean onlyItsDead) {
        Long chosen = null;
        for (FailureRecord f : kills) {
            long at = f.killedAtMillis();
            if (at <= recovery.detectedAtMillis() + skewMillis
                    && (!onlyItsDead || recovery.deadRanks().contains(f.rank()))
                    && (chosen == null || at > chosen)) {
                chosen = at;
            }
        }
        return chosen;
    }
}
