package org.dfr.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.dfr.harness.Campaign;
import org.dfr.harness.Mode;
import org.dfr.harness.RunConfig;
import org.dfr.harness.campaign.CampaignRunner;
import org.dfr.harness.campaign.FaultKind;
import org.dfr.harness.campaign.Outcome;
import org.dfr.harness.campaign.TrialDraw;
import org.dfr.harness.campaign.TrialPlan;
import org.dfr.harness.campaign.TrialResult;
import org.dfr.runtime.kernel.KernelCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The seeded campaign as a checker, in both modes: each trial draws its kernel among every installed
 * one, its strategy, spares and 1-3 failures of every kind (start of an iteration, in the reduction,
 * after the checkpoint write, during recovery, a host, the coordinator, the reduction's root); every
 * trial must give the reference digest (or the documented "no copy" error), a report whose every
 * recovery is the analyzer's cone, within its time bound, with no rank process left.
 */
class CampaignIT {

    private static final List<RunConfig> BASES = Campaign.everyKernel(KernelCatalog.installed(), List.of(), 12, 4);

    @Test
    @Timeout(900)
    void when_randomFailuresOfEveryKindAreInjectedInEmbeddedMode_then_everyTrialPasses() {
        List<TrialPlan> plans = new TrialDraw(BASES, FaultKind.ALL, 3, true, Mode.EMBEDDED).draw(20261123L, 25);

        CampaignRunner.Result result = run(plans);

        assertThat(result.trials()).as("trials run within the time budget").hasSize(25);
        assertThat(result.trials()).allSatisfy(CampaignIT::passes);
        assertThat(result.count(Outcome.OK)).as("trials that recovered").isGreaterThanOrEqualTo(22);
        // 25 draws among 5 kernels and 7 kinds: (nearly) all come up unless the draw is broken
        assertThat(result.trials().stream().map(t -> t.plan().config().kernel().name()).distinct().count())
                .isEqualTo(BASES.size());
        assertThat(result.trials().stream().flatMap(t -> t.plan().kinds().stream()).distinct().count())
                .isGreaterThanOrEqualTo(5);
    }

    @Test
    @Timeout(600)
    void when_randomFailuresAreInjectedAsSigkills_then_everyTrialPassesAndNoRankProcessIsLeft() {
        List<TrialPlan> plans = new TrialDraw(BASES, FaultKind.ALL, 2, true, Mode.PROCESSES).draw(7L, 2);

        CampaignRunner.Result result = run(plans);

        assertThat(result.trials()).hasSize(2).allSatisfy(CampaignIT::passes);
    }

    private static CampaignRunner.Result run(List<TrialPlan> plans) {
        List<TrialResult> seen = new ArrayList<>();
        return new CampaignRunner(180_000, "dfr campaign (CampaignIT)", List.of("-XX:TieredStopAtLevel=1"))
                .run(plans, 840_000, t -> {
                    seen.add(t);
                    System.out.printf("trial %d %s %s %d ms %s %s%n", t.plan().index(), t.outcome(), t.plan().describe(),
                            t.millis(), t.detail(), t.violations());
                });
    }

    private static void passes(TrialResult t) {
        assertThat(t.outcome()).as("trial %d %s: %s %s", t.plan().index(), t.plan().describe(), t.detail(),
                t.violations()).isIn(Outcome.OK, Outcome.UNRECOVERABLE);
    }
}
