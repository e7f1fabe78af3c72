package org.dfr.power.meter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import org.assertj.core.api.Assertions;
import org.dfr.power.sysfs.FakeSysfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PerfEnergyMeterTest {

    @TempDir
    Path tmp;

    @Test
    void when_perf_prints_csv_then_joules_are_parsed_and_other_lines_ignored() {
        assertThat(PerfEnergyMeter.parseJoules("     0.100213873,1.52,Joules,power/energy-pkg/,100213873,100.00,,", true))
                .hasValue(1.52);
        assertThat(PerfEnergyMeter.parseJoules("3.25,Joules,power/energy-pkg/,50118120,100.00,,", false))
                .hasValue(3.25);
        assertThat(PerfEnergyMeter.parseJoules("0.1,<not counted>,Joules,power/energy-pkg/,0,0.00,,", true)).isEmpty();
        assertThat(PerfEnergyMeter.parseJoules("0.1,12,,cycles,100,100.00,,", true)).isEmpty();
        assertThat(PerfEnergyMeter.parseJoules("# started on Mon", true)).isEmpty();
    }

    @Test
    void when_perf_can_count_the_event_then_it_is_chosen_and_its_intervals_add_up() throws Exception {
        // a stand-in for perf with the same command line and output format
        Path perf = tmp.resolve("perf");
        Files.writeString(perf, """
                #!/bin/sh
                case " $* " in
                  *" -I "*) while true; do echo "1.0,0.25,Joules,power/energy-pkg/,100,100.00,," >&2; sleep 0.02; done ;;
                  *) echo "0.75,Joules,power/energy-pkg/,50000000,100.00,," >&2 ;;
                esac
                """);
        Files.setPosixFilePermissions(perf, PosixFilePermissions.fromString("rwxr-xr-x"));
        FakeSysfs fake = FakeSysfs.withoutCpufreq(tmp.resolve("root"), 1).withPerfEvent();

        MeterSelection selection = new PowerMeterSelector(fake.sysfs()).perfExecutable(Optional.of(perf))
                .perfIntervalMillis(20).select();
        try (PowerMeter meter = selection.meter()) {
            assertThat(selection.source()).isEqualTo(EnergySource.PERF);
            await().atMost(Duration.ofSeconds(20)).until(() -> meter.readEnergyJoules().getAsDouble() >= 1.0);
            double joules = meter.readEnergyJoules().getAsDouble();
            assertThat(joules / 0.25).isCloseTo(Math.rint(joules / 0.25), Assertions.within(1e-9));
        }
    }

    @Test
    void when_perf_cannot_count_the_event_then_the_trial_says_what_perf_said() throws Exception {
        Path perf = tmp.resolve("perf");
        Files.writeString(perf, "#!/bin/sh\necho \"event syntax error: 'power/energy-pkg/'\" >&2\nexit 129\n");
        Files.setPosixFilePermissions(perf, PosixFilePermissions.fromString("rwxr-xr-x"));

        assertThat(PerfEnergyMeter.trial(perf)).hasValueSatisfying(reason ->
                assertThat(reason).contains("cannot count power/energy-pkg/").contains("event syntax error"));
    }
}
