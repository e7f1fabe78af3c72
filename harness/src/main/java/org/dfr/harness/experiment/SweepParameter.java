package org.dfr.harness.experiment;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.dfr.recovery.FaultPlan;

/**
 * A setting of an {@link ExperimentSpec} that an {@link ExperimentSweep} varies, named as the {@code dfr experiment}
 * option that sets it (without its dashes). Each knows the form of its values and how to put one into a spec; the
 * spec's own {@link ExperimentSpec#validate()} then judges the whole point (a grid the cells do not divide, say).
 */
public enum SweepParameter {
    /** The failures of a point, {@code RANK@ITER}, several joined by {@code +} ({@code 1@4+2@4}). */
    FAIL("fail", "RANK@ITER[+RANK@ITER...]", false) {
        @Override
        ExperimentSpec.Builder put(ExperimentSpec.Builder spec, ExperimentSpec base, String value) {
            List<String> failures = new ArrayList<>();
            for (String f : value.split("\\+")) {
                FaultPlan.parseKill(f);
                failures.add(f.trim());
            }
            return spec.failures(failures);
        }
    },
    /**
     * The iteration every failure of the base spec happens at, its ranks kept: how far after the last checkpoint a
     * death strikes ({@code m}), which sets the cone's size.
     */
    FAIL_ITERATION("fail-iteration", "an iteration >= 1", true) {
        @Override
        ExperimentSpec.Builder put(ExperimentSpec.Builder spec, ExperimentSpec base, String value) {
            int iteration = positive(value);
            if (base.failures() == null || base.failures().isEmpty()) {
                throw new IllegalArgumentException("the experiment has no failure to move: give one with --fail");
            }
            return spec.failures(base.kills().stream().map(k -> k.rank() + "@" + iteration).toList());
        }
    },
    /** The checkpoint interval. */
    CHECKPOINT_EVERY("checkpoint-every", "an interval >= 1", true) {
        @Override
        ExperimentSpec.Builder put(ExperimentSpec.Builder spec, ExperimentSpec base, String value) {
            return spec.checkpointEvery(positive(value));
        }
    },
    /** Iterations per run. */
    ITERATIONS("iterations", "a count >= 1", true) {
        @Override
        ExperimentSpec.Builder put(ExperimentSpec.Builder spec, ExperimentSpec base, String value) {
            return spec.iterations(positive(value));
        }
    },
    /** Ranks per simulated host: how many ranks one cap holds back. */
    RANKS_PER_HOST("ranks-per-host", "a count >= 1", true) {
        @Override
        ExperimentSpec.Builder put(ExperimentSpec.Builder spec, ExperimentSpec base, String value) {
            return spec.ranksPerHost(positive(value));
        }
    },
    /** Interior cells per axis. */
    CELLS("cells", "sizes like 1024x1024", false) {
        @Override
        ExperimentSpec.Builder put(ExperimentSpec.Builder spec, ExperimentSpec base, String value) {
            return spec.cells(sizes(value));
        }
    },
    /** Ranks per axis. */
    RANKS_GRID("ranks-grid", "sizes like 2x4", false) {
        @Override
        ExperimentSpec.Builder put(ExperimentSpec.Builder spec, ExperimentSpec base, String value) {
            return spec.ranksGrid(sizes(value));
        }
    },
    /** The load model's exponent of {@code f / f_max}. */
    MODEL_ALPHA("model-alpha", "a number >= 0", true) {
        @Override
        ExperimentSpec.Builder put(ExperimentSpec.Builder spec, ExperimentSpec base, String value) {
            return spec.modelAlpha(number(value));
        }
    },
    /** The load model's share of the idle power that follows the clock. */
    MODEL_IDLE_CLOCK_SHARE("model-idle-clock-share", "a number 0..1", true) {
        @Override
        ExperimentSpec.Builder put(ExperimentSpec.Builder spec, ExperimentSpec base, String value) {
            return spec.modelIdleClockShare(number(value));
        }
    },
    /** The power sampling period in ms. */
    SAMPLE_PERIOD_MILLIS("sample-period-millis", "a period >= 1 ms", true) {
        @Override
        ExperimentSpec.Builder put(ExperimentSpec.Builder spec, ExperimentSpec base, String value) {
            return spec.samplePeriodMillis((long) positive(value));
        }
    };

    private final String label;
    private final String form;
    private final boolean numeric;

    SweepParameter(String label, String form, boolean numeric) {
        this.label = label;
        this.form = form;
        this.numeric = numeric;
    }

    /** @return the name, as the option of {@code dfr experiment} that sets it, e.g. {@code fail-iteration} */
    @JsonValue
    public String label() {
        return label;
    }

    /** @return the form of one value, for messages and help */
    public String form() {
        return form;
    }

    /** @return whether values are numbers (a plot may then space them by value) */
    public boolean numeric() {
        return numeric;
    }

    /**
     * Puts {@code value} into {@code spec}.
     *
     * @param spec  the point's builder, started from {@code base}
     * @param base  the swept spec (its other failures, for {@link #FAIL_ITERATION})
     * @param value one value of the sweep, as given
     * @return {@code spec}
     * @throws IllegalArgumentException naming the value and its allowed form
     */
    abstract ExperimentSpec.Builder put(ExperimentSpec.Builder spec, ExperimentSpec base, String value);

    /** @return the spec of one point: {@code base} with {@code value} put in, the sweep itself taken out */
    public ExperimentSpec apply(ExperimentSpec base, String value) {
        try {
            return put(base.toBuilder().sweep(null), base, value.trim()).build();
        } catch (IllegalArgumentException e) {
            // a bare form error says nothing the form does not; a failure's or a missing base's reason does
            throw new IllegalArgumentException("sweep value '" + value + "' of " + label + " is not allowed: give "
                    + form + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"), e);
        }
    }

    /** @return the parameter named {@code text} */
    @JsonCreator
    public static SweepParameter parse(String text) {
        for (SweepParameter p : values()) {
            if (p.label.equalsIgnoreCase(text.trim())) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown sweep parameter '" + text + "': one of "
                + Arrays.stream(values()).map(SweepParameter::label).toList());
    }

    private static int positive(String value) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new IllegalArgumentException();
    }

    private static double number(String value) {
        try {
            return Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException();
        }
    }

    private static List<Integer> sizes(String value) {
        List<Integer> sizes = new ArrayList<>();
        for (String part : value.toLowerCase(Locale.ROOT).split("x", -1)) {
            sizes.add(positive(part));
        }
        return sizes;
    }

    @Override
    public String toString() {
        return label;
    }
}
