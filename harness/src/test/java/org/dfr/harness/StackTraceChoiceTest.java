package org.dfr.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Whether a rank prints a kernel exception's stack trace on its console: a pooled JVM's environment is that of
 * {@code dfr pool start}, so the run's choice comes with the claim and wins over it.
 */
class StackTraceChoiceTest {

    private static final Map<String, String> ASKED = Map.of(RankProcessMain.STACK_TRACE_VARIABLE, "1");
    private static final Map<String, String> NOT_ASKED = Map.of();

    @Test
    void when_aRankRunsWithoutALauncher_then_itPrintsTheStackTrace() {
        assertThat(RankProcessMain.printsStackTraces(0, null, NOT_ASKED)).isTrue();
        assertThat(RankProcessMain.printsStackTraces(-1, "false", NOT_ASKED)).isTrue();
    }

    @Test
    void when_aFreshRankInheritsTheLaunchersEnvironment_then_theVariableDecides() {
        assertThat(RankProcessMain.printsStackTraces(4242, null, ASKED)).isTrue();
        assertThat(RankProcessMain.printsStackTraces(4242, null, NOT_ASKED)).isFalse();
        assertThat(RankProcessMain.printsStackTraces(4242, null, Map.of(RankProcessMain.STACK_TRACE_VARIABLE, "yes")))
                .isFalse();
    }

    @Test
    void when_aPooledRanksClaimSaysOtherwiseThanThePoolsEnvironment_then_theClaimWins() {
        assertThat(RankProcessMain.printsStackTraces(4242, "false", ASKED)).isFalse();
        assertThat(RankProcessMain.printsStackTraces(4242, "true", NOT_ASKED)).isTrue();
    }

    @Test
    void when_theLauncherAsksForStackTraces_then_itsClaimCarriesIt() {
        PoolClaim asked = new PoolClaim(3, List.of("--rank", "3"), "/tmp/exit-3",
                RankProcessMain.stackTracesAsked(ASKED));
        PoolClaim notAsked = new PoolClaim(3, List.of("--rank", "3"), "/tmp/exit-3",
                RankProcessMain.stackTracesAsked(NOT_ASKED));

        assertThat(asked.stackTraces()).isTrue();
        assertThat(notAsked.stackTraces()).isFalse();
    }
}
