package org.dfr.power.energy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicLong;
import org.dfr.power.meter.EnergySource;
import org.junit.jupiter.api.Test;

class EnergyAccountTest {

    private static final long S = 1_000_000_000L;

    @Test
    void when_a_phase_changes_inside_an_interval_then_energy_is_split_by_time() {
        AtomicLong now = new AtomicLong(0);
        PhaseRecorder phases = new PhaseRecorder(now::get);
        phases.mark(Phase.COMPUTE);
        now.set(3 * S);
        phases.mark(Phase.CAPPED);
        EnergyAccount account = new EnergyAccount("h", EnergySource.RAPL, phases);

        account.add(1 * S, 5 * S, OptionalDouble.of(8.0));
        account.add(5 * S, 6 * S, OptionalDouble.of(1.0));
        HostEnergy energy = account.summary();

        assertThat(energy.phases()).containsOnlyKeys("compute", "capped");
        assertThat(energy.phases().get("compute").seconds()).isCloseTo(2.0, within(1e-12));
        assertThat(energy.phases().get("compute").joules()).isCloseTo(4.0, within(1e-12));
        assertThat(energy.phases().get("capped").joules()).isCloseTo(4.0 + 1.0, within(1e-12));
        assertThat(energy.phases().get("capped").meanWatts()).isCloseTo(5.0 / 3.0, within(1e-12));
        assertThat(energy.joules()).isCloseTo(9.0, within(1e-12));
        assertThat(energy.meanWatts()).isCloseTo(9.0 / 5.0, within(1e-12));
    }

    @Test
    void when_the_source_is_none_then_time_is_counted_and_energy_is_null() {
        AtomicLong now = new AtomicLong(0);
        PhaseRecorder phases = new PhaseRecorder(now::get);
        EnergyAccount account = new EnergyAccount("h", EnergySource.NONE, phases);

        account.add(0, 2 * S, OptionalDouble.empty());
        HostEnergy energy = account.summary();

        assertThat(energy.seconds()).isCloseTo(2.0, within(1e-12));
        assertThat(energy.joules()).isNull();
        assertThat(energy.meanWatts()).isNull();
        assertThat(energy.missedIntervals()).isZero();
        assertThat(energy.phases().get("unmarked").joules()).isNull();
    }

    @Test
    void when_a_reading_failed_then_its_time_counts_but_not_in_mean_power() {
        PhaseRecorder phases = new PhaseRecorder(() -> 0L);
        EnergyAccount account = new EnergyAccount("h", EnergySource.RAPL, phases);

        account.add(0, S, OptionalDouble.of(10.0));
        account.add(S, 2 * S, OptionalDouble.empty());
        HostEnergy energy = account.summary();

        assertThat(energy.seconds()).isCloseTo(2.0, within(1e-12));
        assertThat(energy.missedIntervals()).isEqualTo(1);
        assertThat(energy.meanWatts()).isCloseTo(10.0, within(1e-12));
    }
}
