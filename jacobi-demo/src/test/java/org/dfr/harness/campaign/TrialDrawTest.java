package org.dfr.harness.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.assertj.core.api.Assertions;
import org.dfr.harness.Campaign;
import org.dfr.harness.Mode;
import org.dfr.harness.Replacement;
import org.dfr.harness.RunConfig;
import org.dfr.recovery.FaultPlan;
import org.dfr.runtime.Checkpointing;
import org.dfr.runtime.kernel.KernelCatalog;
import org.junit.jupiter.api.Test;

class TrialDrawTest {

    private static final List<RunConfig> BASES = Campaign.everyKernel(KernelCatalog.installed(), List.of(), 12, 4);

    @Test
    void when_sameSeedIsDrawnTwice_then_theTrialsAreTheSame() {
        TrialDraw draw = new TrialDraw(BASES, FaultKind.ALL, 3, true, Mode.EMBEDDED);

        List<TrialPlan> first = draw.draw(42, 200);
        List<TrialPlan> again = draw.draw(42, 200);
        List<TrialPlan> other = draw.draw(43, 200);

        assertThat(again).isEqualTo(first);
        assertThat(other).isNotEqualTo(first);
        // a replay of trial 17 draws the 18 first trials and keeps the last: the same trial
        assertThat(draw.draw(42, 18).get(17)).isEqualTo(first.get(17));
    }

    @Test
    void when_everyKindIsAllowed_then_everyKindAndKernelIsDrawnAndPlansAreValid() {
        List<TrialPlan> plans = new TrialDraw(BASES, FaultKind.ALL, 3, true, Mode.EMBEDDED).draw(7, 400);

        assertThat(plans.stream().flatMap(p -> p.kinds().stream()).collect(Collectors.toSet()))
                .containsExactlyInAnyOrderElementsOf(FaultKind.ALL);
        assertThat(plans.stream().flatMap(p -> p.config().kills().stream()))
                .anyMatch(k -> k.point() == FaultPlan.Point.AFTER_CHECKPOINT_WRITE && k.iteration() == 0)
                .anyMatch(k -> k.point() == FaultPlan.Point.AFTER_CHECKPOINT_WRITE && k.iteration() > 0);
        assertThat(plans.stream().map(p -> p.config().kernel().name()).collect(Collectors.toSet()))
                .hasSize(BASES.size());
        assertThat(plans).anyMatch(p -> p.config().spares() == 1).anyMatch(p -> p.config().spares() == 0);
        for (TrialPlan p : plans) {
            RunConfig c = p.config();
            int members = c.runSpec().memberCount();
            assertThat(p.kinds()).hasSizeBetween(1, 3);
            for (FaultPlan.Kill k : c.kills()) {
                assertThat(k.rank()).isBetween(0, members - 1);
                if (k.point() != FaultPlan.Point.DURING_AGREEMENT) {
                    // a spare runs no iteration until it adopts: a kill at an iteration could never fire
                    assertThat(k.rank()).as(p.describe()).isLessThan(c.partitionCount());
                }
                if (k.point() == FaultPlan.Point.AFTER_CHECKPOINT_WRITE) {
                    // checkpoint 0 included: before the first iteration, nothing committed yet
                    assertThat(k.iteration() % c.checkpointEvery()).as(p.describe()).isZero();
                    assertThat(k.iteration()).isBetween(0, c.iterations() - 1);
                } else {
                    assertThat(k.iteration()).isBetween(1, c.iterations());
                }
            }
            // nobody dies twice, and somebody survives
            Set<Integer> victims = c.faultPlan().ranks();
            assertThat(victims.size()).as(p.describe()).isLessThan(members);
            assertThat(c.kills().stream().map(FaultPlan.Kill::rank).distinct().count()).isEqualTo(c.kills().size());
        }
    }

