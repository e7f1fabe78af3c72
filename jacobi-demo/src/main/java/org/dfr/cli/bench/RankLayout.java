package org.dfr.cli.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A {@code PX x PY} layout of ranks, one partition per rank.
 *
 * @param px ranks along x
 * @param py ranks along y
 */
public record RankLayout(int px, int py) {

    /** The grids the issue names for plain rank counts. */
    private static final Map<Integer, RankLayout> NAMED = Map.of(1, new RankLayout(1, 1), 2, new RankLayout(2, 1),
            4, new RankLayout(2, 2), 8, new RankLayout(2, 4));

    public RankLayout {
        if (px < 1 || py < 1) {
            throw new IllegalArgumentException("a rank layout needs px, py >= 1, got " + px + "x" + py);
        }
    }

    /** Number of ranks. */
    public int ranks() {
        return px * py;
    }

    /**
     * The layout for one entry of {@code --ranks}: {@code PXxPY} as written, or a rank count {@code N}:
     * 1, 2, 4 and 8 give 1x1, 2x1, 2x2 and 2x4; any other N the most square {@code PX x PY = N} with
     * {@code PX <= PY} (so rows of ranks are long, as in the paper's 2x4).
     *
     * @throws IllegalArgumentException naming the bad entry and the allowed forms
     */
    public static RankLayout parse(String entry) {
        String text = entry.trim();
        if (text.toLowerCase(Locale.ROOT).contains("x")) {
            SizePair pair = SizePair.parse("--ranks entry", text);
            return new RankLayout(pair.first(), pair.second());
        }
        int n;
        try {
            n = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--ranks entry '" + entry + "' is neither a rank count N nor a grid PXxPY");
        }
        if (n < 1) {
            throw new IllegalArgumentException("--ranks entry '" + entry + "': a rank count must be >= 1");
        }
        RankLayout named = NAMED.get(n);
        if (named != null) {
            return named;
        }
        int px = (int) Math.floor(Math.sqrt(n));
        while (n % px != 0) {
            px--;
        }
        return new RankLayout(px, n / px);
    }

    /** Parses every entry of a {@code --ranks} list, keeping the order. */
    public static List<RankLayout> parseAll(List<String> entries) {
        List<RankLayout> out = new ArrayList<>();
        for (String e : entries) {
            out.add(parse(e));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("--ranks needs at least one entry");
        }
        return out;
    }

    @Override
    public String toString() {
        return px + "x" + py;
    }
}
