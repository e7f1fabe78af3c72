package org.dfr.cli.plan;

import java.util.Arrays;
import java.util.Locale;
import org.dfr.analysis.CartesianGrid;

/**
 * A parsed {@code --ranks-grid} value: {@code N}, {@code PXxPY} or {@code PXxPYxPZ}.
 *
 * @param text              as written
 * @param writtenDimensions how many sizes were written (1..3)
 * @param grid              the layout; missing sizes are 1
 */
public record GridArgument(String text, int writtenDimensions, CartesianGrid grid) {

    /**
     * @throws IllegalArgumentException naming the bad part and the allowed form
     */
    public static GridArgument parse(String text) {
        String[] parts = text.trim().toLowerCase(Locale.ROOT).split("x", -1);
        if (parts.length > 3) {
            throw new IllegalArgumentException("grid '" + text + "' has " + parts.length
                    + " sizes; allowed: N, PXxPY or PXxPYxPZ");
        }
        int[] sizes = {1, 1, 1};
        for (int i = 0; i < parts.length; i++) {
            sizes[i] = parseSize(text, parts[i]);
        }
        long count = (long) sizes[0] * sizes[1] * sizes[2];
        if (count > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("grid '" + text + "' has " + count + " partitions; at most "
                    + Integer.MAX_VALUE + " are allowed");
        }
        return new GridArgument(text, parts.length, new CartesianGrid(sizes[0], sizes[1], sizes[2]));
    }

    private static int parseSize(String text, String part) {
        int size;
        try {
            size = Integer.parseInt(part.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("grid '" + text + "' has size '" + part
                    + "', which is not a whole number; allowed: N, PXxPY or PXxPYxPZ with sizes >= 1");
        }
        if (size < 1) {
            throw new IllegalArgumentException("grid '" + text + "' has size " + size + "; every size must be >= 1");
        }
        return size;
    }

    /** Sizes as written, e.g. {@code [2, 4]} for {@code 2x4}. */
    public int[] writtenSizes() {
        int[] all = {grid.px(), grid.py(), grid.pz()};
        return Arrays.copyOf(all, writtenDimensions);
    }
}
