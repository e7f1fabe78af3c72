package org.dfr.power.timeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.dfr.power.energy.HostEnergy;
import org.dfr.power.energy.Phase;
import org.dfr.power.meter.EnergySource;
import org.dfr.power.meter.PowerModel;
import org.dfr.power.meter.SysfsFrequencyRatio;
import org.dfr.power.sysfs.FakeCpufreqTree;
import org.dfr.power.sysfs.Sysfs;
import org.dfr.power.sysfs.SysfsRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimelineEnergyTest {

    private static final long S = 1_000_000_000L;

    @TempDir
    Path tmp;

    @Test
    void modelFollowsTheCappedFrequencyByItsLaw() {
        PowerModel model = new PowerModel(40, 120, 1.0, 0.25);
        assertThat(model.watts(0, 1.0)).isEqualTo(40.0);
        assertThat(model.watts(1, 1.0)).isEqualTo(120.0);
        // idle and capped to half the clock: 40 * (0.75 + 0.25 * 0.5)
        assertThat(model.watts(0, 0.5)).isCloseTo(35.0, within(1e-9));
        assertThat(new PowerModel(40, 120).watts(0, 0.5)).isEqualTo(40.0);
        assertThat(model.label()).isEqualTo("model(P_idle=40.0 W; P_busy=120.0 W; alpha=1.0; s=0.25)");
        assertThat(new PowerModel(40, 120).label()).isEqualTo("model(P_idle=40.0 W; P_busy=120.0 W)");
    }

    @Test
    void integratesEachHostOverItsPhasesAndFrequency() {
        PowerModel model = new PowerModel(40, 120, 1.0, 0.5);
        HostTimeline busy = new HostTimeline("host0", List.of(
                new PhaseSpan(0, S, Phase.START_UP, 0),
                new PhaseSpan(S, 3 * S, Phase.COMPUTE, 1),
                new PhaseSpan(3 * S, 4 * S, Phase.RECOVERY_ACTIVE, 0.5)));
        HostTimeline idle = new HostTimeline("host1", List.of(
                new PhaseSpan(0, S, Phase.START_UP, 0),
                new PhaseSpan(S, 3 * S, Phase.COMPUTE, 1),
                new PhaseSpan(3 * S, 4 * S, Phase.CAPPED, 0)));
        FrequencyTrace capped = new FrequencyTrace();
        capped.add(0, 1.0);
        capped.add(3 * S, 0.5);
        List<Long> ticks = List.of(0L, S / 2, S, 2 * S, 3 * S, 4 * S);
        TimelineEnergy energy = TimelineEnergy.model(model, List.of(busy, idle), Map.of("host1", capped), ticks, 0,
                new TimelineEnergy.Clock(0, 1_000_000));
        assertThat(energy.phase("host0", Phase.COMPUTE).joules()).isCloseTo(240.0, within(1e-9));
        assertThat(energy.phase("host0", Phase.RECOVERY_ACTIVE).joules()).isCloseTo(80.0, within(1e-9));
        // capped: 40 * (0.5 + 0.5 * 0.5) = 30 W
        assertThat(energy.phase("host1", Phase.CAPPED).joules()).isCloseTo(30.0, within(1e-9));
        assertThat(energy.phase("host1", Phase.START_UP).joules()).isCloseTo(40.0, within(1e-9));
        List<HostEnergy> solver = energy.hostEnergies(p -> p != Phase.START_UP);
        assertThat(solver.get(1).joules()).isCloseTo(270.0, within(1e-9));
        assertThat(solver.get(1).phases()).doesNotContainKey("start-up");
        TimelineSample last = energy.samples().stream().filter(s -> s.host().equals("host1")).reduce((a, b) -> b)
                .orElseThrow();
        assertThat(last.phase()).isEqualTo(Phase.CAPPED);
        assertThat(last.watts()).isCloseTo(30.0, within(1e-9));
        assertThat(last.epochMillis()).isEqualTo(1_004_000);
        assertThat(TimelineCsv.format(energy.samples())).startsWith(TimelineCsv.HEADER + "\n")
                .contains("1970-01-01T00:16:44.000Z,1004000,4.000,host1,capped,30.000,model,model(P_idle=40.0 W;");
    }

    @Test
    void measuredDomainsStaySeparateAndSplitByTime() {
        HostTimeline phases = new HostTimeline("machine", List.of(
                new PhaseSpan(0, S, Phase.START_UP, 0),
                new PhaseSpan(S, 2 * S, Phase.COMPUTE, 1)));
        List<double[]> readings = List.of(new double[] {0, 0}, new double[] {50, 5}, new double[] {150, 15});
        TimelineEnergy energy = TimelineEnergy.measured(EnergySource.RAPL, phases, List.of("package-0",
                "package-0/dram"), List.of(0L, S, 2 * S), readings, "vm", 0, new TimelineEnergy.Clock(0, 0));
        assertThat(energy.hosts()).containsExactly("vm:package-0", "vm:package-0/dram");
        assertThat(energy.phase("vm:package-0", Phase.COMPUTE).joules()).isEqualTo(100.0);
        assertThat(energy.phase("vm:package-0/dram", Phase.COMPUTE).joules()).isEqualTo(10.0);
        assertThat(energy.phase("vm:package-0", Phase.START_UP).meanWatts()).isEqualTo(50.0);
    }

    @Test
    void when_a_reading_fails_then_the_next_one_is_spread_over_both_intervals_and_the_miss_is_counted() {
        //   0 ----- S ----- 2S ----- 3S
        //   | start-up | compute........|
        //   0 J     failed   100 J    150 J
        HostTimeline phases = new HostTimeline("machine", List.of(
                new PhaseSpan(0, S, Phase.START_UP, 0),
                new PhaseSpan(S, 3 * S, Phase.COMPUTE, 1)));
        List<double[]> readings = Arrays.asList(new double[] {0}, null, new double[] {100},
                new double[] {150});
        TimelineEnergy energy = TimelineEnergy.measured(EnergySource.PERF, phases, List.of("package"),
                List.of(0L, S, 2 * S, 3 * S), readings, "vm", 0, new TimelineEnergy.Clock(0, 0));

        // the 100 J read at 2S were drawn over 2 s, half of them in start-up
        assertThat(energy.phase("vm", Phase.START_UP).joules()).isCloseTo(50.0, within(1e-9));
        assertThat(energy.phase("vm", Phase.START_UP).meanWatts()).isCloseTo(50.0, within(1e-9));
        assertThat(energy.phase("vm", Phase.COMPUTE).joules()).isCloseTo(100.0, within(1e-9));
        assertThat(energy.phase("vm", Phase.COMPUTE).meanWatts()).isCloseTo(50.0, within(1e-9));
        HostEnergy all = energy.hostEnergies(p -> true).get(0);
        assertThat(all.missedIntervals()).isEqualTo(1);
        assertThat(all.joules()).isCloseTo(150.0, within(1e-9));
        assertThat(energy.samples()).extracting(TimelineSample::watts).containsExactly(null, 50.0, 50.0);
    }

    @Test
    void when_the_last_reading_fails_then_its_time_counts_unmeasured() {
        HostTimeline phases = new HostTimeline("machine", List.of(new PhaseSpan(0, 2 * S, Phase.COMPUTE, 1)));
        List<double[]> readings = Arrays.asList(new double[] {0}, new double[] {80}, null);
        TimelineEnergy energy = TimelineEnergy.measured(EnergySource.PERF, phases, List.of("package"),
                List.of(0L, S, 2 * S), readings, "vm", 0, new TimelineEnergy.Clock(0, 0));

        HostEnergy all = energy.hostEnergies(p -> true).get(0);
        assertThat(all.seconds()).isCloseTo(2.0, within(1e-9));
        assertThat(all.joules()).isCloseTo(80.0, within(1e-9));
        assertThat(all.meanWatts()).isCloseTo(80.0, within(1e-9));
        assertThat(all.missedIntervals()).isEqualTo(1);
    }

    @Test
    void when_the_baseline_reading_fails_then_it_is_missed_and_its_time_until_the_first_good_one_unmeasured() {
        HostTimeline phases = new HostTimeline("machine", List.of(new PhaseSpan(0, 3 * S, Phase.COMPUTE, 1)));
        List<double[]> readings = Arrays.asList(null, new double[] {10}, new double[] {70});
        TimelineEnergy energy = TimelineEnergy.measured(EnergySource.PERF, phases, List.of("package"),
                List.of(0L, S, 3 * S), readings, "vm", 0, new TimelineEnergy.Clock(0, 0));

        HostEnergy all = energy.hostEnergies(p -> true).get(0);
        assertThat(all.missedIntervals()).isEqualTo(1);
        assertThat(all.seconds()).isCloseTo(3.0, within(1e-9));
        assertThat(all.joules()).isCloseTo(60.0, within(1e-9));
        assertThat(all.meanWatts()).isCloseTo(30.0, within(1e-9));
    }

    @Test
    void when_there_is_no_meter_then_the_times_are_kept_and_no_reading_is_missed() {
        HostTimeline phases = new HostTimeline("machine", List.of(new PhaseSpan(0, 2 * S, Phase.COMPUTE, 1)));
        List<double[]> readings = Arrays.asList(null, null, null);
        TimelineEnergy energy = TimelineEnergy.measured(EnergySource.NONE, phases, List.of("none"),
                List.of(0L, S, 2 * S), readings, "vm", 0, new TimelineEnergy.Clock(0, 0));

        HostEnergy all = energy.hostEnergies(p -> true).get(0);
        assertThat(all.seconds()).isCloseTo(2.0, within(1e-9));
        assertThat(all.joules()).isNull();
        assertThat(all.missedIntervals()).isZero();
        assertThat(energy.phase("vm", Phase.COMPUTE).seconds()).isCloseTo(2.0, within(1e-9));
    }

    @Test
    void fakeTreeShowsACapAsALowerRatio() throws Exception {
        FakeCpufreqTree.create(tmp, 2, 1_200_000, 2_400_000);
        Sysfs host1 = Sysfs.at(SysfsRoot.of(tmp.resolve("host1")));
        var ratio = SysfsFrequencyRatio.probe(host1);
        assertThat(ratio.ratio()).isEqualTo(1.0);
        Files.writeString(tmp.resolve("host1").resolve(FakeCpufreqTree.POLICY).resolve("scaling_max_freq"),
                "1200000\n");
        // scaling_cur_freq still says 2.4 GHz in a fake tree: the limit wins
        assertThat(ratio.ratio()).isEqualTo(0.5);
    }
}
