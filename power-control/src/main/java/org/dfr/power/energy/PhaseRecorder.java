package org.dfr.power.energy;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.dfr.power.Ticker;

/**
 * The phases of one host over time. The host is {@link Phase#UNMARKED} until the first {@link #mark}.
 * Thread-safe: the runtime marks from its threads while the sampler reads.
 */
public final class PhaseRecorder {

    private final Ticker ticker;
    private final List<PhaseMark> marks = new ArrayList<>();

    public PhaseRecorder(Ticker ticker) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        marks.add(new PhaseMark(Long.MIN_VALUE, Phase.UNMARKED));
    }

    /** Records that the host enters {@code phase} now; marking the current phase again changes nothing. */
    public synchronized void mark(Phase phase) {
        Objects.requireNonNull(phase, "phase");
        if (current() != phase) {
            marks.add(new PhaseMark(ticker.read(), phase));
        }
    }

    /** @return the phase in force now */
    public synchronized Phase current() {
        return marks.get(marks.size() - 1).phase();
    }

    /** @return every mark so far, oldest first (the first is the implicit unmarked start) */
    public synchronized List<PhaseMark> marks() {
        return List.copyOf(marks);
    }

    /**
     * @return the nanoseconds of {@code [fromNanos, toNanos)} spent in each phase (phases with none left out)
     */
    public synchronized Map<Phase, Long> split(long fromNanos, long toNanos) {
        Map<Phase, Long> split = new EnumMap<>(Phase.class);
        for (int i = 0; i < marks.size(); i++) {
            long start = Math.max(fromNanos, marks.get(i).atNanos());
            long end = i + 1 < marks.size() ? Math.min(toNanos, marks.get(i + 1).atNanos()) : toNanos;
            if (end > start) {
                split.merge(marks.get(i).phase(), end - start, Long::sum);
            }
        }
        return split;
    }
}
