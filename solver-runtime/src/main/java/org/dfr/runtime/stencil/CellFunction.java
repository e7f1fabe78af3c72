package org.dfr.runtime.stencil;

/**
 * A value per cell, given by global 1-based coordinates {@code (x, y, z)}; axes the problem does not use
 * pass 1. Used for initial values and Dirichlet boundary values. Must be pure (same value for the same
 * coordinates, every time, on every machine).
 */
@FunctionalInterface
public interface CellFunction {

    /** The value at global cell {@code (x, y, z)}. */
    double at(int x, int y, int z);
}
