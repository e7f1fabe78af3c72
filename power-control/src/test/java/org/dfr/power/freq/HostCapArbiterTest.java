package org.dfr.power.freq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.dfr.power.sysfs.FakeSysfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostCapArbiterTest {

    private static final String MAX0 = FakeSysfs.POLICIES + "/policy0/scaling_max_freq";
    private static final String MAX1 = FakeSysfs.POLICIES + "/policy1/scaling_max_freq";

    @TempDir
    Path tmp;

    private FakeSysfs fake;
    private RestoreJournal journal;

    private HostCapArbiter arbiter(Set<Integer> ranks) {
        fake = FakeSysfs.acpiCpufreq(tmp.resolve("root"), 2);
        journal = new RestoreJournal(tmp.resolve("journal.json"));
        return new HostCapArbiter(ranks, FrequencyControllers.probe(fake.sysfs(), journal));
    }

    @Test
    void when_one_rank_is_still_busy_then_the_host_is_not_capped() {
        HostCapArbiter arbiter = arbiter(Set.of(0, 1));

        boolean capped = arbiter.rankIdle(0);

        assertThat(capped).isFalse();
        assertThat(fake.readLong(MAX0)).isEqualTo(2_600_000);
        assertThat(fake.fs().writeLog()).isEmpty();
        assertThat(journal.exists()).isFalse();
    }

    @Test
    void when_every_rank_is_idle_then_the_host_is_capped() {
        HostCapArbiter arbiter = arbiter(Set.of(0, 1));

        arbiter.rankIdle(0);
        boolean capped = arbiter.rankIdle(1);

        assertThat(capped).isTrue();
        assertThat(fake.readLong(MAX0)).isEqualTo(1_200_000);
        assertThat(fake.readLong(MAX1)).isEqualTo(1_200_000);
        assertThat(arbiter.capEvents()).isEqualTo(1);
    }

    @Test
    void when_the_first_rank_has_work_again_then_the_cap_is_lifted_before_it_returns() {
        HostCapArbiter arbiter = arbiter(Set.of(0, 1));
        arbiter.rankIdle(0);
        arbiter.rankIdle(1);

        arbiter.rankBusy(1);

        assertThat(fake.readLong(MAX0)).isEqualTo(2_600_000);
        assertThat(fake.readLong(MAX1)).isEqualTo(2_600_000);
        assertThat(fake.readLong(FakeSysfs.POLICIES + "/policy0/scaling_min_freq")).isEqualTo(1_600_000);
        assertThat(arbiter.isCapped()).isFalse();
        assertThat(arbiter.liftEvents()).isEqualTo(1);
        assertThat(journal.exists()).isFalse();
        // the second busy rank finds the host uncapped and writes nothing
        int writes = fake.fs().writeLog().size();
        arbiter.rankBusy(0);
        assertThat(fake.fs().writeLog()).hasSize(writes);
    }

    @Test
    void when_a_respawned_rank_replaces_a_dead_one_then_it_counts_in_its_place_and_lifts_the_cap() {
        // host of ranks 2 and 3; 3 dies, rank 11 is started in its place (8 members)
        HostCapArbiter arbiter = arbiter(Set.of(2, 3));
        arbiter.rankIdle(2);
        arbiter.rankIdle(3);
        assertThat(fake.readLong(MAX0)).isEqualTo(1_200_000);

        arbiter.replaceRank(3, 11);

        // the fresh rank is busy: the cap is lifted at once, and the host caps again only when it idles
        assertThat(fake.readLong(MAX0)).isEqualTo(2_600_000);
        assertThat(arbiter.ranks()).containsExactly(2, 11);
        assertThat(arbiter.rankIdle(2)).isFalse();
        assertThat(arbiter.rankIdle(11)).isTrue();
        assertThatThrownBy(() -> arbiter.rankIdle(3)).isInstanceOf(IllegalArgumentException.class);
    }

    /*
     *   host of ranks 0 and 1:   rank 1 SIGKILLed (never says idle)   rank 0 outside the cone, idle
     *   before: idle {0} of {0, 1}: never capped while rank 0 waited (2x4, --fail 1@12, m = 1)
     */
    @Test
    void when_a_rank_of_the_host_died_then_its_live_rank_going_idle_caps_the_host() {
        HostCapArbiter deathFirst = arbiter(Set.of(0, 1));
        assertThat(deathFirst.rankGone(1)).as("rank 0 still computes").isFalse();
        assertThat(fake.readLong(MAX0)).isEqualTo(2_600_000);
        assertThat(deathFirst.rankIdle(0)).isTrue();
        assertThat(fake.readLong(MAX0)).isEqualTo(1_200_000);
        deathFirst.rankBusy(0);
        assertThat(fake.readLong(MAX0)).isEqualTo(2_600_000);
        // the next recovery: the dead rank still counts as idle
        assertThat(deathFirst.rankIdle(0)).isTrue();
    }

    @Test
    void when_a_death_is_told_after_the_live_rank_went_idle_then_the_host_is_capped_once() {
        HostCapArbiter idleFirst = arbiter(Set.of(0, 1));
        assertThat(idleFirst.rankIdle(0)).isFalse();
        assertThat(idleFirst.rankGone(1)).as("the death told after rank 0 went idle").isTrue();
        assertThat(idleFirst.capEvents()).isEqualTo(1);
        assertThat(idleFirst.rankGone(1)).as("told again by another survivor: no second cap").isTrue();
        assertThat(idleFirst.capEvents()).isEqualTo(1);
    }

    @Test
    void when_every_rank_of_the_host_died_then_it_is_not_capped() {
        HostCapArbiter arbiter = arbiter(Set.of(0, 1));

        arbiter.rankGone(0);
        boolean capped = arbiter.rankGone(1);

        assertThat(capped).isFalse();
        assertThat(fake.readLong(MAX0)).isEqualTo(2_600_000);
        assertThat(fake.fs().writeLog()).isEmpty();
    }

    @Test
    void when_a_rank_is_not_on_the_host_then_it_is_rejected() {
        HostCapArbiter arbiter = arbiter(Set.of(2, 3));

        assertThatThrownBy(() -> arbiter.rankIdle(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rank 0").hasMessageContaining("[2, 3]");
    }

    @Test
    void when_capped_for_a_while_then_the_capped_time_follows_the_ticker() {
        fake = FakeSysfs.acpiCpufreq(tmp.resolve("root"), 1);
        AtomicLong now = new AtomicLong();
        List<String> events = new ArrayList<>();
        HostCapArbiter arbiter = new HostCapArbiter(Set.of(0),
                FrequencyControllers.probe(fake.sysfs(), new RestoreJournal(tmp.resolve("j.json"))), now::get,
                new HostCapArbiter.Listener() {
                    @Override
                    public void capped(CapOutcome outcome) {
                        events.add("capped");
                    }

                    @Override
                    public void lifted(RestoreOutcome outcome) {
                        events.add("lifted");
                    }
                });

        now.set(1_000);
        arbiter.rankIdle(0);
        now.set(5_000);
        arbiter.rankBusy(0);
        now.set(9_000);
        arbiter.rankIdle(0);
        now.set(10_000);

        assertThat(arbiter.cappedNanos()).isEqualTo(4_000 + 1_000);
        assertThat(events).containsExactly("capped", "lifted", "capped");
        arbiter.close();
        assertThat(fake.readLong(FakeSysfs.POLICIES + "/policy0/scaling_max_freq")).isEqualTo(2_600_000);
    }

    @Test
    void when_the_machine_cannot_be_capped_then_idle_ranks_change_nothing() {
        HostCapArbiter arbiter = new HostCapArbiter(Set.of(0, 1), NoOpFrequencyController.because("no cpufreq"));

        arbiter.rankIdle(0);
        arbiter.rankIdle(1);

        assertThat(arbiter.isCapped()).isFalse();
        assertThat(arbiter.capEvents()).isZero();
        assertThat(arbiter.idleRanks()).containsExactly(0, 1);
    }

    @Test
    void when_ranks_toggle_concurrently_then_no_rank_ever_sees_a_capped_host_after_rank_busy() throws Exception {
        RecordingController controller = new RecordingController();
        int ranks = 4;
        HostCapArbiter arbiter = new HostCapArbiter(Set.of(0, 1, 2, 3), controller);
        ExecutorService pool = Executors.newFixedThreadPool(ranks);
        List<Future<Integer>> violations = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            int rank = r;
            violations.add(pool.submit(() -> {
                int seen = 0;
                for (int i = 0; i < 2_000; i++) {
                    arbiter.rankBusy(rank);
                    // this rank is busy until it says otherwise: nobody may cap the host meanwhile
                    if (controller.isCapped()) {
                        seen++;
                    }
                    arbiter.rankIdle(rank);
                }
                return seen;
            }));
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        for (Future<Integer> v : violations) {
            assertThat(v.get()).isZero();
        }
        // everyone ended idle: capped exactly once more than lifted
        assertThat(arbiter.isCapped()).isTrue();
        assertThat(controller.isCapped()).isTrue();
        assertThat(arbiter.capEvents() - arbiter.liftEvents()).isEqualTo(1);
        assertThat(controller.caps.get()).isEqualTo(arbiter.capEvents());
    }

    /** A controller that only tracks its state, to test arbitration without files. */
    private static final class RecordingController implements FrequencyController {
        private volatile boolean capped;
        private final AtomicLong caps = new AtomicLong();

        @Override
        public FrequencyCapabilities capabilities() {
            return new FrequencyCapabilities("", true, "", "policy", List.of(), List.of(), null);
        }

        @Override
        public boolean canCap() {
            return true;
        }

        @Override
        public CapOutcome capToMinimum() {
            if (capped) {
                throw new AssertionError("capped twice");
            }
            capped = true;
            caps.incrementAndGet();
            return new CapOutcome(true, List.of(), "capped");
        }

        @Override
        public RestoreOutcome restore() {
            capped = false;
            return new RestoreOutcome(true, List.of(), "restored");
        }

        @Override
        public RestoreOutcome restoreLeftoverJournal() {
            return restore();
        }

        @Override
        public boolean isCapped() {
            return capped;
        }
    }
}
