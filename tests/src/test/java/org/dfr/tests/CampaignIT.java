package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.dfr.harness.Campaign;
import org.dfr.harness.RunConfig;
import org.dfr.harness.Runner;
import org.dfr.runtime.kernel.KernelCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The seeded randomized campaign: at least 50 trials in CI, each drawing its kernel among every
 * installed one, every digest bit-exact.
 */
class CampaignIT {

    @Test
    @Timeout(900)
    void when_randomFailuresAreInjected_then_everyDigestEqualsTheSequentialOne() {
        List<RunConfig> bases = Campaign.everyKernel(KernelCatalog.installed(), List.of(), 12, 4);
        assertThat(bases).extracting(b -> b.kernel().name())
                .contains("jacobi2d5", "jacobi2d9", "heat3d7", "heat1d3", "graph-jacobi");
        List<Campaign.Trial> seen = new ArrayList<>();
        Campaign.Result result = new Campaign(bases, new Runner()).run(20261121L, 50, 840_000, t -> {
            seen.add(t);
            System.out.printf("trial %d %s %s %s %s %d ms %s%n", t.index(), t.kernel(), t.strategy(), t.kills(), t.outcome(),
                    t.millis(), t.detail());
        });

        assertThat(result.trials()).as("trials run within the time budget").hasSize(50);
        assertThat(result.trials()).allSatisfy(t ->
                assertThat(t.outcome()).as("trial %d %s %s: %s", t.index(), t.strategy(), t.kills(), t.detail())
                        .isIn(Campaign.Outcome.OK, Campaign.Outcome.UNRECOVERABLE));
        assertThat(result.count(Campaign.Outcome.OK)).as("trials that recovered").isGreaterThanOrEqualTo(45);
        // 50 draws among 5 kernels: all of them come up unless the draw is broken
        assertThat(seen.stream().map(Campaign.Trial::kernel).distinct().count()).as("distinct kernels drawn")
                .isEqualTo(bases.size());
    }
}
