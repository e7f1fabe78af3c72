package org.dfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The deaths of ranks that share a JVM. Four ranks of one JVM, each recording what it is told:
 *
 * <pre>
 *   JVM:  rank 0   rank 1   rank 2   rank 3        (rank 9: a rank of another JVM, never registered)
 *   --fail 0@8 --fail 2@8: ranks 0 and 2 die together; 1 and 3 are told of both
 * </pre>
 */
class InJvmDeathsTest {

    private final InJvmDeaths deaths = new InJvmDeaths();
    /** "witness:dead" for every death a rank was told of, in order. */
    private final List<String> told = new CopyOnWriteArrayList<>();

    @BeforeEach
    void ranks() {
        for (int r = 0; r < 4; r++) {
            int witness = r;
            deaths.register(r, (rank, how) -> {
                assertThat(how).isEqualTo(InJvmDeaths.HOW);
                told.add(witness + ":" + rank);
            });
        }
    }

    @Test
    void when_a_rank_dies_then_every_other_rank_of_the_jvm_is_told_before_died_returns() {
        deaths.died(1);

        assertThat(told).containsExactlyInAnyOrder("0:1", "2:1", "3:1");
        assertThat(deaths.isDead(1)).isTrue();
        assertThat(deaths.isDead(0)).isFalse();
        assertThat(deaths.isDead(9)).isFalse();
    }

    @Test
    void when_ranks_die_together_then_the_first_waits_until_the_other_is_dying_and_neither_is_told_of_the_other() {
        CompletableFuture<Boolean> first = CompletableFuture.supplyAsync(() -> deaths.dyingWith(0, Set.of(2), 30_000));
        // rank 0 is dying and waits for rank 2: its death is readable, rank 2's not yet
        await().atMost(Duration.ofSeconds(10)).until(() -> deaths.isDead(0));
        assertThat(first).isNotDone();
        assertThat(deaths.isDead(2)).isFalse();

        assertThat(deaths.dyingWith(2, Set.of(0), 30_000)).isTrue();
        assertThat(first.join()).isTrue();

        deaths.died(0);
        deaths.died(2);
        // the survivors hear of both; a dying rank is told nothing
        assertThat(told).containsExactlyInAnyOrder("1:0", "3:0", "1:2", "3:2");
    }

    @Test
    void when_a_rank_of_the_same_point_never_comes_then_the_wait_ends_at_its_bound() {
        AtomicReference<Boolean> all = new AtomicReference<>();
        CompletableFuture<Void> dying = CompletableFuture.runAsync(() -> all.set(deaths.dyingWith(0, Set.of(2), 200)));

        dying.orTimeout(30, TimeUnit.SECONDS).join();
        assertThat(all.get()).isFalse();
        assertThat(deaths.isDead(0)).isTrue();
    }

    @Test
    void when_the_others_of_the_point_are_not_ranks_of_this_jvm_then_nobody_is_waited_for() {
        // rank 9 lives in another JVM, rank 3 died earlier
        deaths.died(3);

        assertThat(deaths.dyingWith(0, Set.of(9, 3), 60_000)).isTrue();
        assertThat(InJvmDeaths.none().dyingWith(0, Set.of(1, 2), 60_000)).isTrue();
    }

    @Test
    void when_a_jvm_has_one_rank_then_nobody_is_told() {
        InJvmDeaths alone = InJvmDeaths.none();
        alone.register(0, (rank, how) -> told.add("0:" + rank));

        alone.died(0);

        assertThat(told).isEmpty();
    }

    @Test
    void when_the_run_failed_then_deaths_are_told_to_nobody() {
        deaths.close();

        deaths.died(1);

        assertThat(told).isEmpty();
    }

    @Test
    void when_the_run_fails_while_a_rank_waits_for_the_others_of_its_point_then_it_dies_without_them() {
        CompletableFuture<Boolean> dying = CompletableFuture.supplyAsync(() -> deaths.dyingWith(0, Set.of(2), 600_000));
        await().atMost(Duration.ofSeconds(10)).until(() -> deaths.isDead(0));

        deaths.close();

        assertThat(dying.orTimeout(30, TimeUnit.SECONDS).join()).isFalse();
    }

    @Test
    void when_a_rank_cannot_be_told_then_the_others_still_are() {
        InJvmDeaths some = new InJvmDeaths();
        some.register(0, (rank, how) -> {
            throw new IllegalStateException("closing");
        });
        some.register(1, (rank, how) -> told.add("1:" + rank));
        some.register(2, (rank, how) -> told.add("2:" + rank));

        some.died(2);

        assertThat(told).containsExactly("1:2");
    }
}
