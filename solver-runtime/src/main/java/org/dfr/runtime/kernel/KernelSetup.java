package org.dfr.runtime.kernel;

import java.util.function.IntFunction;
import org.dfr.analysis.PartitionDependencies;
import org.dfr.runtime.PartitionKernel;

/**
 * A kernel built for one problem: the partitioned kernel the runtime runs, its declared dependencies,
 * the sequential whole-domain reference, and the field digest.
 */
public interface KernelSetup {

    /** The partitioned kernel; its {@link PartitionKernel#dependencies()} are what recovery cones come from. */
    PartitionKernel kernel();

    /** The kernel's declared partition dependencies. */
    default PartitionDependencies dependencies() {
        return kernel().dependencies();
    }

    /** A fresh sequential computation of the whole domain at iteration 0. */
    ReferenceSolver reference();

    /**
     * The field digest of the state the partitions hold: SHA-256 (lowercase hex) of the interior as
     * little-endian IEEE-754 doubles in the kernel's documented order. Equals
     * {@link ReferenceSolver#digest()} after the same number of iterations.
     *
     * @param states the state buffer of each partition, in the kernel's layout
     * @throws IllegalArgumentException if a buffer is missing or has the wrong length
     */
    String digest(IntFunction<double[]> states);

    /** Cells (or vertices) updated per iteration over the whole domain. */
    long cellCount();
}
