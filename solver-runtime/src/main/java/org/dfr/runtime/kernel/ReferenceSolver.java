package org.dfr.runtime.kernel;

/**
 * The plain sequential computation of a kernel's whole domain: the reference every distributed run
 * must reproduce bit for bit. Not thread-safe; one instance is one run.
 */
public interface ReferenceSolver {

    /** Performs one iteration and returns its global residual (sum of {@code (new - old)^2}). */
    double iterate();

    /** SHA-256 (lowercase hex) of the current interior, in the kernel's documented order. */
    String digest();
}
