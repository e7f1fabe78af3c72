package org.dfr.cli.power;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.dfr.cli.DfrMain;
import org.dfr.power.freq.LeftoverJournals;
import org.dfr.power.timeline.TimelineCsv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class PowerCommandTest {

    private static final String POLICIES = "sys/devices/system/cpu/cpufreq";

    @TempDir
    Path tmp;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = DfrMain.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return cl.execute(args);
    }

    /** A tree like this VM's: CPUs but no cpufreq policy and no powercap. */
    private Path vmTree() throws IOException {
        Path root = tmp.resolve("vm");
        Files.createDirectories(root.resolve(POLICIES));
        Files.createDirectories(root.resolve("sys/devices/system/cpu/cpu0"));
        return root;
    }

    /** Two acpi-cpufreq policies, hardware 1.2..2.6 GHz, limits 1.6..2.6 GHz. */
    private Path acpiTree() throws IOException {
        Path root = tmp.resolve("acpi");
        for (int cpu = 0; cpu < 2; cpu++) {
            Path dir = root.resolve(POLICIES + "/policy" + cpu);
            Files.createDirectories(dir);
            write(dir, "cpuinfo_min_freq", "1200000");
            write(dir, "cpuinfo_max_freq", "2600000");
            write(dir, "scaling_min_freq", "1600000");
            write(dir, "scaling_max_freq", "2600000");
            write(dir, "scaling_cur_freq", "2600000");
            write(dir, "scaling_driver", "acpi-cpufreq");
            write(dir, "scaling_governor", "ondemand");
            write(dir, "affected_cpus", Integer.toString(cpu));
        }
        return root;
    }

    private static void write(Path dir, String name, String value) throws IOException {
        Files.writeString(dir.resolve(name), value + "\n");
    }

    private static String read(Path root, String relative) throws IOException {
        return Files.readString(root.resolve(relative)).strip();
    }

    @Test
    void when_the_machine_has_no_cpufreq_and_no_powercap_then_status_explains_both() throws IOException {
        Path root = vmTree();

        int code = run("power", "status", "--sysfs-root", root.toString(), "--journal", tmp.resolve("j.json").toString());

        assertThat(code).isZero();
        assertThat(out.toString())
                .contains("Frequency capping: not available")
                .contains("no cpufreq: " + root.resolve(POLICIES) + " has no policy* directory")
                .contains("no powercap: " + root.resolve("sys/class/powercap") + " does not exist")
                .contains("energy-pkg does not exist")
                .contains("Energy source: none");
    }

    @Test
    void when_the_tree_has_cpufreq_then_status_lists_the_policies() throws IOException {
        Path root = acpiTree();

        int code = run("power", "status", "--sysfs-root", root.toString(), "--journal", tmp.resolve("j.json").toString());

        assertThat(code).isZero();
        assertThat(out.toString()).contains("Frequency capping: available (2 of 2 policies writable, driver acpi-cpufreq")
                .contains("policy1").contains("hw 1200000..2600000 kHz, limits 1600000..2600000 kHz");
    }

    @Test
    void when_capped_and_restored_then_the_files_hold_the_minimum_and_then_the_originals() throws IOException {
        Path root = acpiTree();
        Path journal = tmp.resolve("state/journal.json");

        int capCode = run("power", "cap", "--sysfs-root", root.toString(), "--journal", journal.toString());
        String capMax = read(root, POLICIES + "/policy1/scaling_max_freq");
        boolean journaled = Files.exists(journal);
        int restoreCode = run("power", "restore", "--journal", journal.toString());

        assertThat(capCode).isZero();
        assertThat(capMax).isEqualTo("1200000");
        assertThat(journaled).isTrue();
        assertThat(restoreCode).isZero();
        assertThat(read(root, POLICIES + "/policy1/scaling_max_freq")).isEqualTo("2600000");
        assertThat(read(root, POLICIES + "/policy1/scaling_min_freq")).isEqualTo("1600000");
        assertThat(Files.exists(journal)).isFalse();
        assertThat(out.toString()).contains("capped 2 cpufreq policies").contains("restored the original limits of 2");
    }

    /*
     * `dfr power cap` exits once it capped: the next dfr command found its journal with a dead pid, took it for a
     * process killed while capped, and restored the limits. Its journal is now held until `dfr power restore`.
     */
    @Test
    void when_capped_then_the_cap_outlives_the_command_until_restore() throws IOException {
        Path root = acpiTree();
        Path dir = tmp.resolve("journals");
        Path journal = dir.resolve("freq-journal-test.json");

        int capCode = run("power", "cap", "--sysfs-root", root.toString(), "--journal", journal.toString());
        // as the next command sees it: the capping process gone
        JsonNode record = new ObjectMapper().readTree(journal.toFile());
        ((ObjectNode) record).put("pid", Long.MAX_VALUE);
        Files.writeString(journal, record.toString());
        List<LeftoverJournals.Outcome> leftovers = LeftoverJournals.restoreAll(dir);

        assertThat(capCode).isZero();
        assertThat(record.get("heldUntilRestore").asBoolean()).isTrue();
        assertThat(leftovers).isEmpty();
        assertThat(read(root, POLICIES + "/policy1/scaling_max_freq")).isEqualTo("1200000");
        assertThat(run("power", "restore", "--journal", journal.toString())).isZero();
        assertThat(read(root, POLICIES + "/policy1/scaling_max_freq")).isEqualTo("2600000");
    }

    /** A cap held on a fake tree that was deleted since: restore sets the journal aside (it failed and kept it forever). */
    @Test
    void when_the_capped_tree_was_deleted_then_restore_removes_its_journal_and_exits_zero() throws IOException {
        Path root = acpiTree();
        Path journal = tmp.resolve("held/journal.json");
        assertThat(run("power", "cap", "--sysfs-root", root.toString(), "--journal", journal.toString())).isZero();
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }

        int code = run("power", "restore", "--journal", journal.toString());

        assertThat(code).isZero();
        Path aside = journal.resolveSibling("journal.json.orphaned");
        assertThat(out.toString()).contains("nothing to restore: the sysfs root " + root + " of journal " + journal
                + " does not exist; the journal is set aside as " + aside);
        assertThat(Files.exists(journal)).isFalse();
        assertThat(Files.exists(aside)).isTrue();
    }

    @Test
    void when_nothing_can_be_capped_then_cap_says_why_and_exits_zero_without_a_journal() throws IOException {
        Path root = vmTree();
        Path journal = tmp.resolve("j.json");

        int code = run("power", "cap", "--sysfs-root", root.toString(), "--journal", journal.toString());

        assertThat(code).isZero();
        assertThat(out.toString()).contains("frequency capping is a no-op: no cpufreq");
        assertThat(Files.exists(journal)).isFalse();
    }

    @Test
    void when_the_journal_is_corrupt_then_restore_says_so_in_one_line_and_keeps_it() throws IOException {
        Path root = acpiTree();
        Path journal = Files.writeString(tmp.resolve("j.json"), "{\"version\": 1, \"policies\": [tru");

        int code = run("power", "restore", "--sysfs-root", root.toString(), "--journal", journal.toString());

        assertThat(code).isEqualTo(1);
        assertThat(err.toString().strip().lines()).hasSize(1);
        assertThat(err.toString()).startsWith("dfr power restore: " + journal + " is not a readable restore journal (")
                .contains("the limits it saved are lost").doesNotContain("Exception");
        assertThat(journal).exists();
        assertThat(read(root, POLICIES + "/policy0/scaling_max_freq")).isEqualTo("2600000");
    }

    @Test
    void when_there_is_no_journal_then_restore_says_nothing_to_restore_and_exits_zero() throws IOException {
        Path root = vmTree();

        int code = run("power", "restore", "--sysfs-root", root.toString(), "--journal", tmp.resolve("j.json").toString());

        assertThat(code).isZero();
        assertThat(out.toString()).contains("nothing to restore");
    }

    @Test
    void when_sampling_without_a_source_then_the_report_says_none_and_the_csv_has_rows() throws IOException {
        Path root = vmTree();
        Path csv = tmp.resolve("out/samples.csv");
        Path json = tmp.resolve("out/energy.json");

        int code = run("power", "sample", "--seconds", "0.3", "--period-millis", "50", "--sysfs-root", root.toString(),
                "--csv", csv.toString(), "--json", json.toString());

        assertThat(code).isZero();
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        assertThat(report.get("source").asText()).isEqualTo("none");
        assertThat(report.get("joules").isNull()).isTrue();
        List<String> rows = Files.readAllLines(csv);
        // the columns dfr run --samples writes too, under the same names and in the same order
        assertThat(rows.get(0)).startsWith(TimelineCsv.HEADER + ",");
        assertThat(rows.size() - 1).isEqualTo(report.get("hosts").get(0).get("samples").asInt()).isPositive();
        assertThat(out.toString()).contains("energy: not measured");
    }

    @Test
    void when_sampling_with_model_constants_then_the_report_is_labelled_model_with_them() throws IOException {
        Path root = vmTree();
        Path json = tmp.resolve("energy.json");

        int code = run("power", "sample", "--seconds", "0.2", "--period-millis", "50", "--sysfs-root", root.toString(),
                "--idle-power-watts", "40", "--busy-power-watts", "120", "--json", json.toString());

        assertThat(code).isZero();
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        assertThat(report.get("source").asText()).isEqualTo("model");
        assertThat(report.get("parameters").get("idlePowerWatts").asDouble()).isEqualTo(40.0);
        assertThat(report.get("parameters").get("busyPowerWatts").asDouble()).isEqualTo(120.0);
        // the model gives between idle and busy power; the meter and the sampler read the clock a few
        // microseconds apart, hence the small tolerance
        assertThat(report.get("meanWatts").asDouble()).isBetween(39.9, 120.1);
    }

    @Test
    void when_arguments_are_bad_then_the_exit_code_is_2_and_the_message_names_the_value() throws IOException {
        Path root = vmTree();

        assertThat(run("power", "sample", "--seconds", "0", "--sysfs-root", root.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--seconds 0.0");
        assertThat(run("power", "sample", "--seconds", "1", "--idle-power-watts", "40", "--sysfs-root",
                root.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--idle-power-watts and --busy-power-watts go together");
        assertThat(run("power", "sample", "--seconds", "1", "--idle-power-watts", "40", "--busy-power-watts", "10",
                "--sysfs-root", root.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("busy power must be");
        assertThat(run("power", "status", "--sysfs-root", tmp.resolve("missing").toString())).isEqualTo(2);
        assertThat(err.toString()).contains("missing: not a directory");
        assertThat(run("power")).isEqualTo(2);
        assertThat(err.toString()).contains("Missing subcommand");
    }
}
