package org.dfr.power.freq;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.dfr.power.sysfs.FakeSysfs;
import org.dfr.power.sysfs.Sysfs;
import org.dfr.power.sysfs.SysfsRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FrequencyControllersTest {

    @TempDir
    Path tmp;

    private RestoreJournal journal() {
        return new RestoreJournal(tmp.resolve("freq-journal.json"));
    }

    @Test
    void when_there_is_no_cpufreq_then_the_controller_is_a_no_op_that_says_why() throws Exception {
        FakeSysfs fake = FakeSysfs.withoutCpufreq(tmp.resolve("root"), 2);

        FrequencyController controller = FrequencyControllers.probe(fake.sysfs(), journal());
        CapOutcome outcome = controller.capToMinimum();

        assertThat(controller).isInstanceOf(NoOpFrequencyController.class);
        assertThat(controller.capabilities().reason()).startsWith("no cpufreq:")
                .contains(fake.root().resolve(FakeSysfs.POLICIES) + " has no policy* directory");
        assertThat(outcome.applied()).isFalse();
        assertThat(outcome.message()).contains("no-op").contains("no cpufreq");
        assertThat(journal().exists()).isFalse();
    }

    /** {@code --sysfs-root .../host0/sys}: the sys directory itself, not the root that holds it. */
    @Test
    void when_the_root_given_is_the_sys_directory_then_the_reason_says_to_give_its_parent() throws Exception {
        Path root = tmp.resolve("host0");
        Files.createDirectories(root.resolve("sys/devices/system/cpu/cpufreq/policy0"));

        FrequencyController controller = FrequencyControllers.probe(Sysfs.at(SysfsRoot.of(root.resolve("sys"))),
                journal());

        assertThat(controller.canCap()).isFalse();
        assertThat(controller.capabilities().reason()).contains("the sysfs root is the directory that holds sys/, so"
                + " give the parent of the one given").doesNotContain("usual in a VM");
    }

    @Test
    void when_the_root_does_not_exist_then_the_reason_names_it() {
        Path missing = tmp.resolve("missing");
        FrequencyController controller = FrequencyControllers.probe(Sysfs.at(SysfsRoot.of(missing)), journal());

        assertThat(controller.canCap()).isFalse();
        assertThat(controller.capabilities().reason()).contains(missing.toString()).contains("not a directory");
    }

    @Test
    void when_no_policy_is_writable_then_the_controller_is_a_no_op_naming_the_file() {
        FakeSysfs fake = FakeSysfs.acpiCpufreq(tmp.resolve("root"), 2);
        fake.fs().denyWrite(FakeSysfs.POLICIES + "/policy0/scaling_max_freq");
        fake.fs().denyWrite(FakeSysfs.POLICIES + "/policy1/scaling_max_freq");

        FrequencyController controller = FrequencyControllers.probe(fake.sysfs(), journal());

        assertThat(controller).isInstanceOf(NoOpFrequencyController.class);
        assertThat(controller.capabilities().reason()).startsWith("no cpufreq policy is writable")
                .contains("policy0/scaling_max_freq is not writable");
        assertThat(controller.capabilities().policies()).hasSize(2);
    }

    @Test
    void when_a_policys_minimum_is_above_its_maximum_then_it_is_not_capped_and_the_tree_is_called_inconsistent()
            throws Exception {
        FakeSysfs fake = FakeSysfs.acpiCpufreq(tmp.resolve("root"), 2);
        fake.file(FakeSysfs.POLICIES + "/policy1/cpuinfo_min_freq", "3000000");

        FrequencyController controller = FrequencyControllers.probe(fake.sysfs(), journal());
        controller.capToMinimum();

        // capping policy1 would have written 3000000 into scaling_max_freq: a raise, not a cap
        assertThat(fake.readLong(FakeSysfs.POLICIES + "/policy1/scaling_max_freq")).isEqualTo(2_600_000);
        assertThat(fake.readLong(FakeSysfs.POLICIES + "/policy0/scaling_max_freq")).isEqualTo(1_200_000);
        assertThat(controller.capabilities().problems()).singleElement().asString()
                .contains("policy1: cpuinfo_min_freq 3000000 is above cpuinfo_max_freq 2600000 (an inconsistent tree");
    }

    @Test
    void when_a_policy_file_is_missing_then_the_problem_names_the_file() {
        FakeSysfs fake = FakeSysfs.acpiCpufreq(tmp.resolve("root"), 2);
        assertThat(fake.root().resolve(FakeSysfs.POLICIES + "/policy0/cpuinfo_min_freq").toFile().delete()).isTrue();

        FrequencyController controller = FrequencyControllers.probe(fake.sysfs(), journal());

        assertThat(controller.capabilities().problems()).singleElement().asString()
                .contains("no such file cpuinfo_min_freq");
    }

    @Test
    void when_one_policy_is_not_writable_then_the_others_are_capped_and_it_is_reported() throws Exception {
        FakeSysfs fake = FakeSysfs.acpiCpufreq(tmp.resolve("root"), 3);
        fake.fs().denyWrite(FakeSysfs.POLICIES + "/policy1/scaling_max_freq");

        FrequencyController controller = FrequencyControllers.probe(fake.sysfs(), journal());
        controller.capToMinimum();

        assertThat(controller.capabilities().problems()).singleElement().asString().contains("policy1");
        assertThat(fake.readLong(FakeSysfs.POLICIES + "/policy0/scaling_max_freq")).isEqualTo(1_200_000);
        assertThat(fake.readLong(FakeSysfs.POLICIES + "/policy1/scaling_max_freq")).isEqualTo(2_600_000);
        assertThat(fake.readLong(FakeSysfs.POLICIES + "/policy2/scaling_max_freq")).isEqualTo(1_200_000);
    }

    @Test
    void when_the_kernel_has_only_per_cpu_directories_then_they_are_used() throws Exception {
        FakeSysfs fake = FakeSysfs.perCpuAcpi(tmp.resolve("root"), 2);

        FrequencyController controller = FrequencyControllers.probe(fake.sysfs(), journal());
        controller.capToMinimum();

        assertThat(controller.capabilities().layout()).isEqualTo("per-cpu");
        assertThat(controller.capabilities().policies()).extracting(CpufreqPolicy::name).containsExactly("cpu0", "cpu1");
        assertThat(fake.readLong(FakeSysfs.CPU + "/cpu1/cpufreq/scaling_max_freq")).isEqualTo(1_200_000);
        controller.restore();
        assertThat(fake.readLong(FakeSysfs.CPU + "/cpu1/cpufreq/scaling_max_freq")).isEqualTo(2_600_000);
    }

    @Test
    void when_intel_pstate_limits_max_perf_pct_then_it_is_reported_as_a_share_of_max_turbo() {
        FakeSysfs fake = FakeSysfs.intelPstate(tmp.resolve("root"), 2);
        fake.file(FakeSysfs.CPU + "/intel_pstate/max_perf_pct", "50");

        FrequencyCapabilities caps = FrequencyControllers.inspect(fake.sysfs());

        assertThat(caps.intelPstate()).isNotNull();
        assertThat(caps.intelPstate().maxPerfPct()).isEqualTo(50);
        assertThat(caps.intelPstate().maxPerfKHz()).isEqualTo(FakeSysfs.INTEL.cpuinfoMax() / 2);
        assertThat(caps.intelPstate().status()).isEqualTo("active");
        assertThat(caps.drivers()).isEqualTo("intel_pstate");
    }

    @Test
    void when_the_layout_is_acpi_then_no_intel_pstate_limits_are_reported() {
        FakeSysfs fake = FakeSysfs.acpiCpufreq(tmp.resolve("root"), 1);

        FrequencyCapabilities caps = FrequencyControllers.inspect(fake.sysfs());

        assertThat(caps.intelPstate()).isNull();
        assertThat(caps.controllable()).isTrue();
        assertThat(caps.policies().get(0).cpuinfoMinKHz()).isEqualTo(1_200_000);
        assertThat(caps.policies().get(0).governor()).isEqualTo("ondemand");
    }
}
