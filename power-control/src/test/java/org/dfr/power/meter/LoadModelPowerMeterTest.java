package org.dfr.power.meter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.dfr.power.freq.FrequencyControllers;
import org.dfr.power.freq.RestoreJournal;
import org.dfr.power.sysfs.FakeSysfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadModelPowerMeterTest {

    @TempDir
    Path tmp;

    @Test
    void when_load_and_frequency_are_known_then_energy_follows_the_formula() throws Exception {
        FakeSysfs fake = FakeSysfs.acpiCpufreq(tmp.resolve("root"), 2);
        AtomicLong now = new AtomicLong(5_000_000_000L);
        PowerModel model = new PowerModel(40, 120);
        LoadModelPowerMeter meter = new LoadModelPowerMeter(model, () -> 0.5,
                SysfsFrequencyRatio.probe(fake.sysfs()), now::get);

        now.addAndGet(2_000_000_000L);
        double first = meter.readEnergyJoules().getAsDouble();
        // capping drags scaling_cur_freq to 1.2 GHz of 2.6 GHz
        FrequencyControllers.probe(fake.sysfs(), new RestoreJournal(tmp.resolve("j.json"))).capToMinimum();
        now.addAndGet(1_000_000_000L);
        double second = meter.readEnergyJoules().getAsDouble();

        assertThat(first).isCloseTo((40 + 80 * 0.5 * 1.0) * 2, within(1e-9));
        assertThat(second - first).isCloseTo((40 + 80 * 0.5 * (1.2 / 2.6)) * 1, within(1e-9));
    }

    @Test
    void when_the_model_is_used_then_it_is_labelled_with_its_constants() {
        FakeSysfs fake = FakeSysfs.withoutCpufreq(tmp.resolve("root"), 2);
        LoadModelPowerMeter meter = new LoadModelPowerMeter(new PowerModel(12.5, 30), () -> 0.0,
                SysfsFrequencyRatio.probe(fake.sysfs()), () -> 0L);

        assertThat(meter.source()).isEqualTo(EnergySource.MODEL);
        assertThat(meter.source().label()).isEqualTo("model");
        assertThat(meter.parameters()).containsEntry("idlePowerWatts", 12.5).containsEntry("busyPowerWatts", 30.0)
                .containsEntry("formula", PowerModel.FORMULA);
        assertThat(meter.description()).contains("not a measurement").contains("P_idle=12.5 W")
                .contains("f/f_max = 1.0: no cpufreq");
        assertThat(meter.model().label()).isEqualTo("model(P_idle=12.5 W; P_busy=30.0 W)");
    }

    @Test
    void when_idle_then_the_model_gives_idle_power_whatever_the_frequency() throws Exception {
        FakeSysfs fake = FakeSysfs.amdPstate(tmp.resolve("root"), 1);
        AtomicLong now = new AtomicLong();
        LoadModelPowerMeter meter = new LoadModelPowerMeter(new PowerModel(25, 90), () -> 0.0,
                SysfsFrequencyRatio.probe(fake.sysfs()), now::get);

        now.set(3_000_000_000L);

        assertThat(meter.readEnergyJoules().getAsDouble()).isCloseTo(25 * 3, within(1e-9));
    }

    @Test
    void when_constants_are_inconsistent_then_the_model_is_refused() {
        assertThatThrownBy(() -> new PowerModel(50, 40)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("40");
        assertThatThrownBy(() -> new PowerModel(-1, 40)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
    }
}
