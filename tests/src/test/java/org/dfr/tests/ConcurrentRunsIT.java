package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.dfr.harness.Campaign;
import org.dfr.harness.Mode;
import org.dfr.harness.ProcessLauncher;
import org.dfr.harness.RunConfig;
import org.dfr.harness.RunReport;
import org.dfr.recovery.FaultPlan;
import org.dfr.runtime.ClusterSettings;
import org.dfr.runtime.kernel.KernelChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Two runs at the same time on one machine never collide: each has its own cluster name, port range,
 * data-plane token and temporary files, and both recover bit-exactly from a SIGKILL.
 */
@Isolated // starts rank processes
class ConcurrentRunsIT {

    @Test
    void when_twoProcessesRunsOverlap_then_bothRecoverBitExactly() {
        RunConfig a = RunConfig.of(KernelChoice.of("jacobi2d5"), List.of(37, 29), List.of(2, 2), 10, 4)
                .withMode(Mode.PROCESSES).withFaults(List.of(kill(1, 5)), List.of(), Set.of());
        RunConfig b = RunConfig.of(KernelChoice.of("heat1d3"), List.of(101), List.of(4), 10, 4)
                .withMode(Mode.PROCESSES).withFaults(List.of(kill(2, 6)), List.of(), Set.of());

        CompletableFuture<RunReport> first = CompletableFuture.supplyAsync(() -> launch(a));
        CompletableFuture<RunReport> second = CompletableFuture.supplyAsync(() -> launch(b));

        assertThat(first.join().fieldSha256()).isEqualTo(Campaign.referenceDigest(a));
        assertThat(second.join().fieldSha256()).isEqualTo(Campaign.referenceDigest(b));
        assertThat(first.join().recoveries()).hasSize(1);
        assertThat(second.join().recoveries()).hasSize(1);
    }

    private static RunReport launch(RunConfig config) {
        return new ProcessLauncher(new ClusterSettings()).jvmOptions(List.of("-XX:TieredStopAtLevel=1"))
                .runTimeoutMillis(150_000).run(config);
    }

    private static FaultPlan.Kill kill(int rank, int iteration) {
        return new FaultPlan.Kill(rank, iteration, FaultPlan.Point.ITERATION_START);
    }
}
