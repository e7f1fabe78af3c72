package org.dfr.harness;

import java.util.List;
import org.dfr.recovery.FailureRecord;

/**
 * Which injected kill a recovery answered, and so how long its detection took (death to the first survivor
 * knowing). Matched by rank and time, not by iteration: a rank killed during the recovery of an earlier kill
 * at the same iteration ({@code --fail-during-recovery}) is a later kill at the same iteration, and taking it
 * for the one the first recovery answered gave a negative time, shown as 0.
 */
final class KillDetections {

    /** A recovery as the matching needs it: the ranks it counted dead and when it learned of the first death. */
    record Detected(List<Integer> deadRanks, long detectedAtMillis) {
    }

    private KillDetections() {
    }

    /**
     * The detection of a recovery: its detection time minus the latest kill, at or before it, of one of the ranks
     * it counted dead (of any rank when none of them was killed by the run's fault plan: a rank lost otherwise);
     * null when no kill came before it.
     */
    static Long ofRecovery(List<FailureRecord> kills, Detected recovery) {
        Long answered = latestKillBefore(kills, recovery, true);
        if (answered == null) {
            answered = latestKillBefore(kills, recovery, false);
        }
        return answered == null ? null : recovery.detectedAtMillis() - answered;
    }

    /**
     * The detection of one kill: from it to the first recovery, detected at or after it, that counted its rank
     * dead; null when no recovery did (the run ended first, or the rank's death needed none).
     */
    static Long ofKill(FailureRecord kill, List<Detected> recoveries) {
        Long first = null;
        for (Detected r : recoveries) {
            if (r.deadRanks().contains(kill.rank()) && r.detectedAtMillis() >= kill.killedAtMillis()
                    && (first == null || r.detectedAtMillis() < first)) {
                first = r.detectedAtMillis();
            }
        }
        return first == null ? null : first - kill.killedAtMillis();
    }

    private static Long latestKillBefore(List<FailureRecord> kills, Detected recovery, boolean onlyItsDead) {
        Long chosen = null;
        for (FailureRecord f : kills) {
            long at = f.killedAtMillis();
            if (at <= recovery.detectedAtMillis() && (!onlyItsDead || recovery.deadRanks().contains(f.rank()))
                    && (chosen == null || at > chosen)) {
                chosen = at;
            }
        }
        return chosen;
    }
}
