package org.dfr.power.meter;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.dfr.power.sysfs.FakeSysfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PowerMeterSelectorTest {

    @TempDir
    Path tmp;

    @Test
    void when_nothing_is_available_and_no_model_is_configured_then_the_source_is_none_with_reasons() throws Exception {
        FakeSysfs fake = FakeSysfs.withoutCpufreq(tmp, 2);

        MeterSelection selection = new PowerMeterSelector(fake.sysfs()).select();

        assertThat(selection.source()).isEqualTo(EnergySource.NONE);
        assertThat(selection.meter().readEnergyJoules()).isEmpty();
        assertThat(selection.verdicts()).extracting(MeterVerdict::source)
                .containsExactly(EnergySource.RAPL, EnergySource.PERF, EnergySource.MODEL, EnergySource.NONE);
        assertThat(selection.verdicts().get(0).reason()).startsWith("no powercap");
        assertThat(selection.verdicts().get(1).reason()).contains("energy-pkg does not exist");
        assertThat(selection.verdicts().get(2).reason()).contains("no model constants");
        assertThat(selection.verdicts()).filteredOn(MeterVerdict::chosen).singleElement()
                .extracting(MeterVerdict::source).isEqualTo(EnergySource.NONE);
    }

    @Test
    void when_only_the_model_is_configured_then_the_model_is_chosen() {
        FakeSysfs fake = FakeSysfs.withoutCpufreq(tmp, 2);

        MeterSelection selection = new PowerMeterSelector(fake.sysfs()).model(new PowerModel(40, 120))
                .cpuLoad(() -> () -> 0.25).select();

        assertThat(selection.source()).isEqualTo(EnergySource.MODEL);
        assertThat(selection.meter()).isInstanceOf(LoadModelPowerMeter.class);
    }

    @Test
    void when_rapl_exists_then_it_wins_over_a_configured_model() {
        FakeSysfs fake = FakeSysfs.withoutCpufreq(tmp, 2).withRapl(1, 1_000_000, false);

        MeterSelection selection = new PowerMeterSelector(fake.sysfs()).model(new PowerModel(40, 120))
                .cpuLoad(() -> () -> 0.25).select();

        assertThat(selection.source()).isEqualTo(EnergySource.RAPL);
        assertThat(selection.verdicts().get(2).available()).isTrue();
        assertThat(selection.verdicts().get(2).chosen()).isFalse();
    }

    @Test
    void when_the_perf_event_exists_but_perf_is_not_installed_then_the_verdict_says_so() {
        FakeSysfs fake = FakeSysfs.withoutCpufreq(tmp, 2).withPerfEvent();

        MeterSelection selection = new PowerMeterSelector(fake.sysfs()).perfExecutable(Optional.empty()).select();

        assertThat(selection.source()).isEqualTo(EnergySource.NONE);
        assertThat(selection.verdicts().get(1).reason()).contains("no perf executable");
    }
}
