package org.dfr.power.timeline;

import java.util.ArrayList;
import java.util.List;

/**
 * Readings of a host's {@code f / f_max} over time; the ratio is taken as constant from one reading to the
 * next (before the first reading: the first reading). Thread-safe.
 */
public final class FrequencyTrace {

    private final List<long[]> points = new ArrayList<>();

    /** Records that the ratio read {@code ratio} at {@code nanos}. */
    public synchronized void add(long nanos, double ratio) {
        points.add(new long[] {nanos, Double.doubleToLongBits(ratio)});
        int i = points.size() - 1;
        while (i > 0 && points.get(i - 1)[0] > points.get(i)[0]) {
            long[] t = points.get(i);
            points.set(i, points.get(i - 1));
            points.set(i - 1, t);
            i--;
        }
    }

    /** @return the ratio in force at {@code nanos}; 1.0 when nothing was read */
    public synchronized double ratioAt(long nanos) {
        if (points.isEmpty()) {
            return 1.0;
        }
        double ratio = Double.longBitsToDouble(points.get(0)[1]);
        for (long[] p : points) {
            if (p[0] > nanos) {
                break;
            }
            ratio = Double.longBitsToDouble(p[1]);
        }
        return ratio;
    }

    /** @return the reading times, for integration */
    public synchronized List<Long> times() {
        List<Long> t = new ArrayList<>();
        for (long[] p : points) {
            t.add(p[0]);
        }
        return t;
    }
}
