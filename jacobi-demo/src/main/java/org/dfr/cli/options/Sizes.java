package org.dfr.cli.options;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dfr.runtime.kernel.KernelProblem;

/**
 * Sizes along 1 to 3 axes, written {@code N}, {@code AxB} or {@code AxBxC}, x first: {@code --cells 4096},
 * {@code --cells 256x256x256}, {@code --ranks-grid 2x4}.
 *
 * @param values the sizes, each at least 1
 */
public record Sizes(List<Integer> values) {

    public Sizes {
        values = List.copyOf(values);
        if (values.isEmpty() || values.size() > 3) {
            throw new IllegalArgumentException("sizes need 1 to 3 axes, got " + values.size());
        }
        for (int v : values) {
            if (v < 1) {
                throw new IllegalArgumentException("sizes must be >= 1, got " + text(values));
            }
        }
    }

    /**
     * The {@code --ranks-grid} of every command that does not need one given: 8 partitions shaped like {@code axes}
     * axes (8, 2x4, 2x2x2), the paper's 8 ranks.
     */
    public static Sizes defaultRanksGrid(int axes) {
        return switch (axes) {
            case 1 -> new Sizes(List.of(8));
            case 2 -> new Sizes(List.of(2, 4));
            default -> new Sizes(List.of(2, 2, 2));
        };
    }

    /**
     * Parses {@code N}, {@code AxB} or {@code AxBxC}.
     *
     * @throws IllegalArgumentException naming the bad text and the allowed form
     */
    public static Sizes parse(String text) {
        String[] parts = text.trim().toLowerCase(Locale.ROOT).split("x", -1);
        if (parts.length > 3) {
            throw new IllegalArgumentException("'" + text + "' has " + parts.length + " axes; allowed: N, AxB or AxBxC");
        }
        List<Integer> out = new ArrayList<>();
        for (String p : parts) {
            try {
                out.add(Integer.parseInt(p.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "' is not of the form N, AxB or AxBxC with whole numbers");
            }
        }
        for (int v : out) {
            if (v < 1) {
                throw new IllegalArgumentException("'" + text + "': every size must be >= 1");
            }
        }
        return new Sizes(out);
    }

    /** Number of axes. */
    public int axes() {
        return values.size();
    }

    /** Product of the sizes. */
    public long product() {
        long n = 1;
        for (int v : values) {
            n *= v;
        }
        return n;
    }

    /** The size along axis {@code a} (0 = x). */
    public int get(int a) {
        return values.get(a);
    }

    private static String text(List<Integer> values) {
        return KernelProblem.join(values);
    }

    @Override
    public String toString() {
        return text(values);
    }
}