    @Test
    void when_theNewKindsAreDrawn_then_pausesAreShorterThanTheHeartbeatTimeoutAndAgreementDeathsFollowADeath() {
        long heartbeat = 6_000;
        List<TrialPlan> plans = new TrialDraw(BASES, FaultKind.ALL, 3, true, Mode.EMBEDDED)
                .heartbeatTimeoutMillis(heartbeat).capping(true).endOfRunDeaths(true).draw(11, 400);

        Map<FaultPlan.Point, Long> points = plans.stream().flatMap(p -> p.config().kills().stream())
                .collect(Collectors.groupingBy(FaultPlan.Kill::point, Collectors.counting()));
        assertThat(points).containsKeys(FaultPlan.Point.values());
        assertThat(plans).anyMatch(p -> p.kinds().equals(List.of(FaultKind.PAUSE)))
                .anyMatch(p -> p.config().capIdleHosts()).anyMatch(p -> !p.config().capIdleHosts())
                .anyMatch(p -> p.config().kills().stream()
                        .anyMatch(k -> k.point() == FaultPlan.Point.DURING_AGREEMENT && k.rank() == 0));
        for (TrialPlan p : plans) {
            RunConfig c = p.config();
            Set<Integer> victims = c.faultPlan().ranks();
            for (FaultPlan.Kill k : c.kills()) {
                switch (k.point()) {
                    case PAUSE -> {
                        assertThat(k.pauseMillis()).as(p.describe()).isBetween(heartbeat / 5, heartbeat / 2);
                        assertThat(victims).as(p.describe()).doesNotContain(k.rank());
                        assertThat(k.rank()).isLessThan(c.partitionCount());
                    }
                    case DURING_AGREEMENT -> {
                        // armed at the earliest planned death, which it needs to be part of a recovery (a death
                        // writing checkpoint 0 is recovered before iteration 1)
                        int earliest = c.kills().stream().filter(x -> x.point() != FaultPlan.Point.PAUSE
                                        && x.point() != FaultPlan.Point.DURING_AGREEMENT)
                                .mapToInt(x -> Math.max(1, x.iteration())).min().orElse(Integer.MAX_VALUE);
                        earliest = Math.min(earliest, c.hostFailures().stream().mapToInt(FaultPlan.Kill::iteration)
                                .min().orElse(Integer.MAX_VALUE));
                        assertThat(k.iteration()).as(p.describe()).isEqualTo(earliest);
                    }
                    case DURING_HALO_EXCHANGE -> assertThat(k.rank()).isLessThan(c.partitionCount());
                    default -> assertThat(k.pauseMillis()).isZero();
                }
            }
        }
        assertThat(new TrialDraw(BASES, FaultKind.ALL, 3, true, Mode.EMBEDDED).draw(11, 200))
                .as("capping only when asked for").noneMatch(p -> p.config().capIdleHosts());
    }

