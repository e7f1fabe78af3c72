package org.dfr.cli.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.dfr.cli.options.Sizes;

/** The rank layouts of {@code dfr bench --ranks}, for a kernel of 1, 2 or 3 axes. */
public final class BenchLayouts {

    private BenchLayouts() {
    }

    /**
     * One layout per entry: a grid written with the kernel's axes, or a rank count. For 2 axes a count
     * means {@link RankLayout#parse}'s grid (1x1, 2x1, 2x2, 2x4, else the most square); for 1 axis the
     * count itself; for 3 axes factors of 2 go to x, y, z in turn (8 = 2x2x2), the rest to z.
     *
     * @throws IllegalArgumentException naming a bad entry and the allowed forms
     */
    public static List<Sizes> parseAll(List<String> entries, int axes) {
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("--ranks needs at least one entry");
        }
        List<Sizes> out = new ArrayList<>();
        for (String entry : entries) {
            out.add(parse(entry.trim(), axes));
        }
        return out;
    }

    private static Sizes parse(String entry, int axes) {
        if (axes == 2) {
            RankLayout l = RankLayout.parse(entry);
            return new Sizes(List.of(l.px(), l.py()));
        }
        if (entry.toLowerCase(Locale.ROOT).contains("x")) {
            Sizes grid = Sizes.parse(entry);
            if (grid.axes() != axes) {
                throw new IllegalArgumentException("--ranks entry '" + entry + "' has " + grid.axes()
                        + " axes but the kernel takes " + axes);
            }
            return grid;
        }
        int n;
        try {
            n = Integer.parseInt(entry);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--ranks entry '" + entry + "' is neither a rank count N nor a grid");
        }
        if (n < 1) {
            throw new IllegalArgumentException("--ranks entry '" + entry + "': a rank count must be >= 1");
        }
        if (axes == 1) {
            return new Sizes(List.of(n));
        }
        int[] grid = {1, 1, 1};
        int rest = n;
        int axis = 0;
        while (rest % 2 == 0) {
            grid[axis % 3] *= 2;
            rest /= 2;
            axis++;
        }
        grid[2] *= rest;
        return new Sizes(List.of(grid[0], grid[1], grid[2]));
    }
}
