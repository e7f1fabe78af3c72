package org.dfr.power.meter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import org.dfr.power.sysfs.FakeSysfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RaplPowercapMeterTest {

    private static final String PKG0 = FakeSysfs.POWERCAP + "/intel-rapl:0";
    private static final String PKG1 = FakeSysfs.POWERCAP + "/intel-rapl:1";

    @TempDir
    Path tmp;

    @Test
    void when_the_counter_wraps_then_energy_still_adds_up() throws Exception {
        long max = 999_999; // the counter runs 0..999999 µJ and wraps every joule
        FakeSysfs fake = FakeSysfs.withoutCpufreq(tmp, 1).withRapl(1, max, false);
        fake.advanceEnergy(PKG0, 700_000);
        RaplPowercapMeter meter = RaplPowercapMeter.open(fake.sysfs(), RaplPowercapMeter.probe(fake.sysfs()));

        long[] steps = {600_000, 600_000, 999_999, 1};
        long sum = 0;
        for (long step : steps) {
            fake.advanceEnergy(PKG0, step);
            sum += step;
            assertThat(meter.readEnergyJoules().getAsDouble()).isCloseTo(sum / 1e6, within(1e-12));
        }
        // the raw counter wrapped twice on the way (700000 + 2.8 J on a 1 J ring)
        assertThat(700_000 + sum).isGreaterThan(2 * (max + 1));
    }

    @Test
    void when_packages_have_dram_then_packages_and_dram_count_but_core_does_not() throws Exception {
        FakeSysfs fake = FakeSysfs.withoutCpufreq(tmp, 1).withRapl(2, 262_143_328_850L, true).withPsys(2, 1_000_000);
        RaplProbe probe = RaplPowercapMeter.probe(fake.sysfs());
        RaplPowercapMeter meter = RaplPowercapMeter.open(fake.sysfs(), probe);

        fake.advanceEnergy(PKG0, 10_000_000);
        fake.advanceEnergy(PKG0 + "/intel-rapl:0:0", 6_000_000); // core, inside package-0
        fake.advanceEnergy(PKG0 + "/intel-rapl:0:1", 2_000_000); // dram
        fake.advanceEnergy(PKG1, 5_000_000);
        fake.advanceEnergy(FakeSysfs.POWERCAP + "/intel-rapl:2", 900_000); // psys overlaps the packages

        assertThat(meter.readEnergyJoules().getAsDouble()).isCloseTo(10 + 2 + 5, within(1e-9));
        assertThat(probe.zones()).extracting(RaplZone::name)
                .containsExactly("package-0", "package-0/dram", "package-1", "package-1/dram");
        assertThat(probe.notes()).anySatisfy(n -> assertThat(n).contains("psys"))
                .anySatisfy(n -> assertThat(n).contains("core"));
    }

    @Test
    void when_there_is_no_powercap_then_the_probe_says_so() {
        FakeSysfs fake = FakeSysfs.withoutCpufreq(tmp, 1);

        RaplProbe probe = RaplPowercapMeter.probe(fake.sysfs());

        assertThat(probe.available()).isFalse();
        assertThat(probe.unavailableReason()).startsWith("no powercap:")
                .contains(tmp.resolve(FakeSysfs.POWERCAP).toString());
    }

    @Test
    void when_energy_is_readable_only_by_root_then_the_probe_says_permission_denied() {
        FakeSysfs fake = FakeSysfs.withoutCpufreq(tmp, 1).withRapl(1, 1_000_000, false);
        fake.fs().denyRead(PKG0 + "/energy_uj");

        RaplProbe probe = RaplPowercapMeter.probe(fake.sysfs());

        assertThat(probe.available()).isFalse();
        assertThat(probe.unavailableReason()).contains("energy_uj").contains("permission denied");
    }

    @Test
    void when_a_delta_crosses_the_wrap_then_it_is_the_distance_modulo_the_range() {
        // independent reference: the distance forward on a ring of max+1 values
        long max = 65_535;
        for (long previous : new long[] {0, 1, 30_000, 65_535}) {
            for (long step : new long[] {0, 1, 100, 65_535}) {
                long current = (previous + step) % (max + 1);
                assertThat(RaplPowercapMeter.deltaMicroJoules(previous, current, max)).isEqualTo(step);
            }
        }
    }
}
