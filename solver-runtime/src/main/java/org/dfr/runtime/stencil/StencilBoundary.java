package org.dfr.runtime.stencil;

import java.util.Objects;

/**
 * What lies outside the interior of a stencil problem: either fixed (Dirichlet) values given by a
 * {@link CellFunction} of global coordinates, for every cell outside the interior the stencil can read
 * (including frame cells farther than one cell away for stencils of radius above 1), or a torus: every
 * axis wraps around.
 *
 * @param periodic whether every axis wraps around
 * @param values the Dirichlet values; {@code null} when periodic
 */
public record StencilBoundary(boolean periodic, CellFunction values) {

    /** @throws IllegalArgumentException if Dirichlet values are missing or given for a periodic boundary */
    public StencilBoundary {
        if (periodic == (values != null)) {
            throw new IllegalArgumentException(periodic ? "a periodic boundary takes no boundary values"
                    : "a Dirichlet boundary needs its values");
        }
    }

    /** Fixed values outside the interior: {@code values.at(x, y, z)} for each such cell. */
    public static StencilBoundary dirichlet(CellFunction values) {
        return new StencilBoundary(false, Objects.requireNonNull(values, "values"));
    }

    /** Every axis wraps around. */
    public static StencilBoundary periodicBoundary() {
        return new StencilBoundary(true, null);
    }

    @Override
    public String toString() {
        return periodic ? "periodic" : "dirichlet";
    }
}
