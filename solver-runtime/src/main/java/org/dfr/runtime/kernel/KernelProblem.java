package org.dfr.runtime.kernel;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The problem a kernel is asked to build: the global size, how it is split, and the kernel's options.
 *
 * @param cells interior cells per axis, x first ({@code --cells 256x128}: {@code [256, 128]}); for a graph
 *        kernel, {@code [vertices]}
 * @param ranksGrid partitions per axis, x first ({@code --ranks-grid 2x4}: {@code [2, 4]}); for a graph
 *        kernel, {@code [partitions]}. Partition id = {@code (z * PY + y) * PX + x}.
 * @param options the kernel's resolved options
 */
public record KernelProblem(int[] cells, int[] ranksGrid, KernelOptions options) {

    public KernelProblem {
        cells = cells.clone();
        ranksGrid = ranksGrid.clone();
        Objects.requireNonNull(options);
        if (cells.length == 0 || cells.length != ranksGrid.length) {
            throw new IllegalArgumentException("cells " + Arrays.toString(cells) + " and ranks grid "
                    + Arrays.toString(ranksGrid) + " must have the same number of axes (1 to 3)");
        }
    }

    /** Number of axes. */
    public int dimensions() {
        return cells.length;
    }

    @Override
    public int[] cells() {
        return cells.clone();
    }

    @Override
    public int[] ranksGrid() {
        return ranksGrid.clone();
    }

    /** Product of {@link #ranksGrid()}. */
    public int partitionCount() {
        long n = 1;
        for (int p : ranksGrid) {
            n *= p;
        }
        if (n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("ranks grid " + Arrays.toString(ranksGrid) + " has more than "
                    + Integer.MAX_VALUE + " partitions");
        }
        return (int) n;
    }

    /** Product of {@link #cells()}. */
    public long cellCount() {
        long n = 1;
        for (int c : cells) {
            n *= c;
        }
        return n;
    }

    /**
     * Checks that the problem has {@code expected} axes and at least one cell per partition along every axis.
     *
     * @throws IllegalArgumentException naming the kernel, the bad sizes and what is allowed
     */
    public void requireShape(String kernel, int expected) {
        if (dimensions() != expected) {
            throw new IllegalArgumentException("kernel " + kernel + " takes " + expected + (expected == 1 ? " axis" : " axes") + " (--cells "
                    + example(expected, "N") + ", --ranks-grid " + example(expected, "P") + ") but got --cells "
                    + join(cells) + " and --ranks-grid " + join(ranksGrid));
        }
        for (int a = 0; a < cells.length; a++) {
            if (cells[a] < 1 || ranksGrid[a] < 1) {
                throw new IllegalArgumentException("--cells " + join(cells) + " and --ranks-grid " + join(ranksGrid)
                        + ": every size must be >= 1");
            }
            if (ranksGrid[a] > cells[a]) {
                throw new IllegalArgumentException("--ranks-grid " + join(ranksGrid) + " has more partitions than --cells "
                        + join(cells) + " has cells along axis " + "xyz".charAt(a)
                        + ": every partition needs at least one cell");
            }
        }
    }

    private static String example(int axes, String letter) {
        return switch (axes) {
            case 1 -> letter;
            case 2 -> letter + "X" + "x" + letter + "Y";
            default -> letter + "X" + "x" + letter + "Y" + "x" + letter + "Z";
        };
    }

    /** {@code 256x128}: sizes along the axes as the command line writes them. */
    public static String join(List<Integer> sizes) {
        return join(sizes.stream().mapToInt(Integer::intValue).toArray());
    }

    /** {@code 256x128}. */
    public static String join(int[] sizes) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < sizes.length; i++) {
            b.append(i == 0 ? "" : "x").append(sizes[i]);
        }
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KernelProblem k && Arrays.equals(cells, k.cells) && Arrays.equals(ranksGrid, k.ranksGrid)
                && options.equals(k.options);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(cells), Arrays.hashCode(ranksGrid), options);
    }

    @Override
    public String toString() {
        return "cells " + join(cells) + ", ranks grid " + join(ranksGrid) + (options.values().isEmpty() ? "" : ", " + options);
    }
}
