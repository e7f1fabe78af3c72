package org.dfr.power.freq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.dfr.power.sysfs.FakeSysfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CpufreqFrequencyControllerTest {

    private static final int CPUS = 4;

    @TempDir
    Path tmp;

    static Stream<Arguments> layouts() {
        return Stream.of(
                Arguments.of("intel_pstate", (BiFunction<Path, Integer, FakeSysfs>) FakeSysfs::intelPstate, FakeSysfs.INTEL),
                Arguments.of("acpi-cpufreq", (BiFunction<Path, Integer, FakeSysfs>) FakeSysfs::acpiCpufreq, FakeSysfs.ACPI),
                Arguments.of("amd-pstate", (BiFunction<Path, Integer, FakeSysfs>) FakeSysfs::amdPstate, FakeSysfs.AMD));
    }

    private FakeSysfs tree(BiFunction<Path, Integer, FakeSysfs> layout) {
        return layout.apply(tmp.resolve("root"), CPUS);
    }

    private RestoreJournal journal() {
        return new RestoreJournal(tmp.resolve("journal/freq-journal.json"));
    }

    private static String policy(int cpu) {
        return FakeSysfs.POLICIES + "/policy" + cpu;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void when_capped_then_every_policy_runs_at_its_hardware_minimum(String name,
            BiFunction<Path, Integer, FakeSysfs> layout, FakeSysfs.Limits limits) throws Exception {
        FakeSysfs fake = tree(layout);
        FrequencyController controller = FrequencyControllers.probe(fake.sysfs(), journal());

        CapOutcome outcome = controller.capToMinimum();

        assertThat(outcome.applied()).isTrue();
        assertThat(controller.isCapped()).isTrue();
        for (int cpu = 0; cpu < CPUS; cpu++) {
            assertThat(fake.readLong(policy(cpu) + "/scaling_max_freq")).isEqualTo(limits.cpuinfoMin());
            // the kernel dragged the minimum down with the maximum
            assertThat(fake.readLong(policy(cpu) + "/scaling_min_freq")).isEqualTo(limits.cpuinfoMin());
        }
        assertThat(fake.read(FakeSysfs.POLICIES + "/policy0/scaling_driver")).isEqualTo(name.equals("amd-pstate")
                ? "amd-pstate-epp" : name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void when_capped_then_the_journal_holds_the_original_limits(String name,
            BiFunction<Path, Integer, FakeSysfs> layout, FakeSysfs.Limits limits) throws Exception {
        FakeSysfs fake = tree(layout);
        FrequencyControllers.probe(fake.sysfs(), journal()).capToMinimum();

        JsonNode json = new ObjectMapper().readTree(journal().file().toFile());
        assertThat(json.get("policies")).hasSize(CPUS);
        for (JsonNode policy : json.get("policies")) {
            assertThat(policy.get("scalingMaxKHz").asLong()).isEqualTo(limits.scalingMax());
            assertThat(policy.get("scalingMinKHz").asLong()).isEqualTo(limits.scalingMin());
            assertThat(policy.get("governor").asText()).isEqualTo(limits.governor());
        }
        assertThat(json.get("sysfsRoot").asText()).isEqualTo(fake.root().toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("layouts")
    void when_restored_then_original_limits_are_back_and_the_journal_is_gone(String name,
            BiFunction<Path, Integer, FakeSysfs> layout, FakeSysfs.Limits limits) throws Exception {
        FakeSysfs fake = tree(layout);
        FrequencyController controller = FrequencyControllers.probe(fake.sysfs(), journal());
        controller.capToMinimum();

        RestoreOutcome outcome = controller.restore();

        assertThat(outcome.restored()).isTrue();
        assertThat(controller.isCapped()).isFalse();
        assertThat(journal().exists()).isFalse();
        for (int cpu = 0; cpu < CPUS; cpu++) {
            assertThat(fake.readLong(policy(cpu) + "/scaling_max_freq")).isEqualTo(limits.scalingMax());
            assertThat(fake.readLong(policy(cpu) + "/scaling_min_freq")).isEqualTo(limits.scalingMin());
            assertThat(fake.read(policy(cpu) + "/scaling_governor")).isEqualTo(limits.governor());
        }
    }

    @Test
    void when_restoring_then_each_policy_gets_its_maximum_before_its_minimum() throws Exception {
        FakeSysfs fake = FakeSysfs.acpiCpufreq(tmp.resolve("root"), 2);
        FrequencyController controller = FrequencyControllers.probe(fake.sysfs(), journal());
        controller.capToMinimum();
        int capWrites = fake.fs().writeLog().size();

        controller.restore();

        List<String> restoreWrites = fake.fs().writeLog().subList(capWrites, fake.fs().writeLog().size());
        assertThat(restoreWrites).containsExactly(
                policy(0) + "/scaling_max_freq=2600000", policy(0) + "/scaling_min_freq=1600000",
                policy(1) + "/scaling_max_freq=2600000", policy(1) + "/scaling_min_freq=1600000");
    }

    @Test
    void when_a_write_fails_midway_then_the_policies_already_capped_are_restored() throws Exception {
        FakeSysfs fake = FakeSysfs.acpiCpufreq(tmp.resolve("root"), CPUS);
        fake.fs().failWrites(policy(2) + "/scaling_max_freq");
        FrequencyController controller = FrequencyControllers.probe(fake.sysfs(), journal());

        assertThatThrownBy(controller::capToMinimum)
                .isInstanceOf(FrequencyControlException.class)
                .hasMessageContaining("policy2/scaling_max_freq").hasMessageContaining("permission denied");

        assertThat(controller.isCapped()).isFalse();
        assertThat(journal().exists()).isFalse();
        for (int cpu = 0; cpu < CPUS; cpu++) {
            assertThat(fake.readLong(policy(cpu) + "/scaling_max_freq")).isEqualTo(FakeSysfs.ACPI.scalingMax());
            assertThat(fake.readLong(policy(cpu) + "/scaling_min_freq")).isEqualTo(FakeSysfs.ACPI.scalingMin());
        }
    }

    @Test
    void when_a_previous_process_died_capped_then_a_new_controller_restores_at_startup() throws Exception {
        FakeSysfs fake = FakeSysfs.amdPstate(tmp.resolve("root"), CPUS);
        FrequencyControllers.probe(fake.sysfs(), journal()).capToMinimum();
        // the first controller is dropped without restoring: the process was SIGKILLed

        FrequencyController restarted = FrequencyControllers.probe(fake.sysfs(), journal());
        RestoreOutcome outcome = restarted.restoreLeftoverJournal();

        assertThat(outcome.restored()).isTrue();
        assertThat(journal().exists()).isFalse();
        for (int cpu = 0; cpu < CPUS; cpu++) {
            assertThat(fake.readLong(policy(cpu) + "/scaling_max_freq")).isEqualTo(FakeSysfs.AMD.scalingMax());
            assertThat(fake.readLong(policy(cpu) + "/scaling_min_freq")).isEqualTo(FakeSysfs.AMD.scalingMin());
        }
    }

    @Test
    void when_capping_over_a_leftover_journal_then_the_true_originals_are_kept() throws Exception {
        FakeSysfs fake = FakeSysfs.acpiCpufreq(tmp.resolve("root"), CPUS);
        FrequencyControllers.probe(fake.sysfs(), journal()).capToMinimum();

        FrequencyController next = FrequencyControllers.probe(fake.sysfs(), journal());
        next.capToMinimum();
        next.restore();

        for (int cpu = 0; cpu < CPUS; cpu++) {
            assertThat(fake.readLong(policy(cpu) + "/scaling_max_freq")).isEqualTo(FakeSysfs.ACPI.scalingMax());
            assertThat(fake.readLong(policy(cpu) + "/scaling_min_freq")).isEqualTo(FakeSysfs.ACPI.scalingMin());
        }
    }

    @Test
    void when_another_limit_blocks_the_restore_then_the_error_names_it_and_the_journal_stays() throws Exception {
        FakeSysfs fake = FakeSysfs.acpiCpufreq(tmp.resolve("root"), 2);
        FrequencyController controller = FrequencyControllers.probe(fake.sysfs(), journal());
        controller.capToMinimum();
        fake.fs().limitMaximum(policy(0), 2_000_000);

        assertThatThrownBy(controller::restore)
                .isInstanceOf(FrequencyControlException.class)
                .hasMessageContaining("policy0/scaling_max_freq")
                .hasMessageContaining("reads back 2000000");

        assertThat(journal().exists()).isTrue();
        assertThat(controller.isCapped()).isTrue();
        // the other policy was restored anyway
        assertThat(fake.readLong(policy(1) + "/scaling_max_freq")).isEqualTo(FakeSysfs.ACPI.scalingMax());
    }

    @Test
    void when_the_governor_changed_while_capped_then_restore_puts_the_original_back() throws Exception {
        FakeSysfs fake = FakeSysfs.acpiCpufreq(tmp.resolve("root"), 1);
        FrequencyController controller = FrequencyControllers.probe(fake.sysfs(), journal());
        controller.capToMinimum();
        fake.file(policy(0) + "/scaling_governor", "performance");

        RestoreOutcome outcome = controller.restore();

        assertThat(fake.read(policy(0) + "/scaling_governor")).isEqualTo("ondemand");
        assertThat(outcome.changes()).extracting(FrequencyChange::to).contains("ondemand");
    }

    @Test
    void when_the_journals_governor_is_not_available_then_restore_leaves_the_governor_and_says_so() throws Exception {
        FakeSysfs fake = FakeSysfs.acpiCpufreq(tmp.resolve("root"), 1);
        FrequencyController controller = FrequencyControllers.probe(fake.sysfs(), journal());
        controller.capToMinimum();
        // the journal edited by hand, or from another tree: a governor this kernel does not offer
        Path file = journal().file();
        Files.writeString(file, Files.readString(file).replace("\"ondemand\"", "\"warp-speed\""));
        fake.file(policy(0) + "/scaling_governor", "performance");

        assertThatThrownBy(controller::restore).isInstanceOf(FrequencyControlException.class)
                .hasMessageContaining("governor 'warp-speed'").hasMessageContaining("is not among its"
                        + " scaling_available_governors");
        assertThat(fake.read(policy(0) + "/scaling_governor")).isEqualTo("performance");
        assertThat(fake.readLong(policy(0) + "/scaling_max_freq")).as("the limits are restored all the same")
                .isEqualTo(2_600_000);
    }

    @Test
    void when_capped_twice_then_the_second_cap_writes_nothing() throws Exception {
        FakeSysfs fake = FakeSysfs.intelPstate(tmp.resolve("root"), 2);
        FrequencyController controller = FrequencyControllers.probe(fake.sysfs(), journal());
        controller.capToMinimum();
        int writes = fake.fs().writeLog().size();

        CapOutcome second = controller.capToMinimum();

        assertThat(second.applied()).isFalse();
        assertThat(fake.fs().writeLog()).hasSize(writes);
    }

    @Test
    void when_nothing_was_capped_then_restore_does_nothing() throws Exception {
        FakeSysfs fake = FakeSysfs.intelPstate(tmp.resolve("root"), 2);
        FrequencyController controller = FrequencyControllers.probe(fake.sysfs(), journal());

        RestoreOutcome outcome = controller.restore();

        assertThat(outcome.restored()).isFalse();
        assertThat(fake.fs().writeLog()).isEmpty();
    }
}
