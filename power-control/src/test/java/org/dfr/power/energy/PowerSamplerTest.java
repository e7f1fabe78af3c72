package org.dfr.power.energy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.dfr.power.Ticker;
import org.dfr.power.meter.EnergySource;
import org.dfr.power.meter.LoadModelPowerMeter;
import org.dfr.power.meter.NoPowerMeter;
import org.dfr.power.meter.PowerModel;
import org.dfr.power.meter.RaplPowercapMeter;
import org.dfr.power.meter.FrequencyRatioSource;
import org.dfr.power.sysfs.FakeSysfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PowerSamplerTest {

    private static final long S = 1_000_000_000L;
    private static final String PKG0 = FakeSysfs.POWERCAP + "/intel-rapl:0";

    @TempDir
    Path tmp;

    @Test
    void when_the_counter_wraps_during_recovery_then_energy_per_phase_is_still_exact() throws Exception {
        FakeSysfs fake = FakeSysfs.withoutCpufreq(tmp.resolve("root"), 1).withRapl(1, 1_999_999, false);
        AtomicLong now = new AtomicLong(100 * S);
        PhaseRecorder phases = new PhaseRecorder(now::get);
        RaplPowercapMeter meter = RaplPowercapMeter.open(fake.sysfs(), RaplPowercapMeter.probe(fake.sysfs()));
        PowerSampler sampler = new PowerSampler(meter, phases, now::get, "node1", 500);
        phases.mark(Phase.COMPUTE);
        sampler.begin();

        fake.advanceEnergy(PKG0, 1_500_000);
        now.addAndGet(S);
        sampler.sampleNow();
        phases.mark(Phase.RECOVERY_IDLE);
        fake.advanceEnergy(PKG0, 1_200_000); // wraps past 1999999
        now.addAndGet(2 * S);
        sampler.sampleNow();
        sampler.stop();

        EnergyReport report = sampler.report();
        assertThat(report.source()).isEqualTo(EnergySource.RAPL);
        assertThat(report.joules()).isCloseTo(2.7, within(1e-9));
        assertThat(report.phases().get("compute").joules()).isCloseTo(1.5, within(1e-9));
        assertThat(report.phases().get("recovery-idle").joules()).isCloseTo(1.2, within(1e-9));
        assertThat(report.phases().get("recovery-idle").meanWatts()).isCloseTo(0.6, within(1e-9));
        List<PowerSample> samples = sampler.samples();
        assertThat(samples).extracting(PowerSample::elapsedSeconds).containsExactly(1.0, 3.0, 3.0);
        assertThat(samples.get(1).powerWatts()).isCloseTo(0.6, within(1e-9));
        assertThat(samples.get(1).energyJoules()).isCloseTo(2.7, within(1e-9));
    }

    @Test
    void when_written_then_csv_has_a_row_per_sample_and_json_names_the_source() throws Exception {
        AtomicLong now = new AtomicLong();
        PhaseRecorder phases = new PhaseRecorder(now::get);
        LoadModelPowerMeter meter = new LoadModelPowerMeter(new PowerModel(40, 120), () -> 1.0,
                FrequencyRatioSource.constant(1.0, "test"), now::get);
        PowerSampler sampler = new PowerSampler(meter, phases, now::get, "node1", 100);
        sampler.begin();
        for (int i = 0; i < 3; i++) {
            now.addAndGet(S / 10);
            sampler.sampleNow();
        }
        Path csv = tmp.resolve("out/samples.csv");
        Path json = tmp.resolve("out/energy.json");

        sampler.writeCsv(csv);
        sampler.writeJson(json);

        List<String> lines = Files.readAllLines(csv);
        assertThat(lines).hasSize(1 + 3);
        assertThat(lines.get(0)).isEqualTo(SampleCsv.HEADER);
        assertThat(lines.subList(1, 4)).allSatisfy(l ->
                assertThat(l).contains(",unmarked,").contains(",model,model(P_idle=40.0 W; P_busy=120.0 W),"));
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        assertThat(report.get("source").asText()).isEqualTo("model");
        assertThat(report.get("parameters").get("idlePowerWatts").asDouble()).isEqualTo(40.0);
        assertThat(report.get("joules").asDouble()).isCloseTo(120.0 * 0.3, within(1e-9));
        assertThat(report.get("hosts").get(0).get("host").asText()).isEqualTo("node1");
        assertThat(report.get("notes").toString()).contains("estimated by a model");
    }

    @Test
    void when_started_then_samples_arrive_every_period_and_none_reports_no_energy() throws Exception {
        PhaseRecorder phases = new PhaseRecorder(Ticker.system());
        PowerSampler sampler = new PowerSampler(new NoPowerMeter("test machine"), phases, Ticker.system(), "h", 10);

        sampler.start();
        phases.mark(Phase.COMPUTE);
        await().atMost(Duration.ofSeconds(20)).until(() -> sampler.samples().size() >= 3);
        sampler.stop();
        int count = sampler.samples().size();

        assertThat(sampler.samples()).extracting(PowerSample::elapsedSeconds).isSorted();
        assertThat(sampler.samples()).allSatisfy(s -> assertThat(s.energyJoules()).isNull());
        EnergyReport report = sampler.report();
        assertThat(report.source()).isEqualTo(EnergySource.NONE);
        assertThat(report.joules()).isNull();
        assertThat(report.seconds()).isGreaterThan(0);
        JsonNode json = new ObjectMapper().readTree(report.toJson());
        assertThat(json.get("source").asText()).isEqualTo("none");
        assertThat(json.get("joules").isNull()).isTrue();
        // stopped means stopped
        sampler.stop();
        assertThat(sampler.samples()).hasSize(count);
    }

    @Test
    void when_hosts_are_combined_then_phase_energy_adds_up() {
        PhaseEnergy compute = new PhaseEnergy(2, 20.0, 10.0);
        HostEnergy a = new HostEnergy("a", EnergySource.RAPL, 2, 20.0, 10.0, 4, 0, Map.of("compute", compute));
        HostEnergy b = new HostEnergy("b", EnergySource.MODEL, 2, 60.0, 30.0, 4, 0,
                Map.of("compute", new PhaseEnergy(2, 60.0, 30.0)));

        EnergyReport report = EnergyReport.of("two hosts", Map.of(), 100, List.of(a, b), List.of());

        assertThat(report.source()).isEqualTo(EnergySource.MODEL);
        assertThat(report.joules()).isCloseTo(80.0, within(1e-12));
        assertThat(report.meanWatts()).isCloseTo(20.0, within(1e-12));
        assertThat(report.phases().get("compute").joules()).isCloseTo(80.0, within(1e-12));
        assertThat(report.notes()).anySatisfy(n -> assertThat(n).contains("different sources"));
    }
}
