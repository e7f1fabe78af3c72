package org.dfr.harness;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.dfr.recovery.Strategy;
import org.dfr.runtime.RunSpec;
import org.dfr.runtime.kernel.KernelCatalog;
import org.dfr.runtime.kernel.KernelChoice;
import org.dfr.runtime.kernel.KernelProvider;
import org.dfr.runtime.kernel.ReferenceSolver;

/**
 * What campaigns and tests vary and compare against: the small runs of every installed kernel (odd sizes
 * whose blocks split unevenly, 8 partitions shaped like the kernel's axes) and the digest of a run's
 * sequential reference. The campaign itself is {@code org.dfr.harness.campaign}.
 */
public final class Campaign {

    private Campaign() {
    }

    /** Small odd cells per axis count whose blocks split unevenly: 101, 37x29, 9x7x6. */
    public static List<Integer> smallCells(int axes) {
        return switch (axes) {
            case 1 -> List.of(101);
            case 2 -> List.of(37, 29);
            default -> List.of(9, 7, 6);
        };
    }

    /** 8 partitions shaped like {@code axes}: 8, 2x4, 2x2x2. */
    public static List<Integer> eightPartitions(int axes) {
        return switch (axes) {
            case 1 -> List.of(8);
            case 2 -> List.of(2, 4);
            default -> List.of(2, 2, 2);
        };
    }

    /**
     * One base run per installed kernel (of {@code catalog}), with its default options, small cells and
     * 8 partitions shaped like its axes: a campaign over them draws a kernel per trial.
     */
    public static List<RunConfig> everyKernel(KernelCatalog catalog, List<Path> jars,
                                              int iterations, int checkpointEvery) {
        List<RunConfig> out = new ArrayList<>();
        for (KernelProvider p : catalog.providers()) {
            KernelChoice choice = KernelChoice.of(p.name());
            out.add(new RunConfig(choice, jars, smallCells(p.dimensions()), eightPartitions(p.dimensions()), iterations,
                    RunSpec.NO_TOLERANCE, checkpointEvery, Mode.EMBEDDED,
                    RunSpec.DEFAULT_RANKS_PER_HOST, 0, Strategy.DFR, List.of(), List.of(), Set.of(),
                    false, null, null, null));
        }
        return out;
    }

    /** The digest of the sequential reference after the run's iterations (or until it converges). */
    /**
     * The sequential reference's digest after exactly {@code iterations} iterations: what a run that stopped there
     * must end with. With {@code --tolerance} the reference's own stop can differ by an iteration from a run's (the
     * residual's last bits depend on the order of its sum), so a run is compared at the iteration it stopped.
     */
    public static String referenceDigest(RunConfig config, int iterations) {
        ReferenceSolver reference = config.kernelSetup().reference();
        for (int i = 1; i <= iterations; i++) {
            reference.iterate();
        }
        return reference.digest();
    }

    public static String referenceDigest(RunConfig config) {
        ReferenceSolver reference = config.kernelSetup().reference();
        for (int i = 1; i <= config.iterations(); i++) {
            double residual = reference.iterate();
            if (config.runSpec().converged(residual)) {
                break;
            }
        }
        return reference.digest();
    }

}
