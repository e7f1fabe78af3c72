package org.dfr.cli.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/** Medians of a few repetitions (a handful of values: sorting is the simplest exact way). */
public final class Medians {

    private Medians() {
    }

    /**
     * The median of the non-null values: the middle one, or the mean of the two middle ones.
     *
     * @return null when there is no non-null value
     */
    public static Double of(Collection<? extends Number> values) {
        List<Double> sorted = new ArrayList<>();
        values.stream().filter(Objects::nonNull).forEach(v -> sorted.add(v.doubleValue()));
        if (sorted.isEmpty()) {
            return null;
        }
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
