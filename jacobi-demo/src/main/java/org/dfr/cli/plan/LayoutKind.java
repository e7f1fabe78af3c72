package org.dfr.cli.plan;

import java.util.Arrays;
import java.util.stream.Collectors;
import org.dfr.analysis.CartesianGrid;
import org.dfr.analysis.DependencyDeclarations;
import org.dfr.analysis.PartitionDependencies;
import org.dfr.analysis.Stencil;

/** The {@code --layout} values of {@code dfr plan}: which ready-made dependency declaration to analyse. */
public enum LayoutKind {
    ONE_D("1d", Stencil.ONE_D_3_POINT),
    TWO_D_5("2d5", Stencil.TWO_D_5_POINT),
    TWO_D_9("2d9", Stencil.TWO_D_9_POINT),
    THREE_D_7("3d7", Stencil.THREE_D_7_POINT),
    GLOBAL("global", null);

    private final String token;
    private final Stencil stencil;

    LayoutKind(String token, Stencil stencil) {
        this.token = token;
        this.stencil = stencil;
    }

    /** The spelling on the command line, e.g. {@code 2d5}. */
    public String token() {
        return token;
    }

    /** How many axes its grid has: its stencil's, and one for global (a list of partitions). */
    public int axes() {
        return switch (this) {
            case ONE_D, GLOBAL -> 1;
            case TWO_D_5, TWO_D_9 -> 2;
            case THREE_D_7 -> 3;
        };
    }

    /** Human-readable name, e.g. {@code 2D 5-point}. */
    public String displayName() {
        return stencil == null ? "global (all-to-all)" : stencil.displayName();
    }

    /** The layout written as {@code token}, case-insensitive. */
    public static LayoutKind parse(String token) {
        for (LayoutKind kind : values()) {
            if (kind.token.equalsIgnoreCase(token.trim())) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown layout '" + token + "'; allowed: " + allTokens());
    }

    /** {@code 1d, 2d5, 2d9, 3d7, global}. */
    public static String allTokens() {
        return Arrays.stream(values()).map(LayoutKind::token).collect(Collectors.joining(", "));
    }

    /**
     * The declaration on {@code grid}, checking that the grid has the dimensionality this layout needs.
     *
     * @throws IllegalArgumentException naming the grid and the expected form
     */
    public PartitionDependencies declare(GridArgument grid, boolean periodic) {
        CartesianGrid g = grid.grid();
        switch (this) {
            case ONE_D -> {
                if (grid.writtenDimensions() > 2 || g.py() != 1) {
                    throw new IllegalArgumentException("layout 1d needs --ranks-grid N or Nx1 but was " + grid.text());
                }
            }
            case TWO_D_5, TWO_D_9 -> {
                if (grid.writtenDimensions() != 2) {
                    throw new IllegalArgumentException("layout " + token + " needs --ranks-grid PXxPY but was " + grid.text());
                }
            }
            case THREE_D_7 -> {
                if (grid.writtenDimensions() != 3) {
                    throw new IllegalArgumentException("layout 3d7 needs --ranks-grid PXxPYxPZ but was " + grid.text());
                }
            }
            case GLOBAL -> {
                if (periodic) {
                    throw new IllegalArgumentException("--periodic does not apply to layout global (every partition"
                            + " already needs every partition)");
                }
                return DependencyDeclarations.global(g.partitionCount());
            }
            default -> throw new IllegalStateException("unhandled layout " + this);
        }
        return DependencyDeclarations.stencil(stencil, g, periodic);
    }
}
