package org.dfr.power.timeline;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.dfr.power.energy.Phase;

/**
 * The phases of one host over a run, as non-overlapping spans on the monotonic clock. Time outside every
 * span is {@link Phase#UNMARKED} with load 0.
 */
public final class HostTimeline {

    private final String host;
    private final List<PhaseSpan> spans;

    public HostTimeline(String host, List<PhaseSpan> spans) {
        this.host = Objects.requireNonNull(host, "host");
        List<PhaseSpan> sorted = new ArrayList<>(spans);
        sorted.removeIf(s -> s.toNanos() == s.fromNanos());
        sorted.sort(Comparator.comparingLong(PhaseSpan::fromNanos));
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).fromNanos() < sorted.get(i - 1).toNanos()) {
                throw new IllegalArgumentException(host + ": spans overlap: " + sorted.get(i - 1) + " and "
                        + sorted.get(i));
            }
        }
        this.spans = List.copyOf(sorted);
    }

    public String host() {
        return host;
    }

    public List<PhaseSpan> spans() {
        return spans;
    }

    /** @return the span in force at {@code nanos}, or an unmarked one */
    public PhaseSpan at(long nanos) {
        int lo = 0;
        int hi = spans.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            PhaseSpan s = spans.get(mid);
            if (nanos < s.fromNanos()) {
                hi = mid - 1;
            } else if (nanos >= s.toNanos()) {
                lo = mid + 1;
            } else {
                return s;
            }
        }
        return new PhaseSpan(nanos, nanos, Phase.UNMARKED, 0);
    }

    /** @return the span boundaries, for integration */
    public List<Long> boundaries() {
        List<Long> b = new ArrayList<>();
        for (PhaseSpan s : spans) {
            b.add(s.fromNanos());
            b.add(s.toNanos());
        }
        return b;
    }
}
