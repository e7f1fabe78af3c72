package org.dfr.harness.experiment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The order of an experiment's runs: {@code W} warm-up runs cycling over the variants, then {@code N} rounds,
 * each round every variant once in an order shuffled with the seed (so drift of the machine spreads over the
 * variants instead of biasing one). The same seed and spec give the same schedule.
 */
public final class Schedule {

    /**
     * One run of the schedule.
     *
     * @param index      position in the schedule, from 1
     * @param variant    the variant
     * @param repetition 1..N for measured runs, 0 for warm-ups
     * @param warmup     whether the run is discarded
     */
    public record Entry(int index, Variant variant, int repetition, boolean warmup) {
    }

    private Schedule() {
    }

    /** @return the schedule of {@code spec} */
    public static List<Entry> of(ExperimentSpec spec) {
        return of(spec.variants(), spec.repetitions(), spec.warmups(), spec.seed());
    }

    /** @return warm-ups then {@code repetitions} shuffled rounds of {@code variants} */
    public static List<Entry> of(List<Variant> variants, int repetitions, int warmups, long seed) {
        Random random = new Random(seed);
        List<Entry> entries = new ArrayList<>();
        for (int w = 0; w < warmups; w++) {
            entries.add(new Entry(entries.size() + 1, variants.get(w % variants.size()), 0, true));
        }
        for (int r = 1; r <= repetitions; r++) {
            List<Variant> round = new ArrayList<>(variants);
            Collections.shuffle(round, random);
            for (Variant v : round) {
                entries.add(new Entry(entries.size() + 1, v, r, false));
            }
        }
        return entries;
    }
}
