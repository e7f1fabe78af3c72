package org.dfr.harness.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScheduleTest {

    private static final List<Variant> ALL = List.of(Variant.GLOBAL, Variant.DFR, Variant.DFR_CAPPING);

    @Test
    void sameSeedSameScheduleAndFailures() {
        ExperimentSpec spec = ExperimentSpec.empty().orElse(ExperimentSpec.defaults());
        assertThat(Schedule.of(spec)).isEqualTo(Schedule.of(spec));
        assertThat(Schedule.of(ALL, 10, 2, 7)).isEqualTo(Schedule.of(ALL, 10, 2, 7));
        assertThat(Schedule.of(ALL, 10, 2, 7)).isNotEqualTo(Schedule.of(ALL, 10, 2, 8));
        // the failures come from the spec, never from the order
        assertThat(spec.kills()).hasSize(1);
        assertThat(spec.kills().get(0).rank()).isEqualTo(1);
        assertThat(spec.kills().get(0).iteration()).isEqualTo(4);
    }

    @Test
    void warmupsFirstThenRoundsWithEveryVariantOnce() {
        List<Schedule.Entry> s = Schedule.of(ALL, 4, 2, 1);
        assertThat(s).hasSize(14);
        assertThat(s.subList(0, 2)).allMatch(Schedule.Entry::warmup);
        for (int r = 1; r <= 4; r++) {
            int round = r;
            assertThat(s.stream().filter(e -> e.repetition() == round).map(Schedule.Entry::variant))
                    .containsExactlyInAnyOrderElementsOf(ALL);
        }
        assertThat(s.stream().map(Schedule.Entry::index)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);
    }

    @Test
    void statisticsAreStudentIntervals() {
        Stats s = Stats.of(new double[] {1, 2, 3, 4, Double.NaN});
        assertThat(s.n()).isEqualTo(4);
        assertThat(s.mean()).isEqualTo(2.5);
        assertThat(s.sd()).isCloseTo(Math.sqrt(5.0 / 3), within(1e-12));
        // t(0.975, 3) = 3.182446
        assertThat(s.ci95High() - s.mean()).isCloseTo(3.182446 * Math.sqrt(5.0 / 3) / 2, within(1e-5));
        assertThat(Stats.of(new double[] {5}).sd()).isNaN();
    }

    @Test
    void specsReadFromYamlAndJsonAgree(@TempDir Path tmp) throws Exception {
        Path yaml = tmp.resolve("e.yaml");
        Files.writeString(yaml, "name: t\ncells: [64, 64]\nvariants: [global, dfr+capping]\n"
                + "repetitions: 2\nidlePowerWatts: 40\nbusyPowerWatts: 120\n");
        ExperimentSpec fromYaml = ExperimentSpec.read(yaml).orElse(ExperimentSpec.defaults());
        Path json = tmp.resolve("e.json");
        Files.writeString(json, fromYaml.toJson());
        assertThat(ExperimentSpec.read(json)).isEqualTo(fromYaml);
        assertThat(fromYaml.variants()).containsExactly(Variant.GLOBAL, Variant.DFR_CAPPING);
        assertThat(fromYaml.model().label()).isEqualTo("model(P_idle=40.0 W; P_busy=120.0 W)");
    }
}