    @Test
    void when_trialsAreDrawn_then_eachReplacementFitsItsSparesAndModeAndRespawnOnlyInProcessesMode() {
        List<TrialPlan> processes = new TrialDraw(BASES, FaultKind.ALL, 3, true, Mode.PROCESSES).draw(21, 200);
        List<TrialPlan> embedded = new TrialDraw(BASES, FaultKind.ALL, 3, true, Mode.EMBEDDED).draw(21, 200);

        assertThat(processes.stream().map(TrialPlan::replacement).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder(Replacement.values());
        assertThat(embedded.stream().map(TrialPlan::replacement).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder(Replacement.SPARE, Replacement.ADOPT);
        for (TrialPlan p : concat(processes, embedded)) {
            assertThat(p.replacement()).as(p.describe())
                    .isEqualTo(p.config().spares() > 0 ? Replacement.SPARE : p.replacement() == Replacement.RESPAWN
                            ? Replacement.RESPAWN : Replacement.ADOPT);
            assertThat(p.replacement().problem(p.config().spares(), p.config().mode(), false)).as(p.describe()).isNull();
            assertThat(p.describe()).contains(" " + p.replacement().optionValue());
        }
        // about half the processes trials without a spare respawn
        long withoutSpare = processes.stream().filter(p -> p.config().spares() == 0).count();
        long respawned = processes.stream().filter(p -> p.replacement() == Replacement.RESPAWN).count();
        assertThat(respawned).isBetween(withoutSpare / 4, withoutSpare * 3 / 4);
        // the replacement is part of the trial: a replay draws the same one
        assertThat(new TrialDraw(BASES, FaultKind.ALL, 3, true, Mode.PROCESSES).draw(21, 60).get(59))
                .isEqualTo(processes.get(59));
    }

    @Test
    void when_trialsAreDrawn_then_aboutAQuarterCommitWithAnotherLagInsideTheInterval() {
        List<TrialPlan> plans = new TrialDraw(BASES, FaultKind.ALL, 3, true, Mode.EMBEDDED).draw(31, 400);

        List<TrialPlan> lagged = plans.stream().filter(p -> p.config().commitLagIterations() != null).toList();
        assertThat(lagged.size()).isBetween(400 / 8, 400 * 3 / 8);
        for (TrialPlan p : lagged) {
            int lag = p.config().commitLagIterations();
            assertThat(lag).as(p.describe()).isBetween(0, p.config().checkpointEvery() - 1)
                    .isNotEqualTo(Checkpointing.lagFor(p.config().checkpointEvery()));
            assertThat(p.describe()).contains(" lag" + lag);
            assertThat(p.config().runSpec().commitLagFor(p.config().checkpointEvery())).isEqualTo(lag);
        }
        assertThat(lagged.stream().map(p -> p.config().commitLagIterations()).collect(Collectors.toSet()))
                .as("more than one lag").hasSizeGreaterThan(1);
        // a replay draws the same lag
        TrialPlan first = lagged.get(0);
        assertThat(new TrialDraw(BASES, FaultKind.ALL, 3, true, Mode.EMBEDDED).draw(31, first.index() + 1)
                .get(first.index())).isEqualTo(first);
    }

    @Test
    void when_aReplacementDoesNotFitTheTrial_then_thePlanIsRefused() {
        TrialPlan embedded = new TrialDraw(BASES, FaultKind.CLASSIC, 1, false, Mode.EMBEDDED).draw(1, 1).get(0);

        assertThat(embedded.replacement()).isEqualTo(Replacement.ADOPT);
        assertThat(Assertions.catchThrowable(() -> embedded.withReplacement(Replacement.RESPAWN)))
                .hasMessageContaining("--replacement respawn needs --mode processes");
        assertThat(Assertions.catchThrowable(() -> embedded.withReplacement(Replacement.SPARE)))
                .hasMessageContaining("--replacement spare needs spare ranks");
        assertThat(embedded.withReplacement(Replacement.ADOPT)).isEqualTo(embedded);
    }

    private static List<TrialPlan> concat(List<TrialPlan> a, List<TrialPlan> b) {
        return Stream.concat(a.stream(), b.stream()).toList();
    }

    @Test
    void when_endOfRunDeathsAreOn_then_someTrialsAlsoKillARankOtherThanTheRootAtTheEnd_andNothingElseChanges() {
        List<TrialPlan> without = new TrialDraw(BASES, FaultKind.ALL, 3, true, Mode.PROCESSES).draw(11, 400);
        List<TrialPlan> with = new TrialDraw(BASES, FaultKind.ALL, 3, true, Mode.PROCESSES).endOfRunDeaths(true)
                .draw(11, 400);

        // one trial in END_OF_RUN_ONE_IN draws it; fewer keep it: not where rank 0 or the victim dies otherwise
        List<TrialPlan> atEnd = with.stream().filter(p -> p.kinds().contains(FaultKind.AT_RUN_END)).toList();
        assertThat(atEnd.size()).isBetween(10, 400 / TrialDraw.END_OF_RUN_ONE_IN);
        // with respawn too: the fresh rank must find the run over and leave (RespawnIT)
        assertThat(atEnd).anyMatch(p -> p.replacement() == Replacement.RESPAWN);
        for (int i = 0; i < with.size(); i++) {
            TrialPlan p = with.get(i);
            RunConfig c = p.config();
            List<FaultPlan.Kill> endKills = c.kills().stream()
                    .filter(k -> k.point() == FaultPlan.Point.AFTER_END_NOTICES).toList();
            assertThat(endKills).as(p.describe()).hasSize(p.kinds().contains(FaultKind.AT_RUN_END) ? 1 : 0);
            List<FaultPlan.Kill> others = c.kills().stream()
                    .filter(k -> k.point() != FaultPlan.Point.AFTER_END_NOTICES).toList();
            // the other draws are those of the same trial without end-of-run deaths
            assertThat(others).as(p.describe()).isEqualTo(without.get(i).config().kills());
            assertThat(c.hostFailures()).isEqualTo(without.get(i).config().hostFailures());
            assertThat(p.replacement()).isEqualTo(without.get(i).replacement());
            for (FaultPlan.Kill k : endKills) {
                assertThat(k.rank()).as(p.describe()).isBetween(1, c.partitionCount() - 1);
                assertThat(k.iteration()).isEqualTo(c.iterations());
                Set<Integer> otherVictims = without.get(i).config().faultPlan().ranks();
                assertThat(otherVictims).as("rank 0 roots the run to its end").doesNotContain(0, k.rank());
                assertThat(otherVictims.size() + 1).isLessThan(c.runSpec().memberCount());
                assertThat(others).noneMatch(o -> o.rank() == k.rank());
                assertThat(p.describe()).contains(k.rank() + "@" + k.iteration() + "/after_end_notices");
            }
        }
    }

    @Test
    void when_onlyPausesAreDrawn_then_nobodyIsKilled() {
        List<TrialPlan> plans = new TrialDraw(BASES, List.of(FaultKind.PAUSE), 3, false, Mode.PROCESSES).draw(5, 50);

        assertThat(plans).allSatisfy(p -> {
            assertThat(p.config().faultPlan().ranks()).isEmpty();
            assertThat(p.config().kills()).isNotEmpty().allMatch(k -> k.point() == FaultPlan.Point.PAUSE);
            assertThat(p.describe()).contains("/pause");
        });
    }

    @Test
    void when_classicKindsOnly_then_onlyDeathsAtTheStartOfAnIteration() {
        List<TrialPlan> plans = new TrialDraw(BASES, FaultKind.CLASSIC, 2, false, Mode.EMBEDDED).draw(1, 100);

        assertThat(plans).allSatisfy(p -> {
            assertThat(p.config().kills()).allMatch(k -> k.point() == FaultPlan.Point.ITERATION_START);
            assertThat(p.config().hostFailures()).isEmpty();
            assertThat(p.config().failDuringRecovery()).isEmpty();
            assertThat(p.config().spares()).isZero();
        });
    }
}
